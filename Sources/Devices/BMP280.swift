import LodestoneCore
import LodestoneHAL

/// Bosch BMP280 barometer (datasheet BST-BMP280-DS001).
///
/// Identified by its chip ID, reset, read back its factory trimming words, then run in normal
/// mode. Each read takes the six data registers in one burst (so pressure and temperature
/// belong to the same conversion, section 4.1) and compensates them with the datasheet's
/// integer formulas: the 32-bit temperature formula and the 64-bit pressure formula.
public struct BMP280<Bus: I2CBus>: ChipDriver {
    public enum Oversampling: UInt8, Sendable { case x1 = 1, x2 = 2, x4 = 3, x8 = 4, x16 = 5 }
    public enum Filter: UInt8, Sendable { case off = 0, x2 = 1, x4 = 2, x8 = 3, x16 = 4 }

    /// The trimming words of registers 0x88..0x9F.
    public struct Calibration: Sendable, Equatable {
        public var t1: UInt16, t2: Int16, t3: Int16
        public var p1: UInt16, p2: Int16, p3: Int16, p4: Int16, p5: Int16, p6: Int16, p7: Int16, p8: Int16, p9: Int16

        public init(t1: UInt16, t2: Int16, t3: Int16, p1: UInt16, p2: Int16, p3: Int16, p4: Int16, p5: Int16,
                    p6: Int16, p7: Int16, p8: Int16, p9: Int16) {
            (self.t1, self.t2, self.t3) = (t1, t2, t3)
            (self.p1, self.p2, self.p3, self.p4, self.p5, self.p6, self.p7, self.p8, self.p9) = (p1, p2, p3, p4, p5, p6, p7, p8, p9)
        }
    }

    public static var chipID: UInt8 { 0x58 }
    static var idRegister: UInt8 { 0xD0 }
    static var resetRegister: UInt8 { 0xE0 }
    static var controlRegister: UInt8 { 0xF4 }
    static var configRegister: UInt8 { 0xF5 }
    static var dataRegister: UInt8 { 0xF7 }
    static var calibrationRegister: UInt8 { 0x88 }

    public let device: I2CRegisterDevice<Bus>
    public var pressureOversampling: Oversampling
    public var temperatureOversampling: Oversampling
    public var filter: Filter
    public private(set) var calibration: Calibration?
    private let buffer = RegisterBuffer(count: 24)

    public static var chips: [ChipInfo] {
        [ChipInfo(name: "bmp280", displayName: "BMP280", kind: .barometer, addresses: [0x76, 0x77])]
    }

    public static func identify(bus: Bus, address: UInt8) -> ChipInfo? {
        let id = try? I2CRegisterDevice(bus: bus, address: address).readRegister(idRegister)
        return id == chipID ? chips[0] : nil
    }

    public init(bus: Bus, address: UInt8) { self.init(bus: bus, address: address, pressureOversampling: .x16) }

    /// Defaults are the datasheet's "ultra high resolution" setting (x16 pressure, x2
    /// temperature) with a x4 IIR filter: about 26 readings a second, 1.3 Pa of noise.
    public init(bus: Bus, address: UInt8 = 0x76, pressureOversampling: Oversampling = .x16,
                temperatureOversampling: Oversampling = .x2, filter: Filter = .x4) {
        device = I2CRegisterDevice(bus: bus, address: address)
        self.pressureOversampling = pressureOversampling
        self.temperatureOversampling = temperatureOversampling
        self.filter = filter
    }

    /// Identifies, resets and configures the chip (normal mode, 0.5 ms standby).
    public mutating func start() throws(DeviceError) {
        try device.expectIdentity(chip: "BMP280", register: Self.idRegister, value: Self.chipID)
        try device.write(Self.resetRegister, 0xB6)
        try device.read(Self.calibrationRegister, into: buffer.slice(24))
        let c = Calibration(t1: UInt16(bitPattern: buffer.int16LE(0)), t2: buffer.int16LE(2), t3: buffer.int16LE(4),
                            p1: UInt16(bitPattern: buffer.int16LE(6)), p2: buffer.int16LE(8), p3: buffer.int16LE(10),
                            p4: buffer.int16LE(12), p5: buffer.int16LE(14), p6: buffer.int16LE(16),
                            p7: buffer.int16LE(18), p8: buffer.int16LE(20), p9: buffer.int16LE(22))
        // A floating SDA line reads 0xFF everywhere, a dead one 0x00: neither is a real trimming set.
        guard c.t1 != 0, c.p1 != 0, c.t1 != 0xFFFF, c.p1 != 0xFFFF else { throw .invalidCalibration(chip: "BMP280") }
        calibration = c
        try device.write(Self.configRegister, filter.rawValue << 2)
        try device.write(Self.controlRegister,
                         temperatureOversampling.rawValue << 5 | pressureOversampling.rawValue << 2 | 0b11)
    }

    /// The latest conversion; nil before the first one has completed (the data registers
    /// still hold their reset value 0x80000).
    public mutating func read(at time: MonotonicNanoseconds) throws(DeviceError) -> PressureSample? {
        guard let calibration else { throw .invalidCalibration(chip: "BMP280") }
        try device.read(Self.dataRegister, into: buffer.slice(6))
        let rawPressure = Int32(buffer[0]) << 12 | Int32(buffer[1]) << 4 | Int32(buffer[2]) >> 4
        let rawTemperature = Int32(buffer[3]) << 12 | Int32(buffer[4]) << 4 | Int32(buffer[5]) >> 4
        if rawPressure == 0x80000 || rawTemperature == 0x80000 { return nil }
        let fine = Self.fineTemperature(rawTemperature, calibration)
        let pressureQ24_8 = Self.pressureQ24_8(rawPressure, fine: fine, calibration)
        guard pressureQ24_8 > 0 else { throw .implausibleReading(chip: "BMP280") }
        let pressure = Double(pressureQ24_8) / 256
        guard pressure > 30_000, pressure < 110_000 else { throw .implausibleReading(chip: "BMP280") }
        return PressureSample(time: time, pressure: pressure, temperature: Double(Self.centidegrees(fine: fine)) / 100)
    }

    // MARK: Compensation (datasheet section 3.11.3), wrapping arithmetic so that a garbled
    // reading gives a wrong number that is then rejected, never a trap.

    /// t_fine: the temperature value the pressure formula needs.
    public static func fineTemperature(_ adcT: Int32, _ c: Calibration) -> Int32 {
        let t1 = Int32(c.t1), t2 = Int32(c.t2), t3 = Int32(c.t3)
        let var1 = (((adcT >> 3) &- (t1 << 1)) &* t2) >> 11
        let delta = (adcT >> 4) &- t1
        let var2 = (((delta &* delta) >> 12) &* t3) >> 14
        return var1 &+ var2
    }

    /// Temperature in hundredths of a degree Celsius.
    public static func centidegrees(fine: Int32) -> Int32 { (fine &* 5 &+ 128) >> 8 }

    /// Pressure in pascal as an unsigned Q24.8 value (the 64-bit formula); 0 when undefined.
    public static func pressureQ24_8(_ adcP: Int32, fine: Int32, _ c: Calibration) -> Int64 {
        var var1 = Int64(fine) - 128_000
        var var2 = var1 &* var1 &* Int64(c.p6)
        var2 = var2 &+ ((var1 &* Int64(c.p5)) << 17)
        var2 = var2 &+ (Int64(c.p4) << 35)
        var1 = ((var1 &* var1 &* Int64(c.p3)) >> 8) &+ ((var1 &* Int64(c.p2)) << 12)
        var1 = (((Int64(1) << 47) &+ var1) &* Int64(c.p1)) >> 33
        if var1 == 0 { return 0 }
        var p = 1_048_576 - Int64(adcP)
        p = (((p << 31) &- var2) &* 3125) / var1
        var1 = (Int64(c.p9) &* (p >> 13) &* (p >> 13)) >> 25
        var2 = (Int64(c.p8) &* p) >> 19
        return ((p &+ var1 &+ var2) >> 8) &+ (Int64(c.p7) << 4)
    }
}
