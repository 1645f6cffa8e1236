import LodestoneCore
import LodestoneHAL

/// AKM AK8963 three-axis magnetometer (datasheet MS1356-E), the die inside the MPU-9250 that
/// appears at 0x0C once the MPU-9250's I2C bypass is on.
///
/// Reads the factory sensitivity adjustment from fuse ROM, then runs in continuous
/// measurement mode. A read takes ST1, the six data bytes and ST2 in one burst: ST1 says
/// whether the data are new, and reading ST2 tells the chip the read is over (section 6.4.3.2;
/// until then it holds back new results). Output in microtesla in the AK8963's own axes, which
/// inside an MPU-9250 are not the accelerometer's (MPU-9250 datasheet section 9.1).
public struct AK8963<Bus: I2CBus>: ChipDriver {
    /// Output bit setting (CNTL1 BIT, section 8.3.6) and its sensitivity (section 3.4).
    public enum Resolution: UInt8, Sendable {
        case bits14 = 0, bits16 = 1
        public var microteslaPerCount: Double { self == .bits14 ? 0.6 : 0.15 }
    }
    /// Continuous measurement modes (CNTL1 MODE[3:0], section 6.4.3).
    public enum OutputRate: UInt8, Sendable { case hz8 = 0b0010, hz100 = 0b0110 }

    public static var chipID: UInt8 { 0x48 }
    static var wia: UInt8 { 0x00 }
    static var st1: UInt8 { 0x02 }
    static var control1: UInt8 { 0x0A }
    static var control2: UInt8 { 0x0B }
    static var asaX: UInt8 { 0x10 }
    static var powerDown: UInt8 { 0x00 }
    static var fuseROMAccess: UInt8 { 0x0F }

    public let device: I2CRegisterDevice<Bus>
    public var resolution: Resolution
    public var outputRate: OutputRate
    /// Per-axis factor from the fuse ROM (section 8.3.11): (ASA - 128) / 256 + 1.
    public private(set) var sensitivityAdjustment = Vector3(1, 1, 1)
    private let buffer = RegisterBuffer(count: 8)

    public static var chips: [ChipInfo] {
        [ChipInfo(name: "ak8963", displayName: "AK8963", kind: .magnetometer, addresses: [0x0C, 0x0D, 0x0E, 0x0F])]
    }

    /// WIA is a common byte (0x48 is also an "H"), so ST1 must agree too: only DRDY and DOR
    /// are ever set. Reading ST1 changes nothing; reading data or ST2 would.
    public static func identify(bus: Bus, address: UInt8) -> ChipInfo? {
        let device = I2CRegisterDevice(bus: bus, address: address)
        guard (try? device.readRegister(wia)) == chipID,
            let status = try? device.readRegister(st1), status & 0xFC == 0
        else { return nil }
        return chips[0]
    }

    public init(bus: Bus, address: UInt8) { self.init(bus: bus, address: address, resolution: .bits16) }

    /// Defaults: 16-bit output (0.15 uT per count), continuous mode 2 at 100 Hz.
    public init(bus: Bus, address: UInt8 = 0x0C, resolution: Resolution = .bits16, outputRate: OutputRate = .hz100) {
        device = I2CRegisterDevice(bus: bus, address: address)
        self.resolution = resolution
        self.outputRate = outputRate
    }

    public mutating func start() throws(DeviceError) {
        try device.expectIdentity(chip: "AK8963", register: Self.wia, value: Self.chipID)
        try device.write(Self.control2, 0x01)  // SRST: back to power-down
        try device.write(Self.control1, Self.powerDown)
        try settle()
        try device.write(Self.control1, Self.fuseROMAccess)
        try device.read(Self.asaX, into: buffer.slice(3))
        let asa = (buffer[0], buffer[1], buffer[2])
        // A floating bus reads all ones; a chip not in fuse-ROM mode reads zeros here.
        guard !(asa.0 == asa.1 && asa.1 == asa.2 && (asa.0 == 0x00 || asa.0 == 0xFF)) else {
            throw .invalidCalibration(chip: "AK8963")
        }
        sensitivityAdjustment = Vector3(Self.adjustment(asa.0), Self.adjustment(asa.1), Self.adjustment(asa.2))
        try device.write(Self.control1, Self.powerDown)
        try settle()
        try device.write(Self.control1, resolution.rawValue << 4 | outputRate.rawValue)
    }

    /// Hadj = H * ((ASA - 128) * 0.5 / 128 + 1), section 8.3.11.
    public static func adjustment(_ asa: UInt8) -> Double { (Double(asa) - 128) / 256 + 1 }

    /// Section 6.3 asks for 100 us in power-down before the next mode. Reading WIA takes
    /// about that long at 400 kHz, and with the next write's address bytes it is longer, so
    /// the wait needs no clock and changes nothing on the chip.
    private func settle() throws(DeviceError) {
        _ = try device.read(Self.wia)
    }

    /// The newest field, or nil when no new measurement is ready or the sensor overflowed.
    public mutating func read(at time: MonotonicNanoseconds) throws(DeviceError) -> MagneticSample? {
        try device.read(Self.st1, into: buffer.slice(8))
        guard buffer[0] & 0x01 != 0 else { return nil }
        // HOFL (ST2 bit 3): |X|+|Y|+|Z| beyond 4912 uT, the data are not correct (section 8.3.5).
        guard buffer[7] & 0x08 == 0 else { return nil }
        let scale = resolution.microteslaPerCount
        let adjust = sensitivityAdjustment
        return MagneticSample(
            time: time,
            field: Vector3(
                Double(buffer.int16LE(1)) * scale * adjust.x,
                Double(buffer.int16LE(3)) * scale * adjust.y,
                Double(buffer.int16LE(5)) * scale * adjust.z))
    }
}
