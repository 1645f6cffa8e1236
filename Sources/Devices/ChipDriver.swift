import LodestoneCore
import LodestoneHAL

/// What a sensor measures, as a board file names its role.
public enum SensorKind: String, Sendable, CaseIterable {
    case imu, magnetometer, barometer
}

/// The facts about a chip that board files and `lodestone probe` need.
public struct ChipInfo: Sendable, Equatable {
    /// The chip's name in board files, lower case ("bmp280").
    public let name: String
    /// The chip's name as printed on its datasheet ("BMP280").
    public let displayName: String
    public let kind: SensorKind
    /// The addresses its address pin can select, the default first.
    public let addresses: [UInt8]

    public init(name: String, displayName: String, kind: SensorKind, addresses: [UInt8]) {
        self.name = name
        self.displayName = displayName
        self.kind = kind
        self.addresses = addresses
    }
}

/// A chip driver: generic over the I2C bus, SI units out, typed errors, no allocation after
/// `init`. The runtime starts it (identify and configure; called again to re-initialise after
/// failures) and then reads it at its task's rate.
public protocol ChipDriver<Sample> {
    associatedtype Bus: I2CBus
    associatedtype Sample
    /// Every chip (or chip family) this driver serves; a family's variants share one driver.
    static var chips: [ChipInfo] { get }
    /// A driver with the datasheet defaults this project recommends for a handheld instrument.
    init(bus: Bus, address: UInt8)
    /// Identifies, resets and configures the chip.
    mutating func start() throws(DeviceError)
    /// The newest reading, or nil when the chip has nothing new yet.
    mutating func read(at time: MonotonicNanoseconds) throws(DeviceError) -> Sample?
    /// Which of `chips` answers at `address`, or nil: reads only identification registers
    /// (or a read sequence that changes nothing), so probing never disturbs a running chip.
    static func identify(bus: Bus, address: UInt8) -> ChipInfo?
    /// See the extension: chips that can follow the sampling rate implement it.
    mutating func configureRate(_ hz: Double) throws(DeviceError) -> Bool
}

extension ChipDriver {
    /// Sets the chip's own output rate to at least `hz`, so that sampling slower also lets the
    /// chip convert less often and draw less current. Returns false for chips that keep their
    /// configured rate (they are then simply read less often).
    public mutating func configureRate(_ hz: Double) throws(DeviceError) -> Bool { false }
}
