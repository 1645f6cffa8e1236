import LodestoneCore
import LodestoneHAL

/// QST QMC5883L three-axis magnetometer (datasheet QMC5883L-Datasheet-1.0), the chip on most
/// "GY-271" boards sold as HMC5883L today.
///
/// Run in continuous mode; a read checks the data-ready bit and takes the six data bytes in
/// one burst. Output in microtesla, in the chip's own axes.
public struct QMC5883L<Bus: I2CBus>: ChipDriver {
    public enum Range: UInt8, Sendable {
        case gauss2 = 0, gauss8 = 1
        /// LSB per microtesla (12000 LSB/G at 2 G, 3000 LSB/G at 8 G; 1 G = 100 uT).
        public var countsPerMicrotesla: Double { self == .gauss2 ? 120 : 30 }
    }
    public enum OutputRate: UInt8, Sendable { case hz10 = 0, hz50 = 1, hz100 = 2, hz200 = 3 }
    public enum Oversampling: UInt8, Sendable { case x512 = 0, x256 = 1, x128 = 2, x64 = 3 }

    public static var chipID: UInt8 { 0xFF }
    static var idRegister: UInt8 { 0x0D }
    static var statusRegister: UInt8 { 0x06 }
    static var control1: UInt8 { 0x09 }
    static var control2: UInt8 { 0x0A }
    static var setResetPeriod: UInt8 { 0x0B }

    public let device: I2CRegisterDevice<Bus>
    public var range: Range
    public var outputRate: OutputRate
    public var oversampling: Oversampling
    private let buffer = RegisterBuffer(count: 6)

    public static var chips: [ChipInfo] {
        [ChipInfo(name: "qmc5883l", displayName: "QMC5883L", kind: .magnetometer, addresses: [0x0D])]
    }

    /// 0x0D reads 0xFF, which a chip driving the bus high also returns, so the status
    /// register must agree as well: only its low three bits (DRDY, OVL, DOR) are ever set.
    public static func identify(bus: Bus, address: UInt8) -> ChipInfo? {
        let device = I2CRegisterDevice(bus: bus, address: address)
        guard (try? device.readRegister(idRegister)) == chipID,
            let status = try? device.readRegister(statusRegister), status & 0xF8 == 0
        else { return nil }
        return chips[0]
    }

    public init(bus: Bus, address: UInt8) { self.init(bus: bus, address: address, range: .gauss8) }

    /// Defaults: 8 G range (a strong nearby magnet does not saturate it), 100 Hz, x512 oversampling.
    public init(
        bus: Bus, address: UInt8 = 0x0D, range: Range = .gauss8, outputRate: OutputRate = .hz100,
        oversampling: Oversampling = .x512
    ) {
        device = I2CRegisterDevice(bus: bus, address: address)
        self.range = range
        self.outputRate = outputRate
        self.oversampling = oversampling
    }

    public mutating func start() throws(DeviceError) {
        // 0x0D reads 0xFF on this chip; that is also what a floating bus returns, so the
        // address (0x0D, which no HMC5883L uses) does most of the identifying.
        try device.expectIdentity(chip: "QMC5883L", register: Self.idRegister, value: Self.chipID)
        try device.write(Self.control2, 0x80)  // soft reset
        try device.write(Self.setResetPeriod, 0x01)  // recommended by the datasheet
        try device.write(Self.control1, oversampling.rawValue << 6 | range.rawValue << 4 | outputRate.rawValue << 2 | 0b01)
    }

    /// The newest field, or nil when no new measurement is ready or the axes overflowed.
    public mutating func read(at time: MonotonicNanoseconds) throws(DeviceError) -> MagneticSample? {
        // Status first: reading the data registers clears DRDY.
        let status = try device.read(Self.statusRegister)
        guard status & 0x01 != 0 else { return nil }
        try device.read(0x00, into: buffer.slice(6))
        guard status & 0x02 == 0 else { return nil }  // overflow: a magnet too close, not a chip fault
        let scale = 1 / range.countsPerMicrotesla
        let field = Vector3(
            Double(buffer.int16LE(0)) * scale, Double(buffer.int16LE(2)) * scale,
            Double(buffer.int16LE(4)) * scale)
        return MagneticSample(time: time, field: field)
    }
}

extension QMC5883L {
    /// The slowest of 10, 50, 100, 200 Hz that still delivers `hz`.
    public mutating func configureRate(_ hz: Double) throws(DeviceError) -> Bool {
        outputRate = hz <= 10 ? .hz10 : (hz <= 50 ? .hz50 : (hz <= 100 ? .hz100 : .hz200))
        try device.write(Self.control1, oversampling.rawValue << 6 | range.rawValue << 4 | outputRate.rawValue << 2 | 0b01)
        return true
    }
}
