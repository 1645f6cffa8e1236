import LodestoneCore

/// An HMC5883L at the register level: the "H43" identification, configuration and mode
/// registers, single and continuous measurement, RDY and LOCK, big-endian X-Z-Y data with the
/// -4096 overflow code, the chip's pointer roll-over from 0x08 back to 0x03, invalid registers
/// that read zero, with noise and hard- and soft-iron distortion.
public final class HMC5883LEmulator: RegisterBankEmulator, @unchecked Sendable {
    let truth: any SensorTruthSource
    let clock: any MonotonicClock
    var random: SeededRandom
    public var distortion = FieldDistortion.none
    public var noiseEnabled = true
    /// The chip's own register pointer (its roll-over rules differ from a plain counter).
    var cursor: UInt8 = 0
    var singlePendingSince: MonotonicNanoseconds?
    /// When the next continuous-mode result is placed, nil outside continuous mode.
    var nextContinuous: MonotonicNanoseconds?
    /// Data registers (0x03...0x08) read since the last result was placed, one bit each.
    var dataRead: UInt8 = 0

    /// A single measurement takes about 6 ms (datasheet operational example; 160 Hz maximum).
    static let singleMeasurementTime: UInt64 = 6_000_000

    public init(truth: any SensorTruthSource, clock: any MonotonicClock, seed: UInt64 = 1) {
        self.truth = truth
        self.clock = clock
        random = SeededRandom(seed: seed ^ 0x5883_1)
        super.init()
        powerOn()
    }

    func powerOn() {
        registers = [UInt8](repeating: 0, count: 256)
        registers[0x00] = 0x10
        registers[0x01] = 0x20
        registers[0x02] = 0x01
        registers[0x0A] = 0x48
        registers[0x0B] = 0x34
        registers[0x0C] = 0x33
        singlePendingSince = nil
        nextContinuous = nil
        dataRead = 0
    }

    var locked: Bool { dataRead != 0 && dataRead != 0x3F }

    /// Output period in continuous mode from DO2-DO0 (Table 5); 0b111 is reserved.
    var continuousPeriod: UInt64 {
        let hz: Double
        switch (registers[0x00] >> 2) & 7 {
        case 0: hz = 0.75
        case 1: hz = 1.5
        case 2: hz = 3
        case 3: hz = 7.5
        case 4: hz = 15
        case 5: hz = 30
        default: hz = 75
        }
        return UInt64(1e9 / hz)
    }

    public override func write(_ bytes: UnsafeRawBufferPointer) {
        guard let first = bytes.first else { return }
        cursor = first
        for value in bytes.dropFirst() {
            registerWritten(cursor, value)
            advance()
        }
    }

    public override func read(into buffer: UnsafeMutableRawBufferPointer) {
        prepareRead(from: cursor, count: buffer.count)
        for index in 0..<buffer.count {
            buffer[index] = registerRead(cursor)
            advance()
        }
    }

    /// Pointer update after each byte: data reads wrap from 0x08 to 0x03, and anything from
    /// register 12 on returns to 0 (Register Access).
    func advance() {
        if cursor == 0x08 { cursor = 0x03 } else if cursor >= 0x0C { cursor = 0x00 } else { cursor += 1 }
    }

    public override func registerWritten(_ register: UInt8, _ value: UInt8) {
        switch register {
        case 0x00:
            registers[0x00] = value & 0x7F  // CRA7 must be clear
            dataRead = 0
            if nextContinuous != nil { nextContinuous = clock.now() + 2 * continuousPeriod }
        case 0x01:
            registers[0x01] = value & 0xE0  // CRB4-CRB0 must be clear
        case 0x02:
            registers[0x02] = value & 0x83
            dataRead = 0
            registers[0x09] &= ~0x02
            switch value & 0x03 {
            case 0x00:
                // First result after 2/fDO, then every 1/fDO (Table 16, continuous mode).
                nextContinuous = clock.now() + 2 * continuousPeriod
                singlePendingSince = nil
            case 0x01:
                nextContinuous = nil
                singlePendingSince = clock.now()
                registers[0x09] &= ~0x01  // a new measurement is under way
            default:
                nextContinuous = nil
                singlePendingSince = nil
            }
        default:
            return  // read-only or invalid: ignored
        }
    }

    public override func prepareRead(from register: UInt8, count: Int) {
        let now = clock.now()
        if let since = singlePendingSince, now &- since >= Self.singleMeasurementTime {
            singlePendingSince = nil
            latch()
            registers[0x02] = (registers[0x02] & 0x80) | 0x03  // back to idle
        }
        if let due = nextContinuous, now >= due {
            let period = continuousPeriod
            nextContinuous = due + period * ((now - due) / period + 1)
            if !locked { latch() }  // a half-read result is kept (LOCK, Table 17)
        }
    }

    public override func registerRead(_ register: UInt8) -> UInt8 {
        guard register <= 0x0C else { return 0 }
        if (0x03...0x08).contains(register) {
            dataRead |= 1 << (register - 0x03)
            // In single mode RDY stays up only until the data are read (Table 16).
            if registers[0x02] & 0x03 != 0 { registers[0x09] &= ~0x01 }
            if dataRead == 0x3F { dataRead = 0 }
        }
        var value = registers[Int(register)]
        if register == 0x09 { value = (value & 0x01) | (locked ? 0x02 : 0) }
        return value
    }

    func latch() {
        dataRead = 0
        let chip = ChipMounting.chipAxes(fromBody: truth.currentTruth().magneticField)
        var field = distortion.apply(chip)
        if noiseEnabled { field = field + Vector3(random.gaussian(0.2), random.gaussian(0.2), random.gaussian(0.2)) }
        let gain: Double  // LSB per gauss, Table 9
        switch registers[0x01] >> 5 {
        case 0: gain = 1370
        case 1: gain = 1090
        case 2: gain = 820
        case 3: gain = 660
        case 4: gain = 440
        case 5: gain = 390
        case 6: gain = 330
        default: gain = 230
        }
        let raw = field * (gain / 100)
        store(raw.x, at: 0x03)
        store(raw.z, at: 0x05)
        store(raw.y, at: 0x07)
        registers[0x09] |= 0x01
    }

    /// 12-bit result (0xF800...0x07FF); out of range reads -4096 (Data Output X Registers).
    func store(_ value: Double, at register: Int) {
        let counts = value.rounded()
        store16BE(counts < -2048 || counts > 2047 ? -4096 : counts, at: register)
    }
}
