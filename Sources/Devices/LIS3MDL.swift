import LodestoneCore
import LodestoneHAL

/// ST LIS3MDL three-axis magnetometer (datasheet DocID024204).
///
/// Soft reset, then continuous conversion with block data update, the same operating mode
/// (ST's word for how long each axis integrates, so its noise) on X/Y and on Z. On I2C the chip
/// only steps through registers when the register address has its top bit set (section
/// 5.1.1), so every burst sets it. A read takes STATUS_REG and the six data bytes in one burst.
/// Output in microtesla, in the chip's own axes.
public struct LIS3MDL<Bus: I2CBus>: ChipDriver {
    /// CTRL_REG2 FS[1:0] and the sensitivity of each range (Table 3).
    public enum Range: UInt8, Sendable {
        case gauss4 = 0, gauss8 = 1, gauss12 = 2, gauss16 = 3
        public var countsPerGauss: Double {
            switch self {
            case .gauss4: return 6842
            case .gauss8: return 3421
            case .gauss12: return 2281
            case .gauss16: return 1711
            }
        }
        /// 1 gauss = 100 microtesla.
        public var countsPerMicrotesla: Double { countsPerGauss / 100 }
    }
    /// OM[1:0] (X and Y, CTRL_REG1) and OMZ[1:0] (Z, CTRL_REG4): longer integration, less noise.
    public enum OperatingMode: UInt8, Sendable { case lowPower = 0, mediumPerformance = 1, highPerformance = 2, ultraHighPerformance = 3 }
    /// CTRL_REG1 DO[2:0] output data rates (Table 20).
    public enum OutputRate: UInt8, Sendable {
        case hz0_625 = 0, hz1_25 = 1, hz2_5 = 2, hz5 = 3, hz10 = 4, hz20 = 5, hz40 = 6, hz80 = 7
    }

    public static var chipID: UInt8 { 0x3D }
    static var whoAmI: UInt8 { 0x0F }
    static var control1: UInt8 { 0x20 }
    static var control2: UInt8 { 0x21 }
    static var control3: UInt8 { 0x22 }
    static var control4: UInt8 { 0x23 }
    static var control5: UInt8 { 0x24 }
    static var status: UInt8 { 0x27 }
    /// Register address bit 7: increment the address through a multi-byte transfer.
    static var autoIncrement: UInt8 { 0x80 }
    static var softReset: UInt8 { 0x04 }

    public let device: I2CRegisterDevice<Bus>
    public var range: Range
    public var operatingMode: OperatingMode
    public var outputRate: OutputRate
    private let buffer = RegisterBuffer(count: 7)

    public static var chips: [ChipInfo] {
        [ChipInfo(name: "lis3mdl", displayName: "LIS3MDL", kind: .magnetometer, addresses: [0x1C, 0x1E])]
    }

    public static func identify(bus: Bus, address: UInt8) -> ChipInfo? {
        let id = try? I2CRegisterDevice(bus: bus, address: address).readRegister(whoAmI)
        return id == chipID ? chips[0] : nil
    }

    public init(bus: Bus, address: UInt8) { self.init(bus: bus, address: address, range: .gauss4) }

    /// Defaults: +-4 G (0.015 uT per count; Earth's field is under 0.65 G), ultra-high
    /// performance (the lowest noise), 80 Hz.
    public init(
        bus: Bus, address: UInt8 = 0x1C, range: Range = .gauss4,
        operatingMode: OperatingMode = .ultraHighPerformance, outputRate: OutputRate = .hz80
    ) {
        device = I2CRegisterDevice(bus: bus, address: address)
        self.range = range
        self.operatingMode = operatingMode
        self.outputRate = outputRate
    }

    public mutating func start() throws(DeviceError) {
        try device.expectIdentity(chip: "LIS3MDL", register: Self.whoAmI, value: Self.chipID)
        try device.write(Self.control2, Self.softReset)
        // SOFT_RST clears itself once the registers are back at their defaults.
        var resetting = true
        for _ in 0..<10 where resetting { resetting = try device.read(Self.control2) & Self.softReset != 0 }
        guard !resetting else { throw .implausibleReading(chip: "LIS3MDL") }
        try device.write(Self.control1, operatingMode.rawValue << 5 | outputRate.rawValue << 2)
        try device.write(Self.control2, range.rawValue << 5)
        try device.write(Self.control4, operatingMode.rawValue << 2)
        try device.write(Self.control5, 0x40)  // BDU: low and high bytes from one conversion
        try device.write(Self.control3, 0x00)  // MD = 00: continuous conversion
    }

    /// The newest field, or nil when no new measurement is ready.
    public mutating func read(at time: MonotonicNanoseconds) throws(DeviceError) -> MagneticSample? {
        try device.read(Self.status | Self.autoIncrement, into: buffer.slice(7))
        guard buffer[0] & 0x08 != 0 else { return nil }  // ZYXDA
        let scale = 1 / range.countsPerMicrotesla
        return MagneticSample(
            time: time,
            field: Vector3(
                Double(buffer.int16LE(1)) * scale, Double(buffer.int16LE(3)) * scale,
                Double(buffer.int16LE(5)) * scale))
    }
}
