import LodestoneCore

/// An LSM6DS3, LSM6DS3TR-C or LSM6DSOX at the register level: WHO_AM_I, SW_RESET, power-down
/// until an output rate is set, separate accelerometer and gyroscope rates and ranges (the
/// out-of-order +-16 g code, FS_125), STATUS_REG XLDA/GDA/TDA cleared by reading the outputs,
/// little-endian outputs, and IF_INC: with it cleared a multi-byte transfer stays on one
/// register, as on the chip. With noise and a small gyro bias.
public final class LSM6DSEmulator: RegisterBankEmulator, @unchecked Sendable {
    public enum Variant: Sendable {
        case lsm6ds3, lsm6ds3trc, lsm6dsox
        public var whoAmI: UInt8 {
            switch self {
            case .lsm6ds3: return 0x69
            case .lsm6ds3trc: return 0x6A
            case .lsm6dsox: return 0x6C
            }
        }
        /// Temperature output, LSB per degree Celsius, 0 LSB at 25 degC.
        public var temperatureCountsPerDegree: Double { self == .lsm6ds3 ? 16 : 256 }
    }

    let truth: any SensorTruthSource
    let clock: any MonotonicClock
    var random: SeededRandom
    public let variant: Variant
    /// Gyro zero-rate level, deg/s (datasheets: +-10 typical for the LSM6DS3, +-1 for the LSM6DSOX).
    public var gyroBias: Vector3
    public var noiseEnabled = true
    var cursor: UInt8 = 0
    var nextAccel: MonotonicNanoseconds?
    var nextGyro: MonotonicNanoseconds?

    public init(
        truth: any SensorTruthSource, clock: any MonotonicClock, seed: UInt64 = 1,
        variant: Variant = .lsm6dsox
    ) {
        self.truth = truth
        self.clock = clock
        self.variant = variant
        random = SeededRandom(seed: seed ^ 0x6D5)
        gyroBias = Vector3(random.gaussian(0.3), random.gaussian(0.3), random.gaussian(0.3))
        super.init()
        reset()
    }

    func reset() {
        registers = [UInt8](repeating: 0, count: 256)
        registers[0x0F] = variant.whoAmI
        registers[0x12] = 0x04  // CTRL3_C: IF_INC set after reset
        nextAccel = nil
        nextGyro = nil
    }

    var autoIncrement: Bool { registers[0x12] & 0x04 != 0 }

    public override func write(_ bytes: UnsafeRawBufferPointer) {
        guard let first = bytes.first else { return }
        cursor = first
        for value in bytes.dropFirst() {
            registerWritten(cursor, value)
            if autoIncrement { cursor &+= 1 }
        }
    }

    public override func read(into buffer: UnsafeMutableRawBufferPointer) {
        prepareRead(from: cursor, count: buffer.count)
        for index in 0..<buffer.count {
            buffer[index] = registerRead(cursor)
            if autoIncrement { cursor &+= 1 }
        }
    }

    /// ODR codes 1...10: 12.5 Hz, then 26 Hz doubling up to 6.66 kHz; 0 (and the low-power
    /// 1.6 Hz code 11 of the LSM6DSOX, not modelled) is power-down.
    static func period(code: UInt8) -> UInt64? {
        guard code >= 1 && code <= 10 else { return nil }
        let hz = code == 1 ? 12.5 : 13 * Double(1 << Int(code - 1))
        return UInt64(1e9 / hz)
    }

    public override func registerWritten(_ register: UInt8, _ value: UInt8) {
        switch register {
        case 0x12:
            if value & 0x01 != 0 { reset(); return }  // SW_RESET
            registers[0x12] = value & 0x7E  // BOOT clears itself at once here
        case 0x10:
            registers[0x10] = value
            nextAccel = Self.period(code: value >> 4).map { clock.now() + $0 }
        case 0x11:
            registers[0x11] = value
            nextGyro = Self.period(code: value >> 4).map { clock.now() + $0 }
        case 0x0F, 0x1E, 0x20...0x2D:
            return  // read-only
        default:
            registers[Int(register)] = value
        }
    }

    public override func prepareRead(from register: UInt8, count: Int) {
        let now = clock.now()
        let t = truth.currentTruth()
        if let due = nextAccel, let period = Self.period(code: registers[0x10] >> 4), now >= due {
            nextAccel = due + period * ((now - due) / period + 1)
            latchAccel(t)
        }
        if let due = nextGyro, let period = Self.period(code: registers[0x11] >> 4), now >= due {
            nextGyro = due + period * ((now - due) / period + 1)
            latchGyro(t)
        }
    }

    public override func registerRead(_ register: UInt8) -> UInt8 {
        switch register {
        case 0x20...0x21: registers[0x1E] &= ~0x04
        case 0x22...0x27: registers[0x1E] &= ~0x02
        case 0x28...0x2D: registers[0x1E] &= ~0x01
        default: break
        }
        return registers[Int(register)]
    }

    func latchAccel(_ t: SensorTruth) {
        let milligPerCount: Double
        switch (registers[0x10] >> 2) & 3 {
        case 0b00: milligPerCount = 0.061
        case 0b10: milligPerCount = 0.122
        case 0b11: milligPerCount = 0.244
        default: milligPerCount = 0.488
        }
        let noise = noiseEnabled ? 0.002 : 0
        let force = ChipMounting.chipAxes(fromBody: t.specificForce) / 9.80665 * 1000
        store16LE((force.x + random.gaussian(noise * 1000)) / milligPerCount, at: 0x28)
        store16LE((force.y + random.gaussian(noise * 1000)) / milligPerCount, at: 0x2A)
        store16LE((force.z + random.gaussian(noise * 1000)) / milligPerCount, at: 0x2C)
        latchTemperature(t)
        registers[0x1E] |= 0x01
    }

    func latchGyro(_ t: SensorTruth) {
        let mdpsPerCount: Double
        if registers[0x11] & 0x02 != 0 {
            mdpsPerCount = 4.375
        } else {
            switch (registers[0x11] >> 2) & 3 {
            case 0: mdpsPerCount = 8.75
            case 1: mdpsPerCount = 17.5
            case 2: mdpsPerCount = 35
            default: mdpsPerCount = 70
            }
        }
        let noise = noiseEnabled ? 0.005 : 0
        let rate = (ChipMounting.chipAxes(fromBody: t.rotationRate) * (180 / Double.pi) + gyroBias) * 1000
        store16LE((rate.x + random.gaussian(noise * 1000)) / mdpsPerCount, at: 0x22)
        store16LE((rate.y + random.gaussian(noise * 1000)) / mdpsPerCount, at: 0x24)
        store16LE((rate.z + random.gaussian(noise * 1000)) / mdpsPerCount, at: 0x26)
        latchTemperature(t)
        registers[0x1E] |= 0x02
    }

    func latchTemperature(_ t: SensorTruth) {
        store16LE((t.temperature + 3 - 25) * variant.temperatureCountsPerDegree, at: 0x20)  // the die runs warm
        registers[0x1E] |= 0x04
    }
}
