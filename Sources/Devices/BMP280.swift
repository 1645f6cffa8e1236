import LodestoneCore
import LodestoneHAL

/// Bosch BMP280 and BME280 barometers (datasheets BST-BMP280-DS001 and BST-BME280-DS002).
///
/// One driver for the family, the chips being data (as Linux's IIO bmp280 driver does it):
/// the BME280 is a BMP280 with a humidity channel, the same temperature and pressure trimming
/// words and formulas, and the same register map plus ctrl_hum (0xF2), the humidity trimming
/// words and two more data registers. The chip ID tells which one is fitted, so a board file
/// naming either works with either; `variant` reports the one found.
///
/// Identified by its chip ID and reset; once the reset's NVM copy is done (status im_update
/// clear, within the 2 ms start-up time) its factory trimming words are read back and it is
/// run in normal mode. The wait is spread over the reads that follow `start()` (see
/// `StartUpPoll`), so the sampling loop never stops for it. Each read takes the data registers
/// in one burst (so the channels belong to the same conversion, BMP280 section 4.1) and compensates them with the datasheet's integer formulas:
/// the 32-bit temperature formula, the 64-bit pressure formula and (BME280 section 4.2.3) the
/// 32-bit humidity formula.
public struct BMP280<Bus: I2CBus>: ChipDriver {
    public enum Oversampling: UInt8, Sendable { case x1 = 1, x2 = 2, x4 = 3, x8 = 4, x16 = 5 }
    public enum Filter: UInt8, Sendable { case off = 0, x2 = 1, x4 = 2, x8 = 3, x16 = 4 }

    /// The trimming words of registers 0x88..0x9F.
    public struct Calibration: Sendable, Equatable {
        public var t1: UInt16, t2: Int16, t3: Int16
        public var p1: UInt16, p2: Int16, p3: Int16, p4: Int16, p5: Int16, p6: Int16, p7: Int16, p8: Int16, p9: Int16

        public init(
            t1: UInt16, t2: Int16, t3: Int16, p1: UInt16, p2: Int16, p3: Int16, p4: Int16, p5: Int16,
            p6: Int16, p7: Int16, p8: Int16, p9: Int16
        ) {
            (self.t1, self.t2, self.t3) = (t1, t2, t3)
            (self.p1, self.p2, self.p3, self.p4, self.p5, self.p6, self.p7, self.p8, self.p9) = (p1, p2, p3, p4, p5, p6, p7, p8, p9)
        }
    }

    /// The chips of the family this driver serves.
    public enum Variant: Sendable, Equatable, CaseIterable {
        case bmp280, bme280

        /// Register 0xD0 (BMP280 section 4.3.1, BME280 section 5.4.1).
        public var chipID: UInt8 { self == .bmp280 ? 0x58 : 0x60 }
        public var info: ChipInfo { BMP280.chips[self == .bmp280 ? 0 : 1] }
        /// A literal, so naming the chip in an error costs no allocation in `read`.
        public var displayName: String { self == .bmp280 ? "BMP280" : "BME280" }
        public var measuresHumidity: Bool { self == .bme280 }
        /// Data registers 0xF7.. to read in one burst: press, temp, and on the BME280 hum.
        var dataCount: Int { self == .bmp280 ? 6 : 8 }
    }

    /// The BME280's humidity trimming words: dig_H1 at 0xA1 and dig_H2..dig_H6 packed into
    /// 0xE1..0xE7, dig_H4 and dig_H5 as 12-bit signed values sharing 0xE5 (BME280 table 16).
    public struct HumidityCalibration: Sendable, Equatable {
        public var h1: UInt8, h2: Int16, h3: UInt8, h4: Int16, h5: Int16, h6: Int8

        public init(h1: UInt8, h2: Int16, h3: UInt8, h4: Int16, h5: Int16, h6: Int8) {
            (self.h1, self.h2, self.h3, self.h4, self.h5, self.h6) = (h1, h2, h3, h4, h5, h6)
        }

        /// Unpacks dig_H1 and the seven bytes of 0xE1..0xE7. The most significant parts of
        /// dig_H4 (0xE4) and dig_H5 (0xE6) carry the sign, so they are widened as signed bytes
        /// before the low nibble from 0xE5 is merged in.
        public init(h1: UInt8, e1: UInt8, e2: UInt8, e3: UInt8, e4: UInt8, e5: UInt8, e6: UInt8, e7: UInt8) {
            self.h1 = h1
            h2 = Int16(bitPattern: UInt16(e2) << 8 | UInt16(e1))
            h3 = e3
            h4 = Int16(Int8(bitPattern: e4)) * 16 | Int16(e5 & 0x0F)
            h5 = Int16(Int8(bitPattern: e6)) * 16 | Int16(e5 >> 4)
            h6 = Int8(bitPattern: e7)
        }
    }

    public static var chipID: UInt8 { Variant.bmp280.chipID }
    static var idRegister: UInt8 { 0xD0 }
    static var resetRegister: UInt8 { 0xE0 }
    static var statusRegister: UInt8 { 0xF3 }
    /// Start-up time after power-on or a soft reset (electrical specification, "start-up time").
    static var startUpNanoseconds: UInt64 { 2_000_000 }
    static var controlRegister: UInt8 { 0xF4 }
    static var configRegister: UInt8 { 0xF5 }
    static var dataRegister: UInt8 { 0xF7 }
    static var calibrationRegister: UInt8 { 0x88 }
    static var humidityControlRegister: UInt8 { 0xF2 }
    static var humidityCalibrationRegister1: UInt8 { 0xA1 }
    static var humidityCalibrationRegister2: UInt8 { 0xE1 }

    public let device: I2CRegisterDevice<Bus>
    public var pressureOversampling: Oversampling
    public var temperatureOversampling: Oversampling
    public var filter: Filter
    /// Used by a BME280 only.
    public var humidityOversampling: Oversampling
    public private(set) var calibration: Calibration?
    public private(set) var humidityCalibration: HumidityCalibration?
    /// The chip `start()` found; nil before.
    public private(set) var variant: Variant?
    var startUp = StartUpPoll(startUpNanoseconds: startUpNanoseconds)
    private let buffer = RegisterBuffer(count: 24)

    public static var chips: [ChipInfo] {
        [
            ChipInfo(name: "bmp280", displayName: "BMP280", kind: .barometer, addresses: [0x76, 0x77]),
            ChipInfo(name: "bme280", displayName: "BME280", kind: .barometer, addresses: [0x76, 0x77])
        ]
    }

    static func variant(chipID: UInt8) -> Variant? { Variant.allCases.first { $0.chipID == chipID } }

    public static func identify(bus: Bus, address: UInt8) -> ChipInfo? {
        guard let id = try? I2CRegisterDevice(bus: bus, address: address).readRegister(idRegister) else { return nil }
        return variant(chipID: id)?.info
    }

    public init(bus: Bus, address: UInt8) { self.init(bus: bus, address: address, pressureOversampling: .x16) }

    /// Defaults are the datasheet's "ultra high resolution" setting (x16 pressure, x2
    /// temperature) with a x4 IIR filter: about 26 readings a second, 1.3 Pa of noise. A
    /// BME280 adds x1 humidity (the datasheet's weather and indoor settings; humidity changes
    /// slowly and each oversampling step costs another 2.3 ms).
    public init(
        bus: Bus, address: UInt8 = 0x76, pressureOversampling: Oversampling = .x16,
        temperatureOversampling: Oversampling = .x2, humidityOversampling: Oversampling = .x1,
        filter: Filter = .x4
    ) {
        device = I2CRegisterDevice(bus: bus, address: address)
        self.pressureOversampling = pressureOversampling
        self.temperatureOversampling = temperatureOversampling
        self.humidityOversampling = humidityOversampling
        self.filter = filter
    }

    /// Identifies (either chip of the family) and resets it. The reset copies the trimming
    /// words from NVM again, which takes up to the 2 ms start-up time, and the trimming registers
    /// are not valid until it is done (im_update, section 4.3.3); `read` waits for that.
    public mutating func start() throws(DeviceError) {
        variant = nil
        calibration = nil
        humidityCalibration = nil
        let id = try device.read(Self.idRegister)
        guard let found = Self.variant(chipID: id) else {
            throw .wrongChip(chip: "BMP280/BME280", register: Self.idRegister, expected: Self.chipID, found: id)
        }
        try device.write(Self.resetRegister, 0xB6)
        startUp.restart()
        variant = found
    }

    /// The first reads after `start()` finish the start-up: each polls im_update and returns
    /// nil while the NVM copy runs; the first that finds it done reads and checks the trimming
    /// words and configures the chip (normal mode, 0.5 ms standby). A chip still copying after
    /// `StartUpPoll`'s limit is reported as having no valid trimming.
    private mutating func finishStartUp(_ variant: Variant, at time: MonotonicNanoseconds) throws(DeviceError) -> Calibration? {
        let name = variant.displayName
        guard try device.read(Self.statusRegister) & 0x01 == 0 else {
            if startUp.givesUp(stillBusyAt: time) { throw .invalidCalibration(chip: name) }
            return nil
        }
        try device.read(Self.calibrationRegister, into: buffer.slice(24))
        let c = Calibration(
            t1: UInt16(bitPattern: buffer.int16LE(0)), t2: buffer.int16LE(2), t3: buffer.int16LE(4),
            p1: UInt16(bitPattern: buffer.int16LE(6)), p2: buffer.int16LE(8), p3: buffer.int16LE(10),
            p4: buffer.int16LE(12), p5: buffer.int16LE(14), p6: buffer.int16LE(16),
            p7: buffer.int16LE(18), p8: buffer.int16LE(20), p9: buffer.int16LE(22))
        // A floating SDA line reads 0xFF everywhere, a dead one 0x00: neither is a real trimming set.
        guard c.t1 != 0, c.p1 != 0, c.t1 != 0xFFFF, c.p1 != 0xFFFF else { throw .invalidCalibration(chip: name) }
        if variant.measuresHumidity {
            let h1 = try device.read(Self.humidityCalibrationRegister1)
            try device.read(Self.humidityCalibrationRegister2, into: buffer.slice(7))
            let h = HumidityCalibration(
                h1: h1, e1: buffer[0], e2: buffer[1], e3: buffer[2], e4: buffer[3],
                e5: buffer[4], e6: buffer[5], e7: buffer[6])
            // dig_H2 scales the whole result: zero would read 0 %RH for ever.
            guard h.h2 != 0, !(h1 == 0xFF && h.h2 == -1) else { throw .invalidCalibration(chip: name) }
            humidityCalibration = h
        }
        try device.write(Self.configRegister, filter.rawValue << 2)
        if variant.measuresHumidity {
            // ctrl_hum only takes effect when ctrl_meas is written after it (BME280 section 5.4.3).
            try device.write(Self.humidityControlRegister, humidityOversampling.rawValue)
        }
        try device.write(
            Self.controlRegister,
            temperatureOversampling.rawValue << 5 | pressureOversampling.rawValue << 2 | 0b11)
        calibration = c
        return c
    }

    /// The latest conversion; nil while the chip starts up and before the first conversion has
    /// completed (the data registers still hold their reset value 0x80000, humidity 0x8000).
    public mutating func read(at time: MonotonicNanoseconds) throws(DeviceError) -> PressureSample? {
        guard let variant else { throw .invalidCalibration(chip: "BMP280") }
        let calibration: Calibration
        if let known = self.calibration {
            calibration = known
        } else {
            guard let loaded = try finishStartUp(variant, at: time) else { return nil }
            calibration = loaded
        }
        try device.read(Self.dataRegister, into: buffer.slice(variant.dataCount))
        let rawPressure = Int32(buffer[0]) << 12 | Int32(buffer[1]) << 4 | Int32(buffer[2]) >> 4
        let rawTemperature = Int32(buffer[3]) << 12 | Int32(buffer[4]) << 4 | Int32(buffer[5]) >> 4
        if rawPressure == 0x80000 || rawTemperature == 0x80000 { return nil }
        let fine = Self.fineTemperature(rawTemperature, calibration)
        let pressureQ24_8 = Self.pressureQ24_8(rawPressure, fine: fine, calibration)
        guard pressureQ24_8 > 0 else { throw .implausibleReading(chip: variant.displayName) }
        let pressure = Double(pressureQ24_8) / 256
        guard pressure > 30_000, pressure < 110_000 else { throw .implausibleReading(chip: variant.displayName) }
        var humidity: Double?
        if let humidityCalibration {
            let rawHumidity = Int32(buffer[6]) << 8 | Int32(buffer[7])
            if rawHumidity == 0x8000 { return nil }
            humidity = Double(Self.humidityQ22_10(rawHumidity, fine: fine, humidityCalibration)) / 1024
        }
        return PressureSample(
            time: time, pressure: pressure, temperature: Double(Self.centidegrees(fine: fine)) / 100,
            humidity: humidity)
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

    /// Relative humidity in percent as an unsigned Q22.10 value (BME280 section 4.2.3, the
    /// 32-bit formula), clamped by the formula itself to 0..100 %RH.
    public static func humidityQ22_10(_ adcH: Int32, fine: Int32, _ h: HumidityCalibration) -> UInt32 {
        var v = fine &- 76_800
        let reading = ((adcH << 14) &- (Int32(h.h4) << 20) &- (Int32(h.h5) &* v) &+ 16_384) >> 15
        let temperatureTerm = ((v &* Int32(h.h6)) >> 10) &* (((v &* Int32(h.h3)) >> 11) &+ 32_768)
        let scale = (((temperatureTerm >> 10) &+ 2_097_152) &* Int32(h.h2) &+ 8192) >> 14
        v = reading &* scale
        v = v &- (((((v >> 15) &* (v >> 15)) >> 7) &* Int32(h.h1)) >> 4)
        v = min(max(v, 0), 419_430_400)
        return UInt32(v >> 12)
    }
}
