import LodestoneCore

/// An MPU-9250 (or MPU-9255) at the register level: WHO_AM_I, H_RESET, sleep, the sample-rate
/// divider and its 1 kHz / 8 kHz internal rates, full-scale ranges, the data-ready flag cleared
/// by reading INT_STATUS, big-endian data, with noise and a small gyro bias, and the AK8963 die
/// inside it, reachable only through the I2C bypass.
///
/// Attach the chip at 0x68 (or 0x69) and `magnetometer` at 0x0C on the same bus: the
/// magnetometer then answers only while INT_PIN_CFG BYPASS_EN is set and the MPU's I2C master
/// is off, as on the real part.
public final class MPU9250Emulator: RegisterBankEmulator, @unchecked Sendable {
    public enum Variant: Sendable {
        case mpu9250, mpu9255
        public var whoAmI: UInt8 { self == .mpu9250 ? 0x71 : 0x73 }
    }

    let truth: any SensorTruthSource
    let clock: any MonotonicClock
    var random: SeededRandom
    public let variant: Variant
    /// The AK8963 in the same package, to be attached at 0x0C.
    public let magnetometer: AK8963Emulator
    /// Gyro zero-rate offset, deg/s, fixed per device (product specification: +-5 typical).
    public var gyroBias: Vector3
    public var noiseEnabled = true {
        didSet { magnetometer.noiseEnabled = noiseEnabled }
    }
    var lastSample: MonotonicNanoseconds = 0
    var hasSampled = false

    public init(
        truth: any SensorTruthSource, clock: any MonotonicClock, seed: UInt64 = 1,
        variant: Variant = .mpu9250
    ) {
        self.truth = truth
        self.clock = clock
        self.variant = variant
        random = SeededRandom(seed: seed ^ 0x9250)
        gyroBias = Vector3(random.gaussian(0.5), random.gaussian(0.5), random.gaussian(0.5))
        magnetometer = AK8963Emulator(truth: truth, clock: clock, seed: seed, mounting: .insideMPU9250)
        super.init()
        powerOn()
    }

    /// Register map: every register resets to 0 except PWR_MGMT_1 (0x01: awake, clock
    /// auto-select) and WHO_AM_I. Unlike the MPU-6050 the chip does not start asleep.
    func powerOn() {
        registers = [UInt8](repeating: 0, count: 256)
        registers[0x75] = variant.whoAmI
        registers[0x6B] = 0x01
        hasSampled = false
        updateBypass()
    }

    var asleep: Bool { registers[0x6B] & 0x40 != 0 }

    func updateBypass() {
        magnetometer.reachable = registers[0x37] & 0x02 != 0 && registers[0x6A] & 0x20 == 0
    }

    /// Register map section 4.4: with FCHOICE_B set or DLPF_CFG 0 or 7 the gyro runs at
    /// 8 kHz or more and SMPLRT_DIV does not apply; otherwise 1 kHz / (1 + SMPLRT_DIV).
    var samplePeriod: UInt64 {
        let dlpf = registers[0x1A] & 0x07
        if registers[0x1B] & 0x03 != 0 || dlpf == 0 || dlpf == 7 { return 125_000 }
        return UInt64(1e6 * (1 + Double(registers[0x19])))
    }

    public override func registerWritten(_ register: UInt8, _ value: UInt8) {
        if register == 0x6B && value & 0x80 != 0 { powerOn(); return }  // H_RESET
        if register == 0x75 || (0x3A...0x60).contains(register) { return }  // read-only
        super.registerWritten(register, value)
        if register == 0x37 || register == 0x6A { updateBypass() }
    }

    public override func prepareRead(from register: UInt8, count: Int) {
        guard !asleep else { return }
        let now = clock.now()
        if !hasSampled || now &- lastSample >= samplePeriod { latch(at: now) }
    }

    public override func registerRead(_ register: UInt8) -> UInt8 {
        let value = registers[Int(register)]
        // INT_ANYRD_2CLEAR is 0 by default: only reading INT_STATUS clears it (section 4.15).
        if register == 0x3A { registers[0x3A] &= ~0x01 }
        return value
    }

    func latch(at now: MonotonicNanoseconds) {
        lastSample = hasSampled ? lastSample + samplePeriod * max(1, (now - lastSample) / samplePeriod) : now
        hasSampled = true
        let t = truth.currentTruth()
        // The die runs a little warmer than the air.
        latchInvenSenseMotion(
            t, gyroBias: gyroBias, random: &random, accelerometerNoise: noiseEnabled ? 0.003 : 0,
            gyroscopeNoise: noiseEnabled ? 0.01 : 0, temperatureCounts: (t.temperature + 3 - 21) * 333.87)
    }
}
