import LodestoneCore
import LodestoneHAL

/// Bosch BMP388 and BMP390 barometers (datasheets BST-BMP388-DS001 and BST-BMP390-DS002).
///
/// The two share a register map, NVM layout and compensation; the chip ID (0x50 or 0x60 at
/// register 0x00) tells them apart and `variant` reports the one found. Each is identified and
/// soft-reset; once it is ready again (STATUS cmd_rdy, within the 2 ms start-up time) its NVM
/// trimming coefficients are read and converted to the datasheet's floating-point parameters
/// (appendix "Calibration coefficient"; the datasheet gives these formulas only in floating
/// point), then it is run in normal mode with the chosen oversampling, output rate and IIR
/// filter. The wait is spread over the reads that follow `start()` (see `StartUpPoll`).
/// Each read takes STATUS and the six data registers in one burst; drdy_press says whether the
/// pressure is new.
public struct BMP3<Bus: I2CBus>: ChipDriver {
    public enum Variant: Sendable, Equatable, CaseIterable {
        case bmp388, bmp390
        public var chipID: UInt8 { self == .bmp388 ? 0x50 : 0x60 }
        public var info: ChipInfo { BMP3.chips[self == .bmp388 ? 0 : 1] }
        /// A literal, so naming the chip in an error costs no allocation in `read`.
        public var displayName: String { self == .bmp388 ? "BMP388" : "BMP390" }
    }

    /// OSR register osr_p / osr_t (register description "OSR").
    public enum Oversampling: UInt8, Sendable, CaseIterable {
        case x1 = 0, x2, x4, x8, x16, x32
        var samples: Int { 1 << Int(rawValue) }
    }

    /// ODR register odr_sel (register description "ODR"): the period is 5 ms times 2^odr_sel.
    public enum OutputRate: UInt8, Sendable, CaseIterable {
        case hz200 = 0, hz100, hz50, hz25, hz12_5, hz6_25, hz3_1, hz1_5, hz0_78
        public var periodMicroseconds: Int { 5000 << Int(rawValue) }
    }

    /// CONFIG iir_filter (register description "CONFIG"): the filter coefficient.
    public enum Filter: UInt8, Sendable, CaseIterable {
        case off = 0, c1, c3, c7, c15, c31, c63, c127
    }

    /// NVM_PAR_T1..NVM_PAR_P11 as stored at 0x31..0x45 (memory map, "Calibration data").
    public struct Calibration: Sendable, Equatable {
        public var t1: UInt16, t2: UInt16, t3: Int8
        public var p1: Int16, p2: Int16, p3: Int8, p4: Int8, p5: UInt16, p6: UInt16, p7: Int8, p8: Int8
        public var p9: Int16, p10: Int8, p11: Int8

        public init(
            t1: UInt16, t2: UInt16, t3: Int8, p1: Int16, p2: Int16, p3: Int8, p4: Int8, p5: UInt16, p6: UInt16,
            p7: Int8, p8: Int8, p9: Int16, p10: Int8, p11: Int8
        ) {
            (self.t1, self.t2, self.t3) = (t1, t2, t3)
            (self.p1, self.p2, self.p3, self.p4, self.p5, self.p6) = (p1, p2, p3, p4, p5, p6)
            (self.p7, self.p8, self.p9, self.p10, self.p11) = (p7, p8, p9, p10, p11)
        }
    }

    /// The NVM words scaled as the datasheet's appendix prescribes (PAR_x = NVM_PAR_x / 2^n).
    public struct Parameters: Sendable, Equatable {
        public var t1, t2, t3: Double
        public var p1, p2, p3, p4, p5, p6, p7, p8, p9, p10, p11: Double

        public init(_ c: Calibration) {
            t1 = Double(c.t1) * 0x1p8
            t2 = Double(c.t2) * 0x1p-30
            t3 = Double(c.t3) * 0x1p-48
            p1 = (Double(c.p1) - 0x1p14) * 0x1p-20
            p2 = (Double(c.p2) - 0x1p14) * 0x1p-29
            p3 = Double(c.p3) * 0x1p-32
            p4 = Double(c.p4) * 0x1p-37
            p5 = Double(c.p5) * 0x1p3
            p6 = Double(c.p6) * 0x1p-6
            p7 = Double(c.p7) * 0x1p-8
            p8 = Double(c.p8) * 0x1p-15
            p9 = Double(c.p9) * 0x1p-48
            p10 = Double(c.p10) * 0x1p-48
            p11 = Double(c.p11) * 0x1p-65
        }
    }

    static var idRegister: UInt8 { 0x00 }
    static var statusRegister: UInt8 { 0x03 }
    static var powerRegister: UInt8 { 0x1B }
    static var oversamplingRegister: UInt8 { 0x1C }
    static var rateRegister: UInt8 { 0x1D }
    static var configRegister: UInt8 { 0x1F }
    static var calibrationRegister: UInt8 { 0x31 }
    static var commandRegister: UInt8 { 0x7E }
    /// Start-up time after power-on or a soft reset (electrical specification, "start-up time").
    static var startUpNanoseconds: UInt64 { 2_000_000 }

    public let device: I2CRegisterDevice<Bus>
    public var pressureOversampling: Oversampling
    public var temperatureOversampling: Oversampling
    public var outputRate: OutputRate
    public var filter: Filter
    public private(set) var parameters: Parameters?
    /// The chip `start()` found; nil before.
    public private(set) var variant: Variant?
    /// The rate actually configured: `outputRate`, or slower if the oversampling does not fit in it.
    public private(set) var configuredRate: OutputRate?
    var startUp = StartUpPoll(startUpNanoseconds: startUpNanoseconds)
    private let buffer = RegisterBuffer(count: 21)

    public static var chips: [ChipInfo] {
        [
            ChipInfo(name: "bmp388", displayName: "BMP388", kind: .barometer, addresses: [0x77, 0x76]),
            ChipInfo(name: "bmp390", displayName: "BMP390", kind: .barometer, addresses: [0x77, 0x76])
        ]
    }

    static func variant(chipID: UInt8) -> Variant? { Variant.allCases.first { $0.chipID == chipID } }

    public static func identify(bus: Bus, address: UInt8) -> ChipInfo? {
        guard let id = try? I2CRegisterDevice(bus: bus, address: address).readRegister(idRegister) else { return nil }
        return variant(chipID: id)?.info
    }

    public init(bus: Bus, address: UInt8) { self.init(bus: bus, address: address, pressureOversampling: .x8) }

    /// Defaults follow the datasheet's "drone" use case (table of recommended settings by use
    /// case): x8 pressure, x1 temperature, a light IIR filter, 50 Hz; a low-noise reading that
    /// still follows a hand being raised.
    public init(
        bus: Bus, address: UInt8 = 0x77, pressureOversampling: Oversampling = .x8,
        temperatureOversampling: Oversampling = .x1, outputRate: OutputRate = .hz50, filter: Filter = .c3
    ) {
        device = I2CRegisterDevice(bus: bus, address: address)
        self.pressureOversampling = pressureOversampling
        self.temperatureOversampling = temperatureOversampling
        self.outputRate = outputRate
        self.filter = filter
    }

    /// Conversion time with both channels on (datasheet "Measurement time"), microseconds.
    public static func measurementMicroseconds(pressure: Oversampling, temperature: Oversampling) -> Int {
        234 + 392 + 2020 * pressure.samples + 163 + 2020 * temperature.samples
    }

    /// Identifies (either chip) and soft-resets it. The chip is not ready again until its
    /// start-up time has passed (STATUS cmd_rdy set); `read` waits for that.
    public mutating func start() throws(DeviceError) {
        variant = nil
        parameters = nil
        configuredRate = nil
        let id = try device.read(Self.idRegister)
        guard let found = Self.variant(chipID: id) else {
            throw .wrongChip(chip: "BMP388/BMP390", register: Self.idRegister, expected: Variant.bmp388.chipID, found: id)
        }
        try device.write(Self.commandRegister, 0xB6)
        startUp.restart()
        variant = found
    }

    /// The first reads after `start()` finish the start-up: each polls cmd_rdy and returns nil
    /// while the reset is in progress; the first that finds the chip ready reads and checks the
    /// NVM coefficients and configures the chip in normal mode. A chip still busy after
    /// `StartUpPoll`'s limit is reported as having no valid trimming.
    private mutating func finishStartUp(_ variant: Variant, at time: MonotonicNanoseconds) throws(DeviceError) -> Parameters? {
        let name = variant.displayName
        guard try device.read(Self.statusRegister) & 0x10 != 0 else {
            if startUp.givesUp(stillBusyAt: time) { throw .invalidCalibration(chip: name) }
            return nil
        }
        try device.read(Self.calibrationRegister, into: buffer.slice(21))
        let c = Calibration(
            t1: UInt16(bitPattern: buffer.int16LE(0)), t2: UInt16(bitPattern: buffer.int16LE(2)), t3: Int8(bitPattern: buffer[4]),
            p1: buffer.int16LE(5), p2: buffer.int16LE(7), p3: Int8(bitPattern: buffer[9]), p4: Int8(bitPattern: buffer[10]),
            p5: UInt16(bitPattern: buffer.int16LE(11)), p6: UInt16(bitPattern: buffer.int16LE(13)),
            p7: Int8(bitPattern: buffer[15]), p8: Int8(bitPattern: buffer[16]), p9: buffer.int16LE(17),
            p10: Int8(bitPattern: buffer[19]), p11: Int8(bitPattern: buffer[20]))
        // A floating SDA line reads 0xFF everywhere, a dead one 0x00.
        guard c.t1 != 0, c.t2 != 0, c.p5 != 0, c.t1 != 0xFFFF, c.t2 != 0xFFFF, c.p5 != 0xFFFF else {
            throw .invalidCalibration(chip: name)
        }
        // The chip refuses (ERR_REG conf_err) a rate faster than its conversions; slow down instead.
        let needed = Self.measurementMicroseconds(pressure: pressureOversampling, temperature: temperatureOversampling)
        var rate = outputRate
        while rate.periodMicroseconds < needed, let slower = OutputRate(rawValue: rate.rawValue + 1) { rate = slower }
        try device.write(Self.oversamplingRegister, temperatureOversampling.rawValue << 3 | pressureOversampling.rawValue)
        try device.write(Self.rateRegister, rate.rawValue)
        try device.write(Self.configRegister, filter.rawValue << 1)
        // press_en, temp_en, normal mode (register description "PWR_CTRL").
        try device.write(Self.powerRegister, 0x33)
        let p = Parameters(c)
        parameters = p
        configuredRate = rate
        return p
    }

    /// The newest conversion, or nil while the chip starts up or when drdy_press says none has
    /// arrived since the last read.
    public mutating func read(at time: MonotonicNanoseconds) throws(DeviceError) -> PressureSample? {
        guard let variant else { throw .invalidCalibration(chip: "BMP388") }
        let parameters: Parameters
        if let known = self.parameters {
            parameters = known
        } else {
            guard let loaded = try finishStartUp(variant, at: time) else { return nil }
            parameters = loaded
        }
        try device.read(Self.statusRegister, into: buffer.slice(7))
        guard buffer[0] & 0x20 != 0 else { return nil }  // drdy_press
        let rawPressure = UInt32(buffer[3]) << 16 | UInt32(buffer[2]) << 8 | UInt32(buffer[1])
        let rawTemperature = UInt32(buffer[6]) << 16 | UInt32(buffer[5]) << 8 | UInt32(buffer[4])
        let temperature = Self.temperature(raw: Double(rawTemperature), parameters)
        let pressure = Self.pressure(raw: Double(rawPressure), temperature: temperature, parameters)
        // Operating range 300..1250 hPa and -40..85 degC (datasheet "Operating conditions"), with a margin.
        guard pressure.isFinite, temperature.isFinite, pressure > 25_000, pressure < 130_000,
            temperature > -45, temperature < 90
        else { throw .implausibleReading(chip: variant.displayName) }
        return PressureSample(time: time, pressure: pressure, temperature: temperature)
    }

    // MARK: Compensation (datasheet appendix, floating-point compensation formulas)

    /// Temperature in degC (the datasheet's t_lin, which the pressure formula also uses).
    public static func temperature(raw: Double, _ p: Parameters) -> Double {
        let partial1 = raw - p.t1
        let partial2 = partial1 * p.t2
        return partial2 + partial1 * partial1 * p.t3
    }

    /// Pressure in pascal.
    public static func pressure(raw: Double, temperature t: Double, _ p: Parameters) -> Double {
        let t2 = t * t, t3 = t2 * t
        let offset = p.p5 + p.p6 * t + p.p7 * t2 + p.p8 * t3
        let sensitivity = raw * (p.p1 + p.p2 * t + p.p3 * t2 + p.p4 * t3)
        let raw2 = raw * raw
        let secondOrder = raw2 * (p.p9 + p.p10 * t) + raw2 * raw * p.p11
        return offset + sensitivity + secondOrder
    }
}
