import LodestoneCore

/// An AK8963 at the register level: WIA, soft reset, the mode rules (power-down between
/// modes), fuse ROM readable only in fuse-ROM mode, 14- and 16-bit output with the factory
/// sensitivity error that ASA corrects, ST1 DRDY and DOR, data held back until ST2 is read,
/// HOFL overflow, little-endian data, with noise and hard- and soft-iron distortion.
///
/// Standalone it answers whenever attached. Inside an `MPU9250Emulator` it answers only while
/// that chip's bypass connects it to the bus; otherwise nothing drives the lines and every byte
/// reads as the pull-ups leave it (0xFF), and writes are lost.
public final class AK8963Emulator: RegisterBankEmulator, @unchecked Sendable {
    /// How the die's axes sit relative to the body the board describes.
    public enum Mounting: Sendable {
        /// On its own breakout, flat like every other simulated chip (`ChipMounting`).
        case breakout
        /// Inside an MPU-9250: X along the MPU's Y, Y along its X, Z opposite (MPU-9250
        /// datasheet section 9.1), the MPU itself mounted like every other chip.
        case insideMPU9250
    }

    let truth: any SensorTruthSource
    let clock: any MonotonicClock
    var random: SeededRandom
    public var distortion = FieldDistortion.none
    public var noiseEnabled = true
    public var mounting: Mounting
    /// False while the chip is cut off from the bus (an MPU-9250 with its bypass off).
    public var reachable = true
    /// Fuse ROM sensitivity adjustment: each axis really measures (ASA - 128) / 256 + 1 times
    /// the nominal sensitivity, and the driver must divide that back out.
    public var asa: (x: UInt8, y: UInt8, z: UInt8)
    var nextSample: MonotonicNanoseconds?
    var singleDue: MonotonicNanoseconds?
    /// A data register has been read and ST2 not yet: new results are held back (6.4.3.2).
    var readingData = false

    public init(
        truth: any SensorTruthSource, clock: any MonotonicClock, seed: UInt64 = 1,
        mounting: Mounting = .breakout
    ) {
        self.truth = truth
        self.clock = clock
        self.mounting = mounting
        random = SeededRandom(seed: seed ^ 0x8963)
        asa = (UInt8(160 + random.next() % 40), UInt8(160 + random.next() % 40), UInt8(150 + random.next() % 40))
        super.init()
        reset()
    }

    func reset() {
        registers = [UInt8](repeating: 0, count: 256)
        registers[0x00] = 0x48  // WIA
        registers[0x01] = 0x9A  // INFO: AKM's own, undocumented
        nextSample = nil
        singleDue = nil
        readingData = false
    }

    var mode: UInt8 { registers[0x0A] & 0x0F }
    var sixteenBit: Bool { registers[0x0A] & 0x10 != 0 }
    static func isContinuous(_ mode: UInt8) -> Bool { mode == 0b0010 || mode == 0b0110 }

    public override func write(_ bytes: UnsafeRawBufferPointer) {
        guard reachable else { return }
        super.write(bytes)
    }

    public override func read(into buffer: UnsafeMutableRawBufferPointer) {
        guard reachable else {
            for index in 0..<buffer.count { buffer[index] = 0xFF }
            return
        }
        super.read(into: buffer)
    }

    public override func registerWritten(_ register: UInt8, _ value: UInt8) {
        switch register {
        case 0x0A:
            let newMode = value & 0x0F
            // Section 6.3: go through power-down between modes; continuous to continuous
            // restarts the measurement (6.4.3). Anything else is ignored here.
            guard mode == 0 || newMode == 0 || (Self.isContinuous(mode) && Self.isContinuous(newMode)) else { return }
            registers[0x0A] = value & 0x1F
            let now = clock.now()
            nextSample = nil
            singleDue = nil
            switch newMode {
            case 0b0001: singleDue = now + 7_200_000  // tSM typ 7.2 ms
            case 0b0010: nextSample = now + 125_000_000
            case 0b0110: nextSample = now + 10_000_000
            default: break
            }
        case 0x0B:
            if value & 0x01 != 0 { reset() }
        case 0x0C:
            registers[0x0C] = value & 0x40  // ASTC: SELF only
        case 0x0F:
            registers[0x0F] = value
        default:
            return  // read-only
        }
    }

    public override func prepareRead(from register: UInt8, count: Int) {
        let now = clock.now()
        if let due = singleDue, now >= due {
            singleDue = nil
            latch()
            registers[0x0A] &= 0x10  // back to power-down
        }
        if let due = nextSample, now >= due {
            let period: UInt64 = mode == 0b0010 ? 125_000_000 : 10_000_000
            nextSample = due + period * ((now - due) / period + 1)
            if readingData {
                registers[0x02] |= 0x02  // DOR: a result was skipped
            } else {
                latch()
            }
        }
    }

    public override func registerRead(_ register: UInt8) -> UInt8 {
        switch register {
        case 0x03...0x08:
            readingData = true
            registers[0x02] &= ~0x03  // DRDY and DOR clear
        case 0x09:
            readingData = false
            registers[0x02] &= ~0x03
        case 0x10...0x12:
            // Fuse ROM is readable only in fuse-ROM access mode; modelled as zero otherwise.
            guard mode == 0x0F else { return 0 }
            return register == 0x10 ? asa.x : register == 0x11 ? asa.y : asa.z
        case 0x13...0xFF:
            return 0
        default:
            break
        }
        return registers[Int(register)]
    }

    func latch() {
        if registers[0x02] & 0x01 != 0 { registers[0x02] |= 0x02 }  // the previous one was never read
        let body = truth.currentTruth().magneticField
        let flat = ChipMounting.chipAxes(fromBody: body)
        let die = mounting == .breakout ? flat : Vector3(flat.y, flat.x, -flat.z)
        var field = distortion.apply(die)
        if noiseEnabled { field = field + Vector3(random.gaussian(0.3), random.gaussian(0.3), random.gaussian(0.3)) }
        let perCount = sixteenBit ? 0.15 : 0.6
        let limit: Double = sixteenBit ? 32760 : 8190
        func counts(_ value: Double, _ asa: UInt8) -> Double {
            max(-limit, min(limit, (value / (perCount * ((Double(asa) - 128) / 256 + 1))).rounded()))
        }
        store16LE(counts(field.x, asa.x), at: 0x03)
        store16LE(counts(field.y, asa.y), at: 0x05)
        store16LE(counts(field.z, asa.z), at: 0x07)
        let overflow = abs(field.x) + abs(field.y) + abs(field.z) > 4912
        registers[0x09] = (sixteenBit ? 0x10 : 0) | (overflow ? 0x08 : 0)
        registers[0x02] |= 0x01
    }
}
