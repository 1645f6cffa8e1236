import LodestoneCore

/// An MS5611 at the command level: reset, PROM reads, D1/D2 conversions at five oversampling
/// ratios and ADC reads that give 0 when no finished conversion is waiting, as the chip does.
/// Raw readings are made by inverting the datasheet's compensation (second order included),
/// so the real driver's integer formulas recover the world's pressure and temperature.
public final class MS5611Emulator: I2CTarget, @unchecked Sendable {
    enum Pending { case none, prom(Int), adc }

    struct Conversion {
        var value: UInt32
        var readyAt: MonotonicNanoseconds
        /// The chip keeps converting after an early ADC read, but the result comes out wrong.
        var spoiled = false
    }

    let truth: any SensorTruthSource
    let clock: any MonotonicClock
    var random: SeededRandom
    public var noiseEnabled = true
    /// The PROM: factory word, C1..C6 of AN520's worked example, serial code with the CRC in its low nibble.
    public private(set) var prom: [UInt16]
    var pending = Pending.none
    var conversion: Conversion?
    /// Conversions started since the last reset, for tests.
    public private(set) var conversionsStarted = 0

    /// AN520's example calibration words C1..C6.
    public static let calibration: [UInt16] = [40127, 36924, 23317, 23282, 33464, 28312]

    public init(truth: any SensorTruthSource, clock: any MonotonicClock, seed: UInt64 = 1) {
        self.truth = truth
        self.clock = clock
        random = SeededRandom(seed: seed ^ 0x5611)
        // Word 0 (factory data) and the serial code are made up; the CRC nibble is computed.
        var words: [UInt16] = [0x0042] + Self.calibration + [0x5A30]
        words[7] |= UInt16(Self.crc4(words))
        prom = words
    }

    /// Overwrites one PROM word without fixing the CRC, to emulate a corrupted or misread PROM.
    public func corruptPROM(word: Int, value: UInt16) { prom[word] = value }

    /// AN520's CRC-4, written out again here so the emulator does not lean on the driver.
    static func crc4(_ words: [UInt16]) -> UInt8 {
        var bytes: [UInt8] = []
        for (index, word) in words.enumerated() {
            bytes.append(UInt8(word >> 8))
            bytes.append(index == 7 ? 0 : UInt8(word & 0xFF))
        }
        var remainder: UInt32 = 0
        for byte in bytes {
            remainder ^= UInt32(byte)
            for _ in 0..<8 { remainder = (remainder & 0x8000) != 0 ? (remainder << 1) ^ 0x3000 : remainder << 1 }
        }
        return UInt8((remainder >> 12) & 0xF)
    }

    /// Typical conversion times (datasheet "ADC conversion time"), nanoseconds, by OSR index.
    static let conversionNanoseconds: [UInt64] = [540_000, 1_060_000, 2_080_000, 4_130_000, 8_220_000]
    /// RMS noise by OSR index (datasheet "Resolution RMS"): pressure in pascal, temperature in degC.
    static let pressureNoise: [Double] = [6.5, 4.2, 2.7, 1.8, 1.2]
    static let temperatureNoise: [Double] = [0.012, 0.008, 0.005, 0.003, 0.002]

    public func write(_ bytes: UnsafeRawBufferPointer) {
        guard let code = bytes.first else { return }
        switch code {
        case 0x1E:
            pending = .none
            conversion = nil
            conversionsStarted = 0
        case 0x00:
            pending = .adc
        case 0xA0...0xAE where code & 1 == 0:
            pending = .prom(Int(code - 0xA0) / 2)
        case 0x40...0x48 where code & 1 == 0:
            startConversion(pressure: true, osr: Int(code - 0x40) / 2)
        case 0x50...0x58 where code & 1 == 0:
            startConversion(pressure: false, osr: Int(code - 0x50) / 2)
        default:
            pending = .none
        }
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) {
        for index in 0..<buffer.count { buffer[index] = 0 }
        switch pending {
        case .none:
            break
        case .prom(let word):
            if buffer.count > 0 { buffer[0] = UInt8(prom[word] >> 8) }
            if buffer.count > 1 { buffer[1] = UInt8(prom[word] & 0xFF) }
        case .adc:
            guard var current = conversion else { break }
            if clock.now() < current.readyAt {
                current.spoiled = true
                conversion = current
                break
            }
            conversion = nil  // a second ADC read gives 0
            let value = current.spoiled ? current.value ^ 0x0F0F0F : current.value
            for (index, shift) in [16, 8, 0].enumerated() where index < buffer.count {
                buffer[index] = UInt8((value >> UInt32(shift)) & 0xFF)
            }
        }
        pending = .none
    }

    func startConversion(pressure: Bool, osr: Int) {
        pending = .none
        conversionsStarted += 1
        let world = truth.currentTruth()
        let temperature = world.temperature + (noiseEnabled ? random.gaussian(Self.temperatureNoise[osr]) : 0)
        let d2 = Self.rawTemperature(for: temperature)
        let value: UInt32
        if pressure {
            let pascal = world.pressure + (noiseEnabled ? random.gaussian(Self.pressureNoise[osr]) : 0)
            value = Self.rawPressure(for: pascal, d2: d2)
        } else {
            value = d2
        }
        conversion = Conversion(value: value, readyAt: clock.now() &+ Self.conversionNanoseconds[osr])
    }

    // MARK: Datasheet compensation in real numbers, inverted

    static func c(_ n: Int) -> Double { Double(calibration[n - 1]) }

    /// TEMP (hundredths of a degree) for a temperature reading, second-order term included.
    static func temperature(d2: Double) -> Double {
        let dT = d2 - c(5) * 256
        let first = 2000 + dT * c(6) / 8_388_608
        return first < 2000 ? first - dT * dT / 2_147_483_648 : first
    }

    /// The 24-bit D2 whose TEMP is closest to `celsius` (TEMP rises with D2).
    static func rawTemperature(for celsius: Double) -> UInt32 {
        var low = 0.0, high = 16_777_215.0
        for _ in 0..<50 {
            let mid = (low + high) / 2
            if temperature(d2: mid) < celsius * 100 { low = mid } else { high = mid }
        }
        return UInt32(high.rounded())
    }

    /// The 24-bit D1 giving `pascal` at temperature reading `d2`: P = (D1 SENS / 2^21 - OFF) / 2^15 solved for D1.
    static func rawPressure(for pascal: Double, d2: UInt32) -> UInt32 {
        let dT = Double(d2) - c(5) * 256
        let first = 2000 + dT * c(6) / 8_388_608
        var offset = c(2) * 65_536 + c(4) * dT / 128
        var sensitivity = c(1) * 32_768 + c(3) * dT / 256
        if first < 2000 {
            let cold = (first - 2000) * (first - 2000)
            var offset2 = 5 * cold / 2, sensitivity2 = 5 * cold / 4
            if first < -1500 {
                offset2 += 7 * (first + 1500) * (first + 1500)
                sensitivity2 += 11 * (first + 1500) * (first + 1500) / 2
            }
            offset -= offset2
            sensitivity -= sensitivity2
        }
        guard sensitivity > 0 else { return 0 }
        // Half a pascal up: the driver's divisions truncate, so aim at the middle of the step.
        let d1 = ((pascal + 0.5) * 32_768 + offset) * 2_097_152 / sensitivity
        return UInt32(max(1, min(16_777_215, d1.rounded())))
    }
}
