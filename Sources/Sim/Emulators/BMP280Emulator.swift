import Glibc
import LodestoneCore

/// A BMP280 or BME280 at the register level: chip ID, reset, trimming words, ctrl_meas and
/// config (and the BME280's ctrl_hum, humidity trimming and humidity data), and raw readings
/// produced by inverting the datasheets' floating-point compensation, so the real driver's
/// integer formulas recover the world's pressure, temperature and humidity.
///
/// Start-up: after power-on (the emulator's creation) and after every soft reset (0xB6 to 0xE0,
/// which runs "the complete power-on-reset procedure", BMP280 section 4.3.2) the chip copies its
/// trimming words from NVM into the image registers, within the start-up time of 2 ms (the
/// datasheets' electrical specification tables). Until then status (0xF3) reads im_update
/// (bit 0) set (BMP280 section 4.3.3, BME280 section 5.4.4), and the trimming registers
/// (0x88..0xA1, and the BME280's 0xE1..0xE7) read 0x00. The datasheets say only that the copy
/// is running, not what the image registers hold meanwhile; the emulator answers 0x00, as
/// registers cleared by the reset and not yet loaded would, which a driver's check for a zero
/// trimming word rejects. The chip ID and the other registers answer as usual, and writes are
/// taken. So a driver that reads its trimming at once after the reset, on the emulator's
/// clock, gets zeros instead of the datasheet's words.
public final class BMP280Emulator: RegisterBankEmulator, @unchecked Sendable {
    public enum Variant: Sendable { case bmp280, bme280 }

    public let variant: Variant
    let truth: any SensorTruthSource
    let clock: any MonotonicClock
    var random: SeededRandom
    public var noiseEnabled = true
    var lastSample: MonotonicNanoseconds = 0
    var hasSampled = false
    /// ctrl_hum as latched by the last ctrl_meas write (BME280 section 5.4.3).
    var humidityOversampling: UInt8 = 0
    /// When the NVM copy of the last power-on or reset ends.
    public private(set) var readyAt: MonotonicNanoseconds = 0

    /// Start-up time after power-on or soft reset (electrical specification, "start-up time").
    public static let startUpNanoseconds: UInt64 = 2_000_000

    /// Whether the trimming words are still being copied from NVM (im_update set).
    public var isStartingUp: Bool { clock.now() < readyAt }

    /// The trimming words of the datasheet's worked example (T1..T3, P1..P9).
    public static let trimming: [Int] = [27504, 26435, -1000, 36477, -10685, 3024, 2855, 140, -7, 15500, -14600, 6000]

    /// BME280 humidity trimming dig_H1..dig_H6. dig_H1, H2, H3, H4 and H6 are those of a
    /// production BME280 whose register dump was posted on the Bosch Sensortec community forum
    /// (thread "BME280 Data to test Calculations", 2019: 0xA1 = 0x4B, 0xE1..0xE7 = 65 01 00 14
    /// 0B 00 1E). That chip's dig_H5 was 0; 50 is used here instead, a value typical of other
    /// published dumps, so that the nibble shared by dig_H4 and dig_H5 in 0xE5 is exercised.
    public static let humidityTrimming: (h1: Int, h2: Int, h3: Int, h4: Int, h5: Int, h6: Int) = (75, 357, 0, 331, 50, 30)

    public init(truth: any SensorTruthSource, clock: any MonotonicClock, variant: Variant = .bmp280, seed: UInt64 = 1) {
        self.variant = variant
        self.truth = truth
        self.clock = clock
        random = SeededRandom(seed: seed ^ 0x0280)
        super.init()
        reset()
    }

    func reset() {
        registers = [UInt8](repeating: 0, count: 256)
        registers[0xD0] = variant == .bmp280 ? 0x58 : 0x60
        for (index, word) in Self.trimming.enumerated() {
            let value = UInt16(truncatingIfNeeded: word)
            registers[0x88 + 2 * index] = UInt8(value & 0xFF)
            registers[0x89 + 2 * index] = UInt8(value >> 8)
        }
        // Data registers hold 0x80000 until the first conversion (datasheet table 18).
        registers[0xF7] = 0x80; registers[0xFA] = 0x80
        hasSampled = false
        humidityOversampling = 0
        readyAt = clock.now() &+ Self.startUpNanoseconds
        if variant == .bme280 {
            let h = Self.humidityTrimming
            registers[0xA1] = UInt8(h.h1)
            registers[0xE1] = UInt8(h.h2 & 0xFF); registers[0xE2] = UInt8((h.h2 >> 8) & 0xFF)
            registers[0xE3] = UInt8(h.h3)
            // dig_H4 = 0xE4 << 4 | 0xE5[3:0], dig_H5 = 0xE6 << 4 | 0xE5[7:4] (BME280 table 16).
            registers[0xE4] = UInt8((h.h4 >> 4) & 0xFF)
            registers[0xE5] = UInt8((h.h5 & 0x0F) << 4 | (h.h4 & 0x0F))
            registers[0xE6] = UInt8((h.h5 >> 4) & 0xFF)
            registers[0xE7] = UInt8(truncatingIfNeeded: h.h6)
            registers[0xFD] = 0x80  // humidity reset value 0x8000 (BME280 table 18)
        }
    }

    static let standbyMilliseconds: [Double] = [0.5, 62.5, 125, 250, 500, 1000, 2000, 4000]
    /// The BME280 reuses the two longest settings for 10 and 20 ms (BME280 table 27).
    static let bme280StandbyMilliseconds: [Double] = [0.5, 62.5, 125, 250, 500, 1000, 10, 20]

    var mode: UInt8 { registers[0xF4] & 0x03 }

    /// Conversion time plus standby (datasheet 3.8.1 and table 11; BME280 section 9.1), nanoseconds.
    var samplePeriod: UInt64 {
        func samples(_ setting: UInt8) -> Double { setting == 0 ? 0 : Double(1 << Int(min(setting, 5) - 1)) }
        let t = samples(registers[0xF4] >> 5), p = samples((registers[0xF4] >> 2) & 7), h = samples(humidityOversampling)
        let measure = 1.25 + 2.3 * t + (p > 0 ? 2.3 * p + 0.575 : 0) + (h > 0 ? 2.3 * h + 0.575 : 0)
        let standby = (variant == .bme280 ? Self.bme280StandbyMilliseconds : Self.standbyMilliseconds)[Int(registers[0xF5] >> 5)]
        return UInt64((measure + standby) * 1e6)
    }

    public override func registerWritten(_ register: UInt8, _ value: UInt8) {
        if register == 0xE0 { if value == 0xB6 { reset() }; return }
        let writable = register == 0xF4 || register == 0xF5 || (variant == .bme280 && register == 0xF2)
        guard writable else { return }  // the rest is read-only
        super.registerWritten(register, value)
        if register == 0xF4 && variant == .bme280 { humidityOversampling = registers[0xF2] & 0x07 }
    }

    public override func registerRead(_ register: UInt8) -> UInt8 {
        guard isStartingUp else { return registers[Int(register)] }
        switch register {
        case 0xF3: return registers[0xF3] | 0x01  // im_update: NVM copy running
        case 0x88...0xA1: return 0
        case 0xE1...0xE7 where variant == .bme280: return 0
        default: return registers[Int(register)]
        }
    }

    public override func prepareRead(from register: UInt8, count: Int) {
        guard mode != 0 else { return }
        let now = clock.now()
        guard !hasSampled || now &- lastSample >= samplePeriod else { return }
        lastSample = now
        hasSampled = true
        let t = truth.currentTruth()
        let temperature = t.temperature + (noiseEnabled ? random.gaussian(0.005) : 0)
        let pressure = t.pressure + (noiseEnabled ? random.gaussian(1.3) : 0)
        let (adcT, fine) = Self.rawTemperature(for: temperature)
        let adcP = Self.rawPressure(for: pressure, fine: fine)
        registers[0xF7] = UInt8(adcP >> 12); registers[0xF8] = UInt8((adcP >> 4) & 0xFF); registers[0xF9] = UInt8((adcP & 0xF) << 4)
        registers[0xFA] = UInt8(adcT >> 12); registers[0xFB] = UInt8((adcT >> 4) & 0xFF); registers[0xFC] = UInt8((adcT & 0xF) << 4)
        if variant == .bme280 && humidityOversampling != 0 {
            let adcH = Self.rawHumidity(for: t.humidity + (noiseEnabled ? random.gaussian(0.02) : 0), fine: fine)
            registers[0xFD] = UInt8(adcH >> 8); registers[0xFE] = UInt8(adcH & 0xFF)
        }
        if mode != 0b11 { registers[0xF4] &= ~0x03 }  // forced mode: one conversion, then sleep
    }

    // MARK: Datasheet floating-point compensation (section 8.1), inverted by bisection

    static func word(_ i: Int) -> Double { Double(trimming[i]) }

    static func fine(adcT: Double) -> Double {
        let var1 = (adcT / 16384 - word(0) / 1024) * word(1)
        let d = adcT / 131072 - word(0) / 8192
        return var1 + d * d * word(2)
    }

    static func pressure(adcP: Double, fine: Double) -> Double {
        var var1 = fine / 2 - 64000
        var var2 = var1 * var1 * word(8) / 32768
        var2 = var2 + var1 * word(7) * 2
        var2 = var2 / 4 + word(6) * 65536
        var1 = (word(5) * var1 * var1 / 524288 + word(4) * var1) / 524288
        var1 = (1 + var1 / 32768) * word(3)
        guard var1 != 0 else { return 0 }
        var p = 1_048_576 - adcP
        p = (p - var2 / 4096) * 6250 / var1
        return p + (word(11) * p * p / 2_147_483_648 + p * word(10) / 32768 + word(9)) / 16
    }

    /// The 20-bit reading whose compensated temperature is `celsius`, and its t_fine.
    static func rawTemperature(for celsius: Double) -> (Int, Double) {
        var low = 0.0, high = 1_048_575.0
        for _ in 0..<40 {
            let mid = (low + high) / 2
            if fine(adcT: mid) / 5120 < celsius { low = mid } else { high = mid }
        }
        let adc = Int(low.rounded())
        return (adc, fine(adcT: Double(adc)))
    }

    /// The 20-bit reading whose compensated pressure is `pascal` (pressure falls as the reading rises).
    static func rawPressure(for pascal: Double, fine: Double) -> Int {
        var low = 0.0, high = 1_048_575.0
        for _ in 0..<40 {
            let mid = (low + high) / 2
            if pressure(adcP: mid, fine: fine) > pascal { low = mid } else { high = mid }
        }
        return Int(low.rounded())
    }

    /// BME280 section 8.1's floating-point humidity formula, without its final clamp so the
    /// bisection below sees a monotonic function.
    static func humidity(adcH: Double, fine: Double) -> Double {
        let h = humidityTrimming
        let t = fine - 76800
        var value =
            (adcH - (Double(h.h4) * 64 + Double(h.h5) / 16384 * t))
            * (Double(h.h2) / 65536 * (1 + Double(h.h6) / 67_108_864 * t * (1 + Double(h.h3) / 67_108_864 * t)))
        value = value * (1 - Double(h.h1) * value / 524_288)
        return value
    }

    /// The 16-bit reading whose compensated humidity is `percent` (humidity rises with the reading).
    static func rawHumidity(for percent: Double, fine: Double) -> Int {
        let target = min(max(percent, 0), 100)
        var low = 0.0, high = 65_535.0
        for _ in 0..<40 {
            let mid = (low + high) / 2
            if humidity(adcH: mid, fine: fine) < target { low = mid } else { high = mid }
        }
        return Int(low.rounded())
    }
}
