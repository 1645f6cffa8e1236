import LodestoneCore

/// A QMC5883L at the register level: chip ID, soft reset, standby and continuous modes, output
/// rate, range, the DRDY and overflow flags and little-endian data, with noise and the
/// hard- and soft-iron distortion of whatever the sensor is mounted near.
public final class QMC5883LEmulator: RegisterBankEmulator, @unchecked Sendable {
    let truth: any SensorTruthSource
    let clock: any MonotonicClock
    var random: SeededRandom
    public var distortion = FieldDistortion.none
    public var noiseEnabled = true
    var lastSample: MonotonicNanoseconds = 0
    var hasSampled = false

    public init(truth: any SensorTruthSource, clock: any MonotonicClock, seed: UInt64 = 1) {
        self.truth = truth
        self.clock = clock
        random = SeededRandom(seed: seed ^ 0x5883)
        super.init()
        reset()
    }

    func reset() {
        registers = [UInt8](repeating: 0, count: 256)
        registers[0x0D] = 0xFF
        hasSampled = false
    }

    var continuous: Bool { registers[0x09] & 0x03 == 0x01 }

    var samplePeriod: UInt64 {
        switch (registers[0x09] >> 2) & 3 {
        case 0: return 100_000_000
        case 1: return 20_000_000
        case 2: return 10_000_000
        default: return 5_000_000
        }
    }

    public override func registerWritten(_ register: UInt8, _ value: UInt8) {
        if register == 0x0A && value & 0x80 != 0 { reset(); return }
        if register <= 0x08 || register == 0x0D { return }  // read-only
        super.registerWritten(register, value)
    }

    public override func prepareRead(from register: UInt8, count: Int) {
        guard continuous else { return }
        let now = clock.now()
        if !hasSampled || now &- lastSample >= samplePeriod { latch(at: now) }
    }

    public override func registerRead(_ register: UInt8) -> UInt8 {
        let value = registers[Int(register)]
        // Reading the data clears DRDY (datasheet: "cleared when any data register is read").
        if register <= 0x05 { registers[0x06] &= ~0x01 }
        return value
    }

    func latch(at now: MonotonicNanoseconds) {
        if registers[0x06] & 0x01 != 0 { registers[0x06] |= 0x04 }  // DOR: previous sample never read
        lastSample = hasSampled ? lastSample + samplePeriod * max(1, (now - lastSample) / samplePeriod) : now
        hasSampled = true
        let chip = ChipMounting.chipAxes(fromBody: truth.currentTruth().magneticField)
        var field = distortion.apply(chip)
        if noiseEnabled { field = field + Vector3(random.gaussian(0.15), random.gaussian(0.15), random.gaussian(0.15)) }
        let counts = (registers[0x09] >> 4) & 3 == 0 ? 120.0 : 30.0
        let raw = field * counts
        if max(abs(raw.x), abs(raw.y), abs(raw.z)) > 32767 {
            registers[0x06] |= 0x02
        } else {
            registers[0x06] &= ~0x02
        }
        store16LE(raw.x, at: 0x00)
        store16LE(raw.y, at: 0x02)
        store16LE(raw.z, at: 0x04)
        registers[0x06] |= 0x01
    }
}
