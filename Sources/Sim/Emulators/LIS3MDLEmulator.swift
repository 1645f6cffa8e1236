import LodestoneCore

/// A LIS3MDL at the register level: WHO_AM_I, soft reset, continuous, single and power-down
/// modes, output rates (and FAST_ODR), full scale, STATUS_REG data-available and overrun bits
/// cleared by reading the outputs, little-endian outputs, the temperature sensor, and the I2C
/// rule that the address steps through a multi-byte transfer only when its bit 7 is set.
/// With noise and hard- and soft-iron distortion.
public final class LIS3MDLEmulator: RegisterBankEmulator, @unchecked Sendable {
    let truth: any SensorTruthSource
    let clock: any MonotonicClock
    var random: SeededRandom
    public var distortion = FieldDistortion.none
    public var noiseEnabled = true
    var cursor: UInt8 = 0
    var increment = false
    var nextSample: MonotonicNanoseconds?

    public init(truth: any SensorTruthSource, clock: any MonotonicClock, seed: UInt64 = 1) {
        self.truth = truth
        self.clock = clock
        random = SeededRandom(seed: seed ^ 0x3D)
        super.init()
        reset()
    }

    /// Register defaults (datasheet section 7).
    func reset() {
        registers = [UInt8](repeating: 0, count: 256)
        registers[0x0F] = 0x3D
        registers[0x20] = 0x10
        registers[0x22] = 0x03
        registers[0x30] = 0xE8
        nextSample = nil
    }

    public override func write(_ bytes: UnsafeRawBufferPointer) {
        guard let first = bytes.first else { return }
        cursor = first & 0x7F
        increment = first & 0x80 != 0
        for value in bytes.dropFirst() {
            registerWritten(cursor, value)
            if increment { cursor = (cursor &+ 1) & 0x7F }
        }
    }

    public override func read(into buffer: UnsafeMutableRawBufferPointer) {
        prepareRead(from: cursor, count: buffer.count)
        for index in 0..<buffer.count {
            buffer[index] = registerRead(cursor)
            if increment { cursor = (cursor &+ 1) & 0x7F }
        }
    }

    var mode: UInt8 { registers[0x22] & 0x03 }

    /// DO[2:0] rates, or with FAST_ODR the rate the X/Y operating mode allows (Table 20).
    var samplePeriod: UInt64 {
        let hz: Double
        if registers[0x20] & 0x02 != 0 {
            switch (registers[0x20] >> 5) & 3 {
            case 0: hz = 1000
            case 1: hz = 560
            case 2: hz = 300
            default: hz = 155
            }
        } else {
            hz = 0.625 * Double(1 << Int((registers[0x20] >> 2) & 7))
        }
        return UInt64(1e9 / hz)
    }

    public override func registerWritten(_ register: UInt8, _ value: UInt8) {
        switch register {
        case 0x21:
            if value & 0x04 != 0 { reset(); return }  // SOFT_RST
            registers[0x21] = value & 0x60  // REBOOT has nothing to reload here
        case 0x22:
            registers[0x22] = value & 0x27
            switch value & 0x03 {
            case 0x00: nextSample = clock.now() + samplePeriod
            case 0x01: nextSample = clock.now() + samplePeriod
            default: nextSample = nil
            }
        case 0x20, 0x23, 0x24, 0x30, 0x32, 0x33:
            registers[Int(register)] = value
            if register == 0x20 && mode == 0 { nextSample = clock.now() + samplePeriod }
        default:
            return  // read-only or reserved
        }
    }

    public override func prepareRead(from register: UInt8, count: Int) {
        let now = clock.now()
        guard let due = nextSample, now >= due else { return }
        if mode == 0x01 {
            nextSample = nil
            registers[0x22] |= 0x03  // single conversion done: power-down
        } else {
            let period = samplePeriod
            nextSample = due + period * ((now - due) / period + 1)
        }
        latch()
    }

    public override func registerRead(_ register: UInt8) -> UInt8 {
        if (0x28...0x2D).contains(register) { registers[0x27] = 0 }
        return registers[Int(register)]
    }

    func latch() {
        let chip = ChipMounting.chipAxes(fromBody: truth.currentTruth().magneticField)
        var field = distortion.apply(chip)
        if noiseEnabled { field = field + Vector3(random.gaussian(0.32), random.gaussian(0.32), random.gaussian(0.35)) }
        let countsPerGauss: Double
        switch (registers[0x21] >> 5) & 3 {
        case 0: countsPerGauss = 6842
        case 1: countsPerGauss = 3421
        case 2: countsPerGauss = 2281
        default: countsPerGauss = 1711
        }
        let raw = field * (countsPerGauss / 100)
        store16LE(raw.x, at: 0x28)
        store16LE(raw.y, at: 0x2A)
        store16LE(raw.z, at: 0x2C)
        if registers[0x20] & 0x80 != 0 {
            // 8 LSB per degree, 0 at 25 degC (Table 4); the die runs a little warm.
            store16LE((truth.currentTruth().temperature + 3 - 25) * 8, at: 0x2E)
        }
        // A result nobody read is overrun: ZYXOR and the per-axis OR bits.
        let overrun: UInt8 = registers[0x27] & 0x08 != 0 ? 0xF0 : 0
        registers[0x27] = overrun | 0x0F
    }
}
