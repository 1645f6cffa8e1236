import LodestoneCore

/// A BMP388 or BMP390 at the register level: chip ID, soft reset, NVM trimming coefficients,
/// PWR_CTRL modes, OSR, ODR (with the chip's refusal of a rate faster than its conversions,
/// flagged in ERR_REG conf_err), CONFIG, STATUS drdy bits cleared by reading the data, and raw
/// 24-bit readings made by inverting the datasheet's compensation so the real driver recovers
/// the world's pressure and temperature.
///
/// Start-up: after power-on (the emulator's creation) and after every soft reset (0xB6 to CMD,
/// 0x7E) the chip needs the datasheet's start-up time of 2 ms before it is usable. Until then
/// STATUS (0x03) reads cmd_rdy (bit 4) clear, "command in progress", and the NVM trimming
/// registers (0x31..0x45) read 0x00. The datasheet does not say what the trimming registers
/// hold meanwhile; the emulator answers 0x00, as registers cleared by the reset and not yet
/// loaded would, which a driver's check for a zero coefficient rejects. The chip ID and the
/// other registers answer as usual, and writes are taken. So a driver that reads its
/// coefficients at once after the reset, on the emulator's clock, gets zeros instead of the
/// chip's own.
public final class BMP3Emulator: RegisterBankEmulator, @unchecked Sendable {
    public enum Variant: Sendable { case bmp388, bmp390 }

    public let variant: Variant
    let truth: any SensorTruthSource
    let clock: any MonotonicClock
    var random: SeededRandom
    public var noiseEnabled = true
    var lastSample: MonotonicNanoseconds = 0
    var hasSampled = false
    /// When the start-up after the last power-on or soft reset ends.
    public private(set) var readyAt: MonotonicNanoseconds = 0

    /// Start-up time after power-on or soft reset (electrical specification, "start-up time").
    public static let startUpNanoseconds: UInt64 = 2_000_000

    /// Whether the chip is still starting up (cmd_rdy clear, trimming not yet readable).
    public var isStartingUp: Bool { clock.now() < readyAt }

    /// NVM_PAR_T1..T3 and P1..P8: the coefficients of a BMP388 in the calculation sheet Bosch
    /// Sensortec's support posted on its community forum (thread on BMP388 calibration, 2020).
    /// P9..P11 are not shown there; 15680, 24 and -60 are chosen by this project, of the size
    /// published dumps show, and keep the compensated pressure monotonic over the 24-bit range.
    public static let trimming: [Int] = [27322, 18880, -10, 395, -2608, 35, 0, 25371, 30991, -13, -10, 15680, 24, -60]

    public init(truth: any SensorTruthSource, clock: any MonotonicClock, variant: Variant = .bmp388, seed: UInt64 = 1) {
        self.variant = variant
        self.truth = truth
        self.clock = clock
        random = SeededRandom(seed: seed ^ 0x0388)
        super.init()
        reset()
    }

    func reset() {
        registers = [UInt8](repeating: 0, count: 256)
        registers[0x00] = variant == .bmp388 ? 0x50 : 0x60
        registers[0x01] = 0x01
        registers[0x03] = 0x10  // cmd_rdy
        registers[0x1C] = 0x02  // OSR reset value: x4 pressure, x1 temperature
        let t = Self.trimming
        // Little-endian words and single bytes in NVM order (memory map, "Calibration data").
        let sizes = [2, 2, 1, 2, 2, 1, 1, 2, 2, 1, 1, 2, 1, 1]
        var register = 0x31
        for (value, size) in zip(t, sizes) {
            let bits = UInt16(truncatingIfNeeded: value)
            registers[register] = UInt8(bits & 0xFF)
            if size == 2 { registers[register + 1] = UInt8(bits >> 8) }
            register += size
        }
        // Data registers read 0x800000 until the first conversion.
        registers[0x06] = 0x80; registers[0x09] = 0x80
        hasSampled = false
        readyAt = clock.now() &+ Self.startUpNanoseconds
    }

    var mode: UInt8 { (registers[0x1B] >> 4) & 0x03 }
    var osrP: Int { Int(registers[0x1C] & 0x07) }
    var osrT: Int { Int((registers[0x1C] >> 3) & 0x07) }

    /// Measurement time (datasheet "Measurement time"), microseconds.
    var measurementMicroseconds: Int {
        var time = 234
        if registers[0x1B] & 0x01 != 0 { time += 392 + 2020 * (1 << osrP) }
        if registers[0x1B] & 0x02 != 0 { time += 163 + 2020 * (1 << osrT) }
        return time
    }

    var periodNanoseconds: UInt64 { UInt64(5_000_000) << UInt64(min(registers[0x1D], 17)) }

    public override func registerWritten(_ register: UInt8, _ value: UInt8) {
        switch register {
        case 0x7E:
            if value == 0xB6 { reset() }
        case 0x1B:
            var value = value
            // Normal mode with an ODR shorter than the measurement is refused (ERR_REG conf_err).
            if (value >> 4) & 0x03 == 0x03 {
                let period = UInt64(5_000_000) << UInt64(min(registers[0x1D], 17))
                super.registerWritten(0x1B, value)
                if period < UInt64(measurementMicroseconds) * 1000 {
                    registers[0x02] |= 0x04
                    value &= ~0x30
                }
            }
            super.registerWritten(0x1B, value)
        case 0x1C, 0x1D, 0x1F, 0x19, 0x1A:
            super.registerWritten(register, value)
        default:
            break  // read-only or not emulated
        }
    }

    public override func registerRead(_ register: UInt8) -> UInt8 {
        if isStartingUp {
            switch register {
            case 0x03: return registers[0x03] & ~0x10  // cmd_rdy clear: the reset is in progress
            case 0x31...0x45: return 0
            default: break
            }
        }
        let value = registers[Int(register)]
        switch register {
        case 0x02: registers[0x02] = 0  // ERR_REG clears on read
        case 0x04...0x06: registers[0x03] &= ~0x20  // drdy_press
        case 0x07...0x09: registers[0x03] &= ~0x40  // drdy_temp
        default: break
        }
        return value
    }

    public override func prepareRead(from register: UInt8, count: Int) {
        guard mode != 0 else { return }
        let now = clock.now()
        let period = mode == 0x03 ? periodNanoseconds : 0
        guard !hasSampled || mode != 0x03 || now &- lastSample >= period else { return }
        lastSample = now
        hasSampled = true
        let world = truth.currentTruth()
        // Noise shrinks with oversampling (datasheet noise table: about 1.3 Pa at x1 pressure).
        let temperature = world.temperature + (noiseEnabled ? random.gaussian(0.005) : 0)
        let pressure = world.pressure + (noiseEnabled ? random.gaussian(1.3 / Double(1 << osrP).squareRoot()) : 0)
        let rawT = Self.rawTemperature(for: temperature)
        let rawP = Self.rawPressure(for: pressure, temperature: Self.temperature(raw: Double(rawT)))
        registers[0x04] = UInt8(rawP & 0xFF); registers[0x05] = UInt8((rawP >> 8) & 0xFF); registers[0x06] = UInt8(rawP >> 16)
        registers[0x07] = UInt8(rawT & 0xFF); registers[0x08] = UInt8((rawT >> 8) & 0xFF); registers[0x09] = UInt8(rawT >> 16)
        registers[0x03] |= 0x60
        if mode != 0x03 { registers[0x1B] &= ~0x30 }  // forced mode: one conversion, then sleep
    }

    // MARK: Datasheet compensation, inverted by bisection

    static func word(_ i: Int) -> Double { Double(trimming[i]) }

    static func temperature(raw: Double) -> Double {
        let partial = raw - word(0) * 256
        return partial * word(1) / 1_073_741_824 + partial * partial * word(2) / 281_474_976_710_656
    }

    static func pressure(raw u: Double, temperature t: Double) -> Double {
        let p1 = (word(3) - 16384) / 1_048_576, p2 = (word(4) - 16384) / 536_870_912
        let p3 = word(5) / 4_294_967_296, p4 = word(6) / 137_438_953_472
        let p5 = word(7) * 8, p6 = word(8) / 64, p7 = word(9) / 256, p8 = word(10) / 32768
        let p9 = word(11) / 281_474_976_710_656, p10 = word(12) / 281_474_976_710_656
        let p11 = word(13) / 36_893_488_147_419_103_232
        let out1 = p5 + p6 * t + p7 * t * t + p8 * t * t * t
        let out2 = u * (p1 + p2 * t + p3 * t * t + p4 * t * t * t)
        return out1 + out2 + u * u * (p9 + p10 * t) + u * u * u * p11
    }

    static func rawTemperature(for celsius: Double) -> UInt32 {
        var low = 0.0, high = 16_777_215.0
        for _ in 0..<50 {
            let mid = (low + high) / 2
            if temperature(raw: mid) < celsius { low = mid } else { high = mid }
        }
        return UInt32(low.rounded())
    }

    /// Works whichever way the coefficients make pressure run with the reading.
    static func rawPressure(for pascal: Double, temperature: Double) -> UInt32 {
        let rising = pressure(raw: 16_777_215, temperature: temperature) > pressure(raw: 0, temperature: temperature)
        var low = 0.0, high = 16_777_215.0
        for _ in 0..<50 {
            let mid = (low + high) / 2
            if (pressure(raw: mid, temperature: temperature) < pascal) == rising { low = mid } else { high = mid }
        }
        return UInt32(low.rounded())
    }
}
