import Glibc
import LodestoneCore

/// A BMP280 at the register level: chip ID, reset, trimming words, ctrl_meas and config, and
/// raw 20-bit readings produced by inverting the datasheet's floating-point compensation, so
/// the real driver's integer formulas recover the world's pressure and temperature.
public final class BMP280Emulator: RegisterBankEmulator, @unchecked Sendable {
    let truth: any SensorTruthSource
    let clock: any MonotonicClock
    var random: SeededRandom
    public var noiseEnabled = true
    var lastSample: MonotonicNanoseconds = 0
    var hasSampled = false

    /// The trimming words of the datasheet's worked example (T1..T3, P1..P9).
    public static let trimming: [Int] = [27504, 26435, -1000, 36477, -10685, 3024, 2855, 140, -7, 15500, -14600, 6000]

    public init(truth: any SensorTruthSource, clock: any MonotonicClock, seed: UInt64 = 1) {
        self.truth = truth
        self.clock = clock
        random = SeededRandom(seed: seed ^ 0x0280)
        super.init()
        reset()
    }

    func reset() {
        registers = [UInt8](repeating: 0, count: 256)
        registers[0xD0] = 0x58
        for (index, word) in Self.trimming.enumerated() {
            let value = UInt16(truncatingIfNeeded: word)
            registers[0x88 + 2 * index] = UInt8(value & 0xFF)
            registers[0x89 + 2 * index] = UInt8(value >> 8)
        }
        // Data registers hold 0x80000 until the first conversion (datasheet table 18).
        registers[0xF7] = 0x80; registers[0xFA] = 0x80
        hasSampled = false
    }

    static let standbyMilliseconds: [Double] = [0.5, 62.5, 125, 250, 500, 1000, 2000, 4000]

    var mode: UInt8 { registers[0xF4] & 0x03 }

    /// Conversion time plus standby (datasheet 3.8.1 and table 11), nanoseconds.
    var samplePeriod: UInt64 {
        func samples(_ setting: UInt8) -> Double { setting == 0 ? 0 : Double(1 << Int(min(setting, 5) - 1)) }
        let t = samples(registers[0xF4] >> 5), p = samples((registers[0xF4] >> 2) & 7)
        let measure = 1.25 + 2.3 * t + (p > 0 ? 2.3 * p + 0.575 : 0)
        return UInt64((measure + Self.standbyMilliseconds[Int(registers[0xF5] >> 5)]) * 1e6)
    }

    public override func registerWritten(_ register: UInt8, _ value: UInt8) {
        if register == 0xE0 { if value == 0xB6 { reset() }; return }
        guard register == 0xF4 || register == 0xF5 else { return }   // the rest is read-only
        super.registerWritten(register, value)
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
        if mode != 0b11 { registers[0xF4] &= ~0x03 }   // forced mode: one conversion, then sleep
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
}
