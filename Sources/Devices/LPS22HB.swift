import LodestoneCore
import LodestoneHAL

/// ST LPS22HB barometer (datasheet DocID027083).
///
/// The chip compensates its readings itself: pressure comes out as a 24-bit two's complement
/// count of 1/4096 hPa, temperature as a 16-bit count of 1/100 degC (section 9.18-9.22). The
/// driver identifies it by WHO_AM_I, resets it, and runs it continuously with block data
/// update, so a burst never mixes bytes of two conversions. Each read takes STATUS and the five
/// output registers in one burst, and STATUS says whether the pressure is new.
public struct LPS22HB<Bus: I2CBus>: ChipDriver {
    /// CTRL_REG1 ODR[2:0] (section 9.6); one-shot mode (0) is not offered.
    public enum OutputRate: UInt8, Sendable, CaseIterable {
        case hz1 = 1, hz10 = 2, hz25 = 3, hz50 = 4, hz75 = 5
        public var hertz: Int { [0, 1, 10, 25, 50, 75][Int(rawValue)] }
    }

    /// CTRL_REG1 EN_LPFP and LPFP_CFG (section 9.6, table 18): a low-pass filter on pressure
    /// with a bandwidth of ODR/9 or ODR/20.
    public enum LowPassFilter: UInt8, Sendable {
        case off = 0b00, odrOver9 = 0b10, odrOver20 = 0b11
    }

    static var whoAmIRegister: UInt8 { 0x0F }
    public static var chipID: UInt8 { 0xB1 }
    static var control1: UInt8 { 0x10 }
    static var control2: UInt8 { 0x11 }
    static var statusRegister: UInt8 { 0x27 }
    static var filterResetRegister: UInt8 { 0x33 }

    public let device: I2CRegisterDevice<Bus>
    public var outputRate: OutputRate
    public var lowPassFilter: LowPassFilter
    public private(set) var started = false
    private let buffer = RegisterBuffer(count: 6)

    public static var chips: [ChipInfo] {
        // SA0 high selects 0x5D, the common breakout wiring; SA0 low 0x5C (section 7.2.1).
        [ChipInfo(name: "lps22hb", displayName: "LPS22HB", kind: .barometer, addresses: [0x5D, 0x5C])]
    }

    public static func identify(bus: Bus, address: UInt8) -> ChipInfo? {
        let id = try? I2CRegisterDevice(bus: bus, address: address).readRegister(whoAmIRegister)
        return id == chipID ? chips[0] : nil
    }

    public init(bus: Bus, address: UInt8) { self.init(bus: bus, address: address, outputRate: .hz25) }

    /// Defaults: 25 Hz with the ODR/20 filter, which the datasheet gives the lowest noise
    /// (0.0075 hPa RMS, table 3) while still following a hand being raised.
    public init(bus: Bus, address: UInt8 = 0x5D, outputRate: OutputRate = .hz25, lowPassFilter: LowPassFilter = .odrOver20) {
        device = I2CRegisterDevice(bus: bus, address: address)
        self.outputRate = outputRate
        self.lowPassFilter = lowPassFilter
    }

    /// Identifies, resets and configures the chip.
    public mutating func start() throws(DeviceError) {
        started = false
        try device.expectIdentity(chip: "LPS22HB", register: Self.whoAmIRegister, value: Self.chipID)
        // SWRESET with IF_ADD_INC kept set: the driver's bursts rely on auto-increment (section 9.7).
        try device.write(Self.control2, 0x14)
        var resetting = true
        for _ in 0..<50 where resetting {
            resetting = try device.read(Self.control2) & 0x04 != 0
        }
        guard !resetting else { throw .bus(.timeout(address: device.address)) }
        // BDU (bit 1): the output registers hold one conversion until all of it has been read.
        try device.write(Self.control1, outputRate.rawValue << 4 | lowPassFilter.rawValue << 2 | 0x02)
        // Reading LPFP_RES restarts the filter from the next sample rather than from zero (section 9.25).
        _ = try device.read(Self.filterResetRegister)
        started = true
    }

    /// The newest conversion, or nil when STATUS says none has arrived since the last read.
    public mutating func read(at time: MonotonicNanoseconds) throws(DeviceError) -> PressureSample? {
        guard started else { throw .invalidCalibration(chip: "LPS22HB") }
        try device.read(Self.statusRegister, into: buffer.slice(6))
        guard buffer[0] & 0x01 != 0 else { return nil }  // P_DA
        let rawPressure = Int32(bitPattern: UInt32(buffer[3]) << 24 | UInt32(buffer[2]) << 16 | UInt32(buffer[1]) << 8) >> 8
        let rawTemperature = Int16(bitPattern: UInt16(buffer[5]) << 8 | UInt16(buffer[4]))
        // hPa = counts / 4096, so pascal = counts * 100 / 4096 (exact in a Double).
        let pressure = Double(rawPressure) * 100 / 4096
        let temperature = Double(rawTemperature) / 100
        // Operating range 260..1260 hPa, -40..85 degC (table 3), with a margin.
        guard pressure > 20_000, pressure < 130_000, temperature > -45, temperature < 90 else {
            throw .implausibleReading(chip: "LPS22HB")
        }
        return PressureSample(time: time, pressure: pressure, temperature: temperature)
    }
}
