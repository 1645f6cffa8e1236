import Glibc
import LodestoneCore
import LodestoneHAL

/// TE Connectivity MS5611-01BA03 barometer (datasheet DA5611-01BA03, application note AN520).
///
/// The chip is command driven and has no identification register: it is reset, its PROM (six
/// calibration words framed by a factory word and a word holding a CRC-4) is read back and the
/// CRC checked, which is both the identification and the wiring test. Conversions take up to
/// 9 ms at the highest oversampling, so `read` never waits for one: each call advances a small
/// state machine (start a temperature conversion; later fetch it and start a pressure
/// conversion; later fetch that, start the next temperature conversion and report a sample).
public struct MS5611<Bus: I2CBus>: ChipDriver {
    /// Oversampling ratio; the raw value is the command offset divided by two (datasheet "Commands").
    public enum Oversampling: UInt8, Sendable, CaseIterable {
        case x256 = 0, x512 = 1, x1024 = 2, x2048 = 3, x4096 = 4

        /// Maximum conversion time (datasheet "ADC conversion time" table), nanoseconds: the
        /// driver always waits the maximum so a slow chip is never read early (which spoils
        /// the conversion).
        public var conversionNanoseconds: UInt64 {
            switch self {
            case .x256: return 600_000
            case .x512: return 1_170_000
            case .x1024: return 2_280_000
            case .x2048: return 4_540_000
            case .x4096: return 9_040_000
            }
        }
    }

    /// The six calibration words C1..C6 of PROM addresses 1..6.
    public struct Calibration: Sendable, Equatable {
        public var c1: UInt16, c2: UInt16, c3: UInt16, c4: UInt16, c5: UInt16, c6: UInt16
        public init(c1: UInt16, c2: UInt16, c3: UInt16, c4: UInt16, c5: UInt16, c6: UInt16) {
            (self.c1, self.c2, self.c3, self.c4, self.c5, self.c6) = (c1, c2, c3, c4, c5, c6)
        }
    }

    /// The datasheet's intermediate and final values, exposed so they can be checked against AN520.
    public struct Compensation: Sendable, Equatable {
        /// Difference between actual and reference temperature (counts).
        public var dT: Int64
        /// Temperature in hundredths of a degree Celsius, second-order correction applied.
        public var temperature: Int64
        /// Offset at actual temperature, second-order correction applied.
        public var offset: Int64
        /// Sensitivity at actual temperature, second-order correction applied.
        public var sensitivity: Int64
        /// Pressure in pascal (the datasheet's 0.01 mbar).
        public var pressure: Int64
    }

    enum Phase {
        case idle
        case convertingTemperature(since: MonotonicNanoseconds)
        case convertingPressure(since: MonotonicNanoseconds, d2: UInt32)
    }

    static var resetCommand: UInt8 { 0x1E }
    static var adcReadCommand: UInt8 { 0x00 }
    static var promReadCommand: UInt8 { 0xA0 }
    static var convertD1Command: UInt8 { 0x40 }
    static var convertD2Command: UInt8 { 0x50 }

    public let device: I2CRegisterDevice<Bus>
    public var pressureOversampling: Oversampling
    public var temperatureOversampling: Oversampling
    public private(set) var calibration: Calibration?
    var phase = Phase.idle
    private let buffer = RegisterBuffer(count: 4)

    public static var chips: [ChipInfo] {
        // CSB low selects 0x77, CSB high 0x76 (datasheet "I2C interface").
        [ChipInfo(name: "ms5611", displayName: "MS5611", kind: .barometer, addresses: [0x77, 0x76])]
    }

    /// Reads the PROM and checks its CRC. PROM reads change no state; the worst a probe during
    /// a running driver's conversion can do is spoil that one conversion, which the driver
    /// reports and restarts.
    public static func identify(bus: Bus, address: UInt8) -> ChipInfo? {
        let device = I2CRegisterDevice(bus: bus, address: address)
        let buffer = RegisterBuffer(count: 4)
        guard let prom = try? readPROM(device, buffer), checkPROM(prom) else { return nil }
        return chips[0]
    }

    public init(bus: Bus, address: UInt8) { self.init(bus: bus, address: address, pressureOversampling: .x4096) }

    /// Defaults are the highest resolution (0.012 mbar RMS at OSR 4096): a full pressure and
    /// temperature cycle then takes about 18 ms, so samples come at up to about 55 Hz.
    public init(
        bus: Bus, address: UInt8 = 0x77, pressureOversampling: Oversampling = .x4096,
        temperatureOversampling: Oversampling = .x4096
    ) {
        device = I2CRegisterDevice(bus: bus, address: address)
        self.pressureOversampling = pressureOversampling
        self.temperatureOversampling = temperatureOversampling
    }

    /// Resets the chip (which reloads the PROM into its registers), reads the calibration and
    /// checks its CRC.
    public mutating func start() throws(DeviceError) {
        calibration = nil
        phase = .idle
        try command(Self.resetCommand)
        // The reload takes 2.8 ms (datasheet "Reset sequence"). start() runs only when the chip
        // is brought up or re-initialised, so this one pause shows as a single task overrun
        // then, never in steady state.
        var pause = timespec(tv_sec: 0, tv_nsec: 3_000_000), remaining = timespec()
        while nanosleep(&pause, &remaining) == -1 && errno == EINTR { pause = remaining }
        let prom = try Self.readPROM(device, buffer)
        guard Self.checkPROM(prom) else { throw .invalidCalibration(chip: "MS5611") }
        calibration = Calibration(c1: prom[1], c2: prom[2], c3: prom[3], c4: prom[4], c5: prom[5], c6: prom[6])
    }

    /// Advances the conversion cycle; a sample comes out once per pressure conversion, nil in between.
    public mutating func read(at time: MonotonicNanoseconds) throws(DeviceError) -> PressureSample? {
        guard let calibration else { throw .invalidCalibration(chip: "MS5611") }
        switch phase {
        case .idle:
            try startConversion(Self.convertD2Command, temperatureOversampling)
            phase = .convertingTemperature(since: time)
            return nil
        case .convertingTemperature(let since):
            guard time &- since >= temperatureOversampling.conversionNanoseconds else { return nil }
            let d2 = try fetchConversion()
            try startConversion(Self.convertD1Command, pressureOversampling)
            phase = .convertingPressure(since: time, d2: d2)
            return nil
        case .convertingPressure(let since, let d2):
            guard time &- since >= pressureOversampling.conversionNanoseconds else { return nil }
            let d1 = try fetchConversion()
            // Start the next cycle now so the next sample is ready as early as possible.
            try startConversion(Self.convertD2Command, temperatureOversampling)
            phase = .convertingTemperature(since: time)
            let result = Self.compensate(d1: d1, d2: d2, calibration)
            // Operating range -40..85 degC and 10..1200 mbar (datasheet "Operating conditions").
            guard result.temperature >= -4000, result.temperature <= 8500,
                result.pressure >= 1000, result.pressure <= 120_000
            else { throw .implausibleReading(chip: "MS5611") }
            return PressureSample(
                time: time, pressure: Double(result.pressure),
                temperature: Double(result.temperature) / 100)
        }
    }

    // MARK: Bus sequences

    private func command(_ code: UInt8) throws(DeviceError) {
        var byte = code
        do {
            try withUnsafeBytes(of: &byte) { (write) throws(I2CError) in
                try device.bus.transfer(
                    address: device.address, write: write,
                    read: UnsafeMutableRawBufferPointer(start: nil, count: 0))
            }
        } catch { throw .bus(error) }
    }

    /// Any failure drops back to idle so the next read starts a fresh cycle instead of
    /// fetching a conversion that was never started or already lost.
    private mutating func startConversion(_ base: UInt8, _ oversampling: Oversampling) throws(DeviceError) {
        do { try command(base | oversampling.rawValue << 1) } catch { phase = .idle; throw error }
    }

    /// The 24-bit result of the last conversion; 0 means the chip had none to give (read
    /// early, or read twice), which is a fault here because the driver waited.
    private mutating func fetchConversion() throws(DeviceError) -> UInt32 {
        do { try device.read(Self.adcReadCommand, into: buffer.slice(3)) } catch { phase = .idle; throw error }
        let value = UInt32(buffer[0]) << 16 | UInt32(buffer[1]) << 8 | UInt32(buffer[2])
        guard value != 0 else { phase = .idle; throw .implausibleReading(chip: "MS5611") }
        return value
    }

    static func readPROM(_ device: I2CRegisterDevice<Bus>, _ buffer: RegisterBuffer) throws(DeviceError) -> [UInt16] {
        var words = [UInt16](repeating: 0, count: 8)
        for index in 0..<8 {
            try device.read(promReadCommand + UInt8(index) * 2, into: buffer.slice(2))
            words[index] = UInt16(buffer[0]) << 8 | UInt16(buffer[1])
        }
        return words
    }

    /// A PROM is believable when its CRC matches and no calibration word is stuck at all zeros
    /// or all ones (an all-zero PROM has a matching CRC of zero, so the CRC alone is not enough).
    static func checkPROM(_ words: [UInt16]) -> Bool {
        guard words.count == 8, words[1...6].allSatisfy({ $0 != 0 && $0 != 0xFFFF }) else { return false }
        return crc4(words) == UInt8(words[7] & 0x000F)
    }

    // MARK: CRC and compensation

    /// The CRC-4 of AN520 over the eight PROM words, the CRC nibble itself counted as zero
    /// (AN520 zeroes the low byte of word 7 before running it): polynomial x^4 + x + 1
    /// (0x3000 in the 16-bit remainder), 16 bytes most significant first.
    public static func crc4(_ words: [UInt16]) -> UInt8 {
        var remainder: UInt16 = 0
        for index in 0..<16 {
            let word = index / 2 < words.count ? words[index / 2] : 0
            let masked = index / 2 == 7 ? word & 0xFF00 : word
            remainder ^= index % 2 == 0 ? masked >> 8 : masked & 0x00FF
            for _ in 0..<8 {
                remainder = remainder & 0x8000 != 0 ? (remainder << 1) ^ 0x3000 : remainder << 1
            }
        }
        return UInt8((remainder >> 12) & 0x000F)
    }

    /// Datasheet "Pressure and temperature calculation" with the second-order temperature
    /// compensation below 20 degC (and its extra term below -15 degC), in 64-bit integers.
    /// The divisions are the datasheet's (truncating toward zero, as C does), not shifts.
    public static func compensate(d1: UInt32, d2: UInt32, _ c: Calibration) -> Compensation {
        let dT = Int64(d2) - Int64(c.c5) * 256
        var temperature = 2000 + dT * Int64(c.c6) / 8_388_608  // 2^23
        var offset = Int64(c.c2) * 65_536 + Int64(c.c4) * dT / 128  // 2^16, 2^7
        var sensitivity = Int64(c.c1) * 32_768 + Int64(c.c3) * dT / 256  // 2^15, 2^8
        if temperature < 2000 {
            let cold = (temperature - 2000) * (temperature - 2000)
            let t2 = dT * dT / 2_147_483_648  // 2^31
            var offset2 = 5 * cold / 2
            var sensitivity2 = 5 * cold / 4
            if temperature < -1500 {
                let veryCold = (temperature + 1500) * (temperature + 1500)
                offset2 += 7 * veryCold
                sensitivity2 += 11 * veryCold / 2
            }
            temperature -= t2
            offset -= offset2
            sensitivity -= sensitivity2
        }
        // D1 * SENS fits comfortably: 2^24 * 2^32 < 2^63.
        let pressure = (Int64(d1) * sensitivity / 2_097_152 - offset) / 32_768  // 2^21, 2^15
        return Compensation(dT: dT, temperature: temperature, offset: offset, sensitivity: sensitivity, pressure: pressure)
    }
}
