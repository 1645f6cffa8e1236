import LodestoneCore

/// An MPU-6050 at the register level: WHO_AM_I, power-on sleep, sample-rate divider and
/// low-pass setting, full-scale ranges, the data-ready flag and big-endian data registers,
/// with noise and a small gyro bias.
public final class MPU6050Emulator: RegisterBankEmulator, @unchecked Sendable {
    let truth: any SensorTruthSource
    let clock: any MonotonicClock
    var random: SeededRandom
    /// Gyro zero-rate offset, deg/s, fixed per device (a real part has up to +-20).
    public var gyroBias: Vector3
    public var noiseEnabled = true
    var lastSample: MonotonicNanoseconds = 0
    var hasSampled = false

    public init(truth: any SensorTruthSource, clock: any MonotonicClock, seed: UInt64 = 1) {
        self.truth = truth
        self.clock = clock
        random = SeededRandom(seed: seed ^ 0x6050)
        gyroBias = Vector3(random.gaussian(0.5), random.gaussian(0.5), random.gaussian(0.5))
        super.init()
        powerOn()
    }

    func powerOn() {
        registers = [UInt8](repeating: 0, count: 256)
        registers[0x75] = 0x68  // WHO_AM_I
        registers[0x6B] = 0x40  // PWR_MGMT_1: asleep after power-on
        hasSampled = false
    }

    var asleep: Bool { registers[0x6B] & 0x40 != 0 }

    /// Output rate per register map section 4.2: gyro rate / (1 + SMPLRT_DIV).
    var samplePeriod: UInt64 {
        let dlpf = registers[0x1A] & 0x07
        let gyroRate: Double = (dlpf == 0 || dlpf == 7) ? 8000 : 1000
        return UInt64(1e9 * (1 + Double(registers[0x19])) / gyroRate)
    }

    public override func registerWritten(_ register: UInt8, _ value: UInt8) {
        if register == 0x6B && value & 0x80 != 0 { powerOn(); return }  // DEVICE_RESET
        if register == 0x75 || register == 0x3A { return }  // read-only
        super.registerWritten(register, value)
    }

    public override func prepareRead(from register: UInt8, count: Int) {
        guard !asleep else { return }
        let now = clock.now()
        if !hasSampled || now &- lastSample >= samplePeriod {
            latch(at: now)
        }
    }

    public override func registerRead(_ register: UInt8) -> UInt8 {
        let value = registers[Int(register)]
        if register == 0x3A { registers[0x3A] &= ~0x01 }  // INT_STATUS clears on read
        return value
    }

    func latch(at now: MonotonicNanoseconds) {
        lastSample = hasSampled ? lastSample + samplePeriod * max(1, (now - lastSample) / samplePeriod) : now
        hasSampled = true
        let t = truth.currentTruth()
        // The die runs a little warmer than the air.
        latchInvenSenseMotion(
            t, gyroBias: gyroBias, random: &random, accelerometerNoise: noiseEnabled ? 0.003 : 0,
            gyroscopeNoise: noiseEnabled ? 0.04 : 0, temperatureCounts: (t.temperature + 3 - 36.53) * 340)
    }
}
