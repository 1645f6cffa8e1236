import LodestoneCore
import LodestoneHAL

/// ST LSM6DS3, LSM6DS3TR-C and LSM6DSOX accelerometer and gyroscope: one register layout for
/// what this driver uses (datasheets DocID026899 LSM6DS3, DS12185 LSM6DS3TR-C, DS13604
/// LSM6DSOX), told apart by WHO_AM_I and by the temperature sensor's sensitivity.
///
/// Software reset, then block data update (so a sample's low and high bytes belong together)
/// with register auto-increment, both sensors at `outputRate`. The anti-aliasing and digital
/// filters stay at the bandwidth the datasheets tie to the output rate. A read checks STATUS_REG
/// and takes temperature, gyro and accelerometer in one 14-byte burst.
public struct LSM6DS<Bus: I2CBus>: ChipDriver {
    /// A family member: what its WHO_AM_I says and how its temperature output scales.
    public struct Variant: Sendable, Equatable {
        public let displayName: String
        public let whoAmI: UInt8
        /// LSB per degree Celsius around 0 LSB at 25 degC (Table "Temperature sensor characteristics").
        public let temperatureCountsPerDegree: Double

        public static var lsm6ds3: Variant { Variant(displayName: "LSM6DS3", whoAmI: 0x69, temperatureCountsPerDegree: 16) }
        public static var lsm6ds3trc: Variant { Variant(displayName: "LSM6DS3TR-C", whoAmI: 0x6A, temperatureCountsPerDegree: 256) }
        public static var lsm6dsox: Variant { Variant(displayName: "LSM6DSOX", whoAmI: 0x6C, temperatureCountsPerDegree: 256) }
        public static var all: [Variant] { [lsm6ds3, lsm6ds3trc, lsm6dsox] }
    }

    /// CTRL1_XL FS_XL codes; the +-16 g setting sits at 01, out of order (Table "CTRL1_XL").
    public enum AccelerometerRange: UInt8, Sendable {
        case g2 = 0b00, g4 = 0b10, g8 = 0b11, g16 = 0b01
        /// Linear acceleration sensitivity, mg per LSB (Table "Mechanical characteristics").
        public var milligPerCount: Double {
            switch self {
            case .g2: return 0.061
            case .g4: return 0.122
            case .g8: return 0.244
            case .g16: return 0.488
            }
        }
    }
    /// CTRL2_G: FS_G in bits 3-2, with FS_125 (bit 1) overriding it.
    public enum GyroscopeRange: UInt8, Sendable {
        case dps125 = 0b0010, dps250 = 0b0000, dps500 = 0b0100, dps1000 = 0b1000, dps2000 = 0b1100
        /// Angular rate sensitivity, mdps per LSB (Table "Mechanical characteristics").
        public var millidegreesPerSecondPerCount: Double {
            switch self {
            case .dps125: return 4.375
            case .dps250: return 8.75
            case .dps500: return 17.5
            case .dps1000: return 35
            case .dps2000: return 70
            }
        }
    }
    /// ODR codes shared by CTRL1_XL and CTRL2_G (high-performance mode).
    public enum OutputRate: UInt8, Sendable {
        case hz12_5 = 1, hz26 = 2, hz52 = 3, hz104 = 4, hz208 = 5, hz416 = 6, hz833 = 7
    }

    static var whoAmI: UInt8 { 0x0F }
    static var control1Accel: UInt8 { 0x10 }
    static var control2Gyro: UInt8 { 0x11 }
    static var control3: UInt8 { 0x12 }
    static var status: UInt8 { 0x1E }
    static var temperatureLow: UInt8 { 0x20 }
    /// CTRL3_C: BDU (bit 6) and IF_INC (bit 2); SW_RESET is bit 0 and clears itself.
    static var blockUpdateAndIncrement: UInt8 { 0x44 }
    static var softwareReset: UInt8 { 0x01 }
    public static var standardGravity: Double { 9.80665 }

    public let device: I2CRegisterDevice<Bus>
    public var accelerometerRange: AccelerometerRange
    public var gyroscopeRange: GyroscopeRange
    public var outputRate: OutputRate
    /// The family member found by `start()`.
    public private(set) var variant: Variant = .lsm6dsox
    private let buffer = RegisterBuffer(count: 14)

    public static var chips: [ChipInfo] {
        [
            ChipInfo(name: "lsm6ds3", displayName: "LSM6DS3", kind: .imu, addresses: [0x6A, 0x6B]),
            ChipInfo(name: "lsm6dsox", displayName: "LSM6DSOX", kind: .imu, addresses: [0x6A, 0x6B])
        ]
    }

    /// The LSM6DS3TR-C is a revision of the LSM6DS3 and shares its board-file name.
    public static func identify(bus: Bus, address: UInt8) -> ChipInfo? {
        let id = try? I2CRegisterDevice(bus: bus, address: address).readRegister(whoAmI)
        if id == Variant.lsm6ds3.whoAmI || id == Variant.lsm6ds3trc.whoAmI { return chips[0] }
        if id == Variant.lsm6dsox.whoAmI { return chips[1] }
        return nil
    }

    public init(bus: Bus, address: UInt8) { self.init(bus: bus, address: address, accelerometerRange: .g4) }

    /// Defaults: +-4 g, +-500 deg/s, 104 Hz (the rate a 100 Hz task reads).
    public init(
        bus: Bus, address: UInt8 = 0x6A, accelerometerRange: AccelerometerRange = .g4,
        gyroscopeRange: GyroscopeRange = .dps500, outputRate: OutputRate = .hz104
    ) {
        device = I2CRegisterDevice(bus: bus, address: address)
        self.accelerometerRange = accelerometerRange
        self.gyroscopeRange = gyroscopeRange
        self.outputRate = outputRate
    }

    public mutating func start() throws(DeviceError) {
        let id = try device.read(Self.whoAmI)
        guard let found = Self.variant(whoAmI: id) else {
            throw .wrongChip(chip: "LSM6DS3/LSM6DSOX", register: Self.whoAmI, expected: Variant.lsm6dsox.whoAmI, found: id)
        }
        variant = found
        try device.write(Self.control3, Self.softwareReset)
        // SW_RESET clears itself within about 50 us; a few polls cover it at any bus speed.
        var resetting = true
        for _ in 0..<10 where resetting { resetting = try device.read(Self.control3) & Self.softwareReset != 0 }
        guard !resetting else { throw .implausibleReading(chip: variant.displayName) }
        try device.write(Self.control3, Self.blockUpdateAndIncrement)
        try device.write(Self.control1Accel, outputRate.rawValue << 4 | accelerometerRange.rawValue << 2)
        try device.write(Self.control2Gyro, outputRate.rawValue << 4 | gyroscopeRange.rawValue)
    }

    static func variant(whoAmI id: UInt8) -> Variant? {
        for variant in Variant.all where variant.whoAmI == id { return variant }
        return nil
    }

    /// The newest sample in SI units (m/s^2, rad/s, degrees Celsius), or nil when none is ready.
    public mutating func read(at time: MonotonicNanoseconds) throws(DeviceError) -> ImuSample? {
        // XLDA (bit 0) or GDA (bit 1): at one output rate both sensors update together.
        guard try device.read(Self.status) & 0x03 != 0 else { return nil }
        try device.read(Self.temperatureLow, into: buffer.slice(14))
        let acceleration = accelerometerRange.milligPerCount / 1000 * Self.standardGravity
        let rotation = gyroscopeRange.millidegreesPerSecondPerCount / 1000 * Double.pi / 180
        return ImuSample(
            time: time,
            acceleration: Vector3(
                Double(buffer.int16LE(8)) * acceleration, Double(buffer.int16LE(10)) * acceleration,
                Double(buffer.int16LE(12)) * acceleration),
            rotationRate: Vector3(
                Double(buffer.int16LE(2)) * rotation, Double(buffer.int16LE(4)) * rotation,
                Double(buffer.int16LE(6)) * rotation),
            temperature: Double(buffer.int16LE(0)) / variant.temperatureCountsPerDegree + 25)
    }
}
