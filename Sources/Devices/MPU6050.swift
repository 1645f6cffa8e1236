import LodestoneCore
import LodestoneHAL

/// InvenSense MPU-6050 accelerometer and gyroscope (product specification PS-MPU-6000A,
/// register map RM-MPU-6000A).
///
/// Woken from its power-on sleep with the X gyro as clock (more stable than the internal
/// oscillator, section 4.28), low-pass filtered at 44 Hz, sampled at `sampleRateHz`. A read
/// takes INT_STATUS and the 14 data bytes in one burst, so data-ready and data match.
public struct MPU6050<Bus: I2CBus>: ChipDriver {
    public enum AccelerometerRange: UInt8, Sendable {
        case g2 = 0, g4 = 1, g8 = 2, g16 = 3
        public var countsPerG: Double { 16_384 / Double(1 << rawValue) }
    }
    public enum GyroscopeRange: UInt8, Sendable {
        case dps250 = 0, dps500 = 1, dps1000 = 2, dps2000 = 3
        public var countsPerDegreePerSecond: Double {
            switch self {
            case .dps250: return 131
            case .dps500: return 65.5
            case .dps1000: return 32.8
            case .dps2000: return 16.4
            }
        }
    }

    public static var chipID: UInt8 { 0x68 }
    static var whoAmI: UInt8 { 0x75 }
    static var powerManagement1: UInt8 { 0x6B }
    static var sampleRateDivider: UInt8 { 0x19 }
    static var config: UInt8 { 0x1A }
    static var gyroConfig: UInt8 { 0x1B }
    static var accelConfig: UInt8 { 0x1C }
    static var interruptEnable: UInt8 { 0x38 }
    static var interruptStatus: UInt8 { 0x3A }
    public static var standardGravity: Double { 9.80665 }

    public let device: I2CRegisterDevice<Bus>
    public var accelerometerRange: AccelerometerRange
    public var gyroscopeRange: GyroscopeRange
    public var sampleRateHz: Double
    private let buffer = RegisterBuffer(count: 15)

    public static var chips: [ChipInfo] {
        [ChipInfo(name: "mpu6050", displayName: "MPU-6050", kind: .imu, addresses: [0x68, 0x69])]
    }

    /// WHO_AM_I holds the upper six bits of the address (0x68) whatever AD0 selects.
    public static func identify(bus: Bus, address: UInt8) -> ChipInfo? {
        let id = try? I2CRegisterDevice(bus: bus, address: address).readRegister(whoAmI)
        return id == chipID ? chips[0] : nil
    }

    public init(bus: Bus, address: UInt8) { self.init(bus: bus, address: address, accelerometerRange: .g4) }

    /// Defaults: +-4 g (footsteps and a flip fit), +-500 deg/s, 100 samples a second.
    public init(bus: Bus, address: UInt8 = 0x68, accelerometerRange: AccelerometerRange = .g4,
                gyroscopeRange: GyroscopeRange = .dps500, sampleRateHz: Double = 100) {
        device = I2CRegisterDevice(bus: bus, address: address)
        self.accelerometerRange = accelerometerRange
        self.gyroscopeRange = gyroscopeRange
        self.sampleRateHz = sampleRateHz
    }

    public mutating func start() throws(DeviceError) {
        try device.expectIdentity(chip: "MPU-6050", register: Self.whoAmI, value: Self.chipID)
        try device.write(Self.powerManagement1, 0x01)
        try device.write(Self.config, 0x03)   // DLPF 44 Hz: the gyro output rate becomes 1 kHz
        let divider = min(255, max(0, Int((1000 / max(sampleRateHz, 4)).rounded()) - 1))
        try device.write(Self.sampleRateDivider, UInt8(divider))
        try device.write(Self.gyroConfig, gyroscopeRange.rawValue << 3)
        try device.write(Self.accelConfig, accelerometerRange.rawValue << 3)
        try device.write(Self.interruptEnable, 0x01)
    }

    /// The newest sample in SI units (m/s^2, rad/s, degrees Celsius), or nil when none is ready.
    public mutating func read(at time: MonotonicNanoseconds) throws(DeviceError) -> ImuSample? {
        try device.read(Self.interruptStatus, into: buffer.slice(15))
        guard buffer[0] & 0x01 != 0 else { return nil }
        let acceleration = Self.standardGravity / accelerometerRange.countsPerG
        let rotation = Double.pi / 180 / gyroscopeRange.countsPerDegreePerSecond
        return ImuSample(
            time: time,
            acceleration: Vector3(Double(buffer.int16BE(1)) * acceleration, Double(buffer.int16BE(3)) * acceleration,
                                  Double(buffer.int16BE(5)) * acceleration),
            rotationRate: Vector3(Double(buffer.int16BE(9)) * rotation, Double(buffer.int16BE(11)) * rotation,
                                  Double(buffer.int16BE(13)) * rotation),
            temperature: Double(buffer.int16BE(7)) / 340 + 36.53)
    }
}
