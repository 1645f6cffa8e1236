import LodestoneCore

/// A TI ADS1115 at the register level (datasheet SBAS444): the address pointer register, the
/// 16-bit big-endian config, conversion and threshold registers, the multiplexer (all eight
/// MUX settings), the PGA's quantisation and clipping, and one LSB of dither-like noise.
///
/// The input voltages come from `volts` (channel 0-3 -> volts against GND), asked whenever the
/// conversion register is read in continuous mode, or when a single-shot conversion starts,
/// so a test or the simulated world can move them at will. Conversions complete instantly:
/// the emulator has no clock, so it never reports a conversion in progress in single-shot mode.
public final class ADS1115Emulator: I2CTarget, @unchecked Sendable {
    /// What the config register holds after power-up (OS = 1, single-shot, ±2.048 V).
    public static let powerOnConfig: UInt16 = 0x8583

    let volts: @Sendable (Int) -> Double
    var random: SeededRandom
    /// Adds up to ±0.5 LSB before rounding, so a code lands within 1 LSB of the ideal one.
    public var noiseEnabled = true
    /// P[1:0] of the last write: which register a read returns.
    public private(set) var pointer: UInt8 = 0
    /// Bits 14:0 as written; OS (bit 15) is computed on read.
    public private(set) var config: UInt16 = ADS1115Emulator.powerOnConfig & 0x7FFF
    public private(set) var lowThreshold: UInt16 = 0x8000
    public private(set) var highThreshold: UInt16 = 0x7FFF
    /// The last single-shot result (0 after power-up, as the datasheet says).
    public private(set) var conversion: UInt16 = 0
    public private(set) var conversions = 0

    public init(seed: UInt64 = 1, volts: @escaping @Sendable (Int) -> Double) {
        self.volts = volts
        random = SeededRandom(seed: seed ^ 0x1115)
    }

    var continuous: Bool { config & 0x0100 == 0 }

    public func write(_ bytes: UnsafeRawBufferPointer) {
        guard let first = bytes.first else { return }
        pointer = first & 0b11
        // A register write is the pointer and then exactly two data bytes, MSB first; the
        // chip ignores a register write cut short.
        guard bytes.count >= 3 else { return }
        let value = UInt16(bytes[1]) << 8 | UInt16(bytes[2])
        switch pointer {
        case 0x01:
            config = value & 0x7FFF
            // OS written 1 in power-down (single-shot) mode starts one conversion.
            if value & 0x8000 != 0 && !continuous { conversion = convert() }
        case 0x02: lowThreshold = value
        case 0x03: highThreshold = value
        default: break  // the conversion register is read-only
        }
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) {
        let value: UInt16
        switch pointer {
        case 0x00: value = continuous ? convert() : conversion
        // OS reads 1 when no conversion is in progress: always, in single-shot mode here;
        // never in continuous mode, where the chip is always converting.
        case 0x01: value = config | (continuous ? 0 : 0x8000)
        case 0x02: value = lowThreshold
        default: value = highThreshold
        }
        // Reads past the second byte repeat the register: the bus master decides the length.
        for index in 0..<buffer.count {
            buffer[index] = index % 2 == 0 ? UInt8(value >> 8) : UInt8(value & 0xFF)
        }
    }

    /// One conversion of the multiplexed inputs at the configured range, as a code.
    func convert() -> UInt16 {
        conversions += 1
        let mux = Int((config >> 12) & 0b111)
        let input: Double
        switch mux {
        case 0: input = volts(0) - volts(1)
        case 1: input = volts(0) - volts(3)
        case 2: input = volts(1) - volts(3)
        case 3: input = volts(2) - volts(3)
        default: input = volts(mux - 4)
        }
        // PGA[11:9]; 0b110 and 0b111 are ±0.256 V as well.
        let fullScale: Double
        switch (config >> 9) & 0b111 {
        case 0: fullScale = 6.144
        case 1: fullScale = 4.096
        case 2: fullScale = 2.048
        case 3: fullScale = 1.024
        case 4: fullScale = 0.512
        default: fullScale = 0.256
        }
        var code = input / fullScale * 32768
        if noiseEnabled { code += random.uniform() - 0.5 }
        return UInt16(bitPattern: RegisterBankEmulator.saturate(code))
    }
}
