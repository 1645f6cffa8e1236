import LodestoneCore

/// An LPS22HB at the register level: WHO_AM_I, software reset, output rates, one-shot, the
/// pressure low-pass filter, block data update, STATUS data-ready and overrun flags, and the
/// register pointer that advances only while CTRL_REG2 IF_ADD_INC is set (otherwise a burst
/// reads or writes the same register again and again, as the chip does).
public final class LPS22HBEmulator: I2CTarget, @unchecked Sendable {
    let truth: any SensorTruthSource
    let clock: any MonotonicClock
    var random: SeededRandom
    public var noiseEnabled = true
    public private(set) var registers = [UInt8](repeating: 0, count: 256)
    public private(set) var pointer: UInt8 = 0
    var lastSample: MonotonicNanoseconds = 0
    var hasSampled = false
    var filtered: Double?
    /// Block data update: a channel whose first bytes have been read is not overwritten until
    /// its most significant byte has been read too (section 9.6, BDU).
    var pressureHeld = false
    var temperatureHeld = false

    public init(truth: any SensorTruthSource, clock: any MonotonicClock, seed: UInt64 = 1) {
        self.truth = truth
        self.clock = clock
        random = SeededRandom(seed: seed ^ 0x22B)
        reset()
    }

    func reset() {
        registers = [UInt8](repeating: 0, count: 256)
        registers[0x0F] = 0xB1
        registers[0x11] = 0x10  // IF_ADD_INC is set out of reset (section 9.7)
        hasSampled = false
        filtered = nil
        pressureHeld = false
        temperatureHeld = false
    }

    var autoIncrement: Bool { registers[0x11] & 0x10 != 0 }
    var rateSetting: Int { Int(min((registers[0x10] >> 4) & 0x07, 5)) }
    var blockDataUpdate: Bool { registers[0x10] & 0x02 != 0 }

    static let rates: [UInt64] = [0, 1, 10, 25, 50, 75]
    /// Pressure noise in pascal without and with the filter (table 3: 0.01 hPa and 0.0075 hPa RMS).
    static let pressureNoise = (raw: 1.0, filtered: 0.75)

    // MARK: I2CTarget

    public func write(_ bytes: UnsafeRawBufferPointer) {
        guard let first = bytes.first else { return }
        pointer = first
        for value in bytes.dropFirst() {
            registerWritten(pointer, value)
            if autoIncrement { pointer &+= 1 }
        }
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) {
        sampleIfDue()
        for index in 0..<buffer.count {
            buffer[index] = registerRead(pointer)
            if autoIncrement { pointer &+= 1 }
        }
    }

    func registerRead(_ register: UInt8) -> UInt8 {
        let value = registers[Int(register)]
        switch register {
        case 0x28, 0x29: pressureHeld = blockDataUpdate
        case 0x2A:
            // Reading PRESS_OUT_H clears P_DA and P_OR (section 9.19).
            pressureHeld = false
            registers[0x27] &= ~0x11
        case 0x2B: temperatureHeld = blockDataUpdate
        case 0x2C:
            temperatureHeld = false
            registers[0x27] &= ~0x22
        case 0x33: filtered = nil  // LPFP_RES: restart the filter
        default: break
        }
        return value
    }

    func registerWritten(_ register: UInt8, _ value: UInt8) {
        switch register {
        case 0x10:
            registers[0x10] = value & 0x7F  // bit 7 must be 0
        case 0x11:
            if value & 0x84 != 0 { reset(); return }  // BOOT or SWRESET: back to defaults, bits self-clear
            registers[0x11] = value & ~0x01
            if value & 0x01 != 0 && rateSetting == 0 { latchSample() }  // ONE_SHOT in power-down
        case 0x0B, 0x0C, 0x0D, 0x12, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1A:
            registers[Int(register)] = value
        default:
            break  // read-only
        }
    }

    // MARK: Conversions

    func sampleIfDue() {
        let rate = Self.rates[rateSetting]
        guard rate > 0 else { return }
        let now = clock.now()
        let period = 1_000_000_000 / rate
        guard !hasSampled || now &- lastSample >= period else { return }
        lastSample = now
        hasSampled = true
        latchSample()
    }

    func latchSample() {
        let world = truth.currentTruth()
        let filterOn = registers[0x10] & 0x08 != 0
        var pressure = world.pressure
        if noiseEnabled { pressure += random.gaussian(filterOn ? Self.pressureNoise.filtered : Self.pressureNoise.raw) }
        if filterOn {
            // First-order low-pass at ODR/9 or ODR/20 (section 4.1 / table 18).
            let divisor = registers[0x10] & 0x04 != 0 ? 20.0 : 9.0
            let previous = filtered ?? pressure
            pressure = previous + (pressure - previous) * (2 * Double.pi / divisor) / (1 + 2 * Double.pi / divisor)
            filtered = pressure
        }
        let temperature = world.temperature + (noiseEnabled ? random.gaussian(0.01) : 0)
        var status = registers[0x27]
        if !pressureHeld {
            let counts = Int32(max(-8_388_608, min(8_388_607, (pressure / 100 * 4096).rounded())))
            let bits = UInt32(bitPattern: counts)
            registers[0x28] = UInt8(bits & 0xFF)
            registers[0x29] = UInt8((bits >> 8) & 0xFF)
            registers[0x2A] = UInt8((bits >> 16) & 0xFF)
            if status & 0x01 != 0 { status |= 0x10 }  // P_OR: the previous value was never read
            status |= 0x01
        }
        if !temperatureHeld {
            let counts = Int16(max(-32768, min(32767, (temperature * 100).rounded())))
            let bits = UInt16(bitPattern: counts)
            registers[0x2B] = UInt8(bits & 0xFF)
            registers[0x2C] = UInt8(bits >> 8)
            if status & 0x02 != 0 { status |= 0x20 }
            status |= 0x02
        }
        registers[0x27] = status
    }
}
