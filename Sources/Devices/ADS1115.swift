import LodestoneCore
import LodestoneHAL

/// TI ADS1115 16-bit delta-sigma ADC with a programmable gain amplifier (datasheet SBAS444):
/// four inputs, read here single-ended (AINx against GND) in continuous-conversion mode, the
/// way a wind vane's voltage divider or a battery monitor is wired.
///
/// Unlike the 8-bit register chips, every ADS1115 register is 16 bits, sent most significant
/// byte first; the first byte of every write is the address pointer register (bits 1:0 select
/// the register, bits 7:2 must be 0). The chip has no identification register, so `start`
/// identifies it by reading its configuration back, and `identify` by its power-on value.
///
/// Not a `ChipDriver`: an ADC measures whatever is wired to it, so it has no `SensorKind`.
/// The TI ADS1015 (the 12-bit sibling) shares the register map and power-on value; it reads
/// correctly through this driver too (its four low conversion bits read 0).
public struct ADS1115<Bus: I2CBus> {
    /// The single-ended inputs: MUX[14:12] = 0b100 + channel (AINx against GND).
    public enum Channel: UInt16, Sendable, CaseIterable {
        case ain0 = 0, ain1 = 1, ain2 = 2, ain3 = 3
        /// The MUX field for this input against GND.
        var mux: UInt16 { 0b100 | rawValue }
    }

    /// The programmable gain amplifier's full-scale range, PGA[11:9]. The range only scales
    /// the code: an input can never go beyond VDD + 0.3 V, so ±6.144 V on a 3.3 V board still
    /// reads at most 3.3 V.
    public enum Range: UInt16, Sendable, CaseIterable {
        case volts6_144 = 0, volts4_096 = 1, volts2_048 = 2, volts1_024 = 3, volts0_512 = 4, volts0_256 = 5

        /// Full scale in volts: the code 32768 would be this voltage (one LSB is FSR / 32768).
        public var fullScaleVolts: Double {
            switch self {
            case .volts6_144: return 6.144
            case .volts4_096: return 4.096
            case .volts2_048: return 2.048
            case .volts1_024: return 1.024
            case .volts0_512: return 0.512
            case .volts0_256: return 0.256
            }
        }

        /// The range a PGA field selects; 0b110 and 0b111 also mean ±0.256 V (datasheet Table 8).
        public init(field: UInt16) { self = Range(rawValue: min(field & 0b111, 5)) ?? .volts0_256 }
    }

    /// Conversions per second, DR[7:5]. Slower rates average more and reject more noise.
    public enum DataRate: UInt16, Sendable, CaseIterable {
        case sps8 = 0, sps16 = 1, sps32 = 2, sps64 = 3, sps128 = 4, sps250 = 5, sps475 = 6, sps860 = 7

        public var samplesPerSecond: Int {
            switch self {
            case .sps8: return 8
            case .sps16: return 16
            case .sps32: return 32
            case .sps64: return 64
            case .sps128: return 128
            case .sps250: return 250
            case .sps475: return 475
            case .sps860: return 860
            }
        }
    }

    static var conversionRegister: UInt8 { 0x00 }
    static var configRegister: UInt8 { 0x01 }
    static var lowThresholdRegister: UInt8 { 0x02 }
    static var highThresholdRegister: UInt8 { 0x03 }
    /// The config register after power-up or reset: OS = 1 (idle), AIN0-AIN1, ±2.048 V,
    /// single-shot, 128 SPS, comparator disabled (COMP_QUE = 0b11).
    public static var powerOnConfig: UInt16 { 0x8583 }
    /// OS, bit 15: written 1 starts a single-shot conversion; read, it says whether a
    /// conversion is in progress. It never reads back what was written, so it is left out of
    /// every comparison.
    static var operationalStatus: UInt16 { 0x8000 }
    /// The four addresses the ADDR pin selects (GND, VDD, SDA, SCL).
    public static var addresses: ClosedRange<UInt8> { 0x48...0x4B }

    public let device: I2CRegisterDevice<Bus>
    /// The range the conversion register is scaled with: the power-on ±2.048 V until `start`.
    public private(set) var range: Range = .volts2_048
    public private(set) var channel: Channel = .ain0
    public private(set) var rate: DataRate = .sps128

    public init(bus: Bus, address: UInt8 = 0x48) {
        device = I2CRegisterDevice(bus: bus, address: address)
    }

    /// The config word for continuous conversion of one input against GND, comparator off.
    public static func continuousConfig(channel: Channel, range: Range, rate: DataRate) -> UInt16 {
        // MODE[8] = 0: continuous; COMP_MODE/POL/LAT = 0 and COMP_QUE[1:0] = 0b11: the
        // comparator is disabled and the ALERT/RDY pin stays high-impedance.
        channel.mux << 12 | range.rawValue << 9 | rate.rawValue << 5 | 0b11
    }

    /// Configures continuous conversion of `channel` and reads the config back: a chip that
    /// answers with other bits is not an ADS1115 (or not a working one). The first conversion
    /// is ready one conversion period (1 / rate) plus about 25 us of wake-up after this call;
    /// reading earlier returns the previous conversion (0 after power-up).
    public mutating func start(channel: Channel, range: Range = .volts4_096, rate: DataRate = .sps128) throws(DeviceError) {
        let config = Self.continuousConfig(channel: channel, range: range, rate: rate)
        try writeWord(Self.configRegister, config)
        let readBack = try readWord(Self.configRegister)
        let mask = ~Self.operationalStatus
        guard readBack & mask == config & mask else {
            // DeviceError carries bytes: report the first byte that differs.
            let highDiffers = (readBack ^ config) & 0x7F00 != 0
            throw .wrongChip(
                chip: "ADS1115", register: Self.configRegister,
                expected: UInt8(truncatingIfNeeded: highDiffers ? config >> 8 : config),
                found: UInt8(truncatingIfNeeded: highDiffers ? readBack >> 8 : readBack))
        }
        self.channel = channel
        self.range = range
        self.rate = rate
    }

    /// The newest conversion as a signed code: -32768...32767, where ±32767 also means the
    /// input is at or beyond the range's full scale.
    public func readRaw() throws(DeviceError) -> Int16 {
        Int16(bitPattern: try readWord(Self.conversionRegister))
    }

    /// The newest conversion in volts: code / 32768 × full scale. In single-ended mode a
    /// grounded input can read a few LSB below 0 (the ADC's offset), so small negative
    /// values are real readings, not errors.
    public func readVolts() throws(DeviceError) -> Double {
        Double(try readRaw()) / 32768 * range.fullScaleVolts
    }

    /// Whether an ADS1115 seems to answer at `address`, from the config register alone (a read
    /// that changes nothing). Accepted: the power-on value 0x8583, or a configuration with the
    /// comparator disabled (COMP_QUE = 0b11, what nearly every driver writes) and a PGA field
    /// a driver would write (0b000-0b101). That rejects a floating bus (0xFFFF has PGA 0b111),
    /// a bus held low (0x0000 has the comparator enabled), and the TMP102 and LM75 thermometers
    /// that share these addresses (their config registers read with the low bits 0).
    public static func identify(bus: Bus, address: UInt8) -> Bool {
        let probe = ADS1115(bus: bus, address: address)
        guard let config = try? probe.readWord(configRegister) else { return false }
        if config == powerOnConfig { return true }
        return config & 0b11 == 0b11 && (config >> 9) & 0b111 <= 5
    }

    // 16-bit registers, big-endian, into stack storage so no call allocates.

    func readWord(_ register: UInt8) throws(DeviceError) -> UInt16 {
        var bytes: (UInt8, UInt8) = (0, 0)
        do {
            try withUnsafeMutableBytes(of: &bytes) { (buffer) throws(I2CError) in
                try device.readRegisters(register, into: buffer)
            }
        } catch {
            throw .bus(error)
        }
        return UInt16(bytes.0) << 8 | UInt16(bytes.1)
    }

    func writeWord(_ register: UInt8, _ value: UInt16) throws(DeviceError) {
        var command: (UInt8, UInt8, UInt8) = (register, UInt8(value >> 8), UInt8(value & 0xFF))
        let bus = device.bus
        let address = device.address
        do {
            try withUnsafeBytes(of: &command) { (write) throws(I2CError) in
                try bus.transfer(address: address, write: write, read: UnsafeMutableRawBufferPointer(start: nil, count: 0))
            }
        } catch {
            throw .bus(error)
        }
    }
}
