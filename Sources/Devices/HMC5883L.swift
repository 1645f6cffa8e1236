import LodestoneCore
import LodestoneHAL

/// Honeywell HMC5883L three-axis magnetometer (datasheet HMC5883L, Form #900405 Rev E).
///
/// Runs in single-measurement mode: in continuous mode RDY stays set after the data have been
/// read (it only clears while the chip writes the next result, Table 17), so polling could not
/// tell a new result from one already taken. In single-measurement mode RDY stays high until
/// the data are read (Table 16), so each read takes the finished result and triggers the next
/// one; the measurement rate follows the task rate, up to the 160 Hz the datasheet allows.
/// Output in microtesla, in the chip's own axes.
public struct HMC5883L<Bus: I2CBus>: ChipDriver {
    /// Gain settings of Configuration Register B (Table 9): field range and LSB per gauss.
    public enum Range: UInt8, Sendable {
        case gauss0_88 = 0, gauss1_3 = 1, gauss1_9 = 2, gauss2_5 = 3, gauss4_0 = 4, gauss4_7 = 5, gauss5_6 = 6, gauss8_1 = 7
        public var countsPerGauss: Double {
            switch self {
            case .gauss0_88: return 1370
            case .gauss1_3: return 1090
            case .gauss1_9: return 820
            case .gauss2_5: return 660
            case .gauss4_0: return 440
            case .gauss4_7: return 390
            case .gauss5_6: return 330
            case .gauss8_1: return 230
            }
        }
        /// 1 gauss = 100 microtesla.
        public var countsPerMicrotesla: Double { countsPerGauss / 100 }
    }
    /// Samples averaged into each result (Configuration Register A, MA1-MA0, Table 5).
    public enum Averaging: UInt8, Sendable { case x1 = 0, x2 = 1, x4 = 2, x8 = 3 }

    /// Identification registers A, B, C hold ASCII "H43" (Tables 18-20).
    public static var identity: (UInt8, UInt8, UInt8) { (0x48, 0x34, 0x33) }
    static var configA: UInt8 { 0x00 }
    static var configB: UInt8 { 0x01 }
    static var mode: UInt8 { 0x02 }
    static var dataXMSB: UInt8 { 0x03 }
    static var status: UInt8 { 0x09 }
    static var identificationA: UInt8 { 0x0A }
    static var singleMeasurement: UInt8 { 0x01 }
    /// What a data register holds when its channel's ADC overflowed (page 15).
    static var overflow: Int16 { -4096 }

    public let device: I2CRegisterDevice<Bus>
    public var range: Range
    public var averaging: Averaging
    private let buffer = RegisterBuffer(count: 6)

    public static var chips: [ChipInfo] {
        [ChipInfo(name: "hmc5883l", displayName: "HMC5883L", kind: .magnetometer, addresses: [0x1E])]
    }

    public static func identify(bus: Bus, address: UInt8) -> ChipInfo? {
        let device = I2CRegisterDevice(bus: bus, address: address)
        var id: (UInt8, UInt8, UInt8) = (0, 0, 0)
        let read: Bool = withUnsafeMutableBytes(of: &id) { bytes in
            (try? device.readRegisters(identificationA, into: bytes)) != nil
        }
        return read && id == identity ? chips[0] : nil
    }

    public init(bus: Bus, address: UInt8) { self.init(bus: bus, address: address, range: .gauss2_5) }

    /// Defaults: +-2.5 G (Earth's field of at most 0.65 G leaves room for a hard-iron offset
    /// from the board, at 0.15 uT per count), 8 samples averaged for the lowest noise.
    public init(bus: Bus, address: UInt8 = 0x1E, range: Range = .gauss2_5, averaging: Averaging = .x8) {
        device = I2CRegisterDevice(bus: bus, address: address)
        self.range = range
        self.averaging = averaging
    }

    public mutating func start() throws(DeviceError) {
        try device.read(Self.identificationA, into: buffer.slice(3))
        let expected = Self.identity
        for (index, value) in [expected.0, expected.1, expected.2].enumerated() where buffer[index] != value {
            throw .wrongChip(chip: "HMC5883L", register: Self.identificationA + UInt8(index), expected: value, found: buffer[index])
        }
        // Output-rate bits (DO = 0b100, the 15 Hz default) only matter in continuous mode;
        // normal measurement configuration (no bias current).
        try device.write(Self.configA, averaging.rawValue << 5 | 0b100 << 2)
        try device.write(Self.configB, range.rawValue << 5)
        try device.write(Self.mode, Self.singleMeasurement)
    }

    /// The newest field, or nil when the measurement is not finished or a channel overflowed.
    public mutating func read(at time: MonotonicNanoseconds) throws(DeviceError) -> MagneticSample? {
        let status = try device.read(Self.status)
        guard status & 0x01 != 0 else { return nil }
        // All six bytes in one burst: a partial read locks the data registers (Table 17, LOCK).
        try device.read(Self.dataXMSB, into: buffer.slice(6))
        try device.write(Self.mode, Self.singleMeasurement)
        // Register order is X, Z, Y (Table 2).
        let x = buffer.int16BE(0), z = buffer.int16BE(2), y = buffer.int16BE(4)
        guard x != Self.overflow, y != Self.overflow, z != Self.overflow else { return nil }
        let scale = 1 / range.countsPerMicrotesla
        return MagneticSample(time: time, field: Vector3(Double(x) * scale, Double(y) * scale, Double(z) * scale))
    }
}
