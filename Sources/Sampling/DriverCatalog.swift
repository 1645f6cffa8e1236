import LodestoneCore
import LodestoneDevices
import LodestoneHAL

/// One driver as the runtime sees it: the chips it serves, how to recognise them on a bus,
/// and how to make a running sensor of it.
public struct DriverEntry<Bus: I2CBus, Sample> {
    public let chips: [ChipInfo]
    public let identify: (Bus, UInt8) -> ChipInfo?
    public let make: (Bus, UInt8, ChipInfo) -> AnySensor<Sample>

    init<Driver: ChipDriver>(_ type: Driver.Type) where Driver.Bus == Bus, Driver.Sample == Sample {
        chips = Driver.chips
        identify = { bus, address in Driver.identify(bus: bus, address: address) }
        make = { bus, address, chip in AnySensor(Driver(bus: bus, address: address), chip: chip) }
    }
}

/// Every supported chip, by role: the one list that board files, `lodestone probe` and the
/// simulated board all read.
public enum DriverCatalog<Bus: I2CBus> {
    public static var imus: [DriverEntry<Bus, ImuSample>] {
        [DriverEntry(MPU6050<Bus>.self), DriverEntry(MPU9250<Bus>.self), DriverEntry(LSM6DS<Bus>.self)]
    }

    public static var magnetometers: [DriverEntry<Bus, MagneticSample>] {
        [
            DriverEntry(QMC5883L<Bus>.self), DriverEntry(HMC5883L<Bus>.self), DriverEntry(LIS3MDL<Bus>.self),
            DriverEntry(AK8963<Bus>.self)
        ]
    }

    public static var barometers: [DriverEntry<Bus, PressureSample>] {
        // The MS5611 has no ID register: it is identified by its PROM checksum, tried last.
        [
            DriverEntry(BMP280<Bus>.self), DriverEntry(BMP3<Bus>.self), DriverEntry(LPS22HB<Bus>.self),
            DriverEntry(MS5611<Bus>.self)
        ]
    }

    public static func imu(_ name: String, bus: Bus, address: UInt8) -> AnySensor<ImuSample>? {
        find(name, in: imus).map { $0.make(bus, address, $1) }
    }

    public static func magnetometer(_ name: String, bus: Bus, address: UInt8) -> AnySensor<MagneticSample>? {
        find(name, in: magnetometers).map { $0.make(bus, address, $1) }
    }

    public static func barometer(_ name: String, bus: Bus, address: UInt8) -> AnySensor<PressureSample>? {
        find(name, in: barometers).map { $0.make(bus, address, $1) }
    }

    static func find<Sample>(_ name: String, in entries: [DriverEntry<Bus, Sample>]) -> (DriverEntry<Bus, Sample>, ChipInfo)? {
        for entry in entries {
            if let chip = entry.chips.first(where: { $0.name == name }) { return (entry, chip) }
        }
        return nil
    }

    /// Every chip that answers on `bus` at one of its own addresses, identified by its ID
    /// registers; `skip` says which addresses to leave alone (claimed by a kernel driver).
    public static func identifyAll(on bus: Bus, skip: (UInt8) -> Bool = { _ in false }) -> [(address: UInt8, chip: ChipInfo)] {
        var candidates: [(UInt8, (Bus, UInt8) -> ChipInfo?)] = []
        for entry in imus { for chip in entry.chips { for a in chip.addresses { candidates.append((a, entry.identify)) } } }
        for entry in magnetometers { for chip in entry.chips { for a in chip.addresses { candidates.append((a, entry.identify)) } } }
        for entry in barometers { for chip in entry.chips { for a in chip.addresses { candidates.append((a, entry.identify)) } } }
        var found: [(address: UInt8, chip: ChipInfo)] = []
        var skipped = Set<UInt8>()
        for (address, identify) in candidates.sorted(by: { $0.0 < $1.0 }) {
            if skipped.contains(address) || found.contains(where: { $0.address == address }) { continue }
            if skip(address) { skipped.insert(address); continue }
            if let chip = identify(bus, address) { found.append((address, chip)) }
        }
        return found
    }
}

/// The chips a board file may name, by role; the same for every bus.
public enum SupportedChips {
    public static var all: [ChipInfo] {
        typealias Catalog = DriverCatalog<LinuxI2CBus>
        return Catalog.imus.flatMap(\.chips) + Catalog.magnetometers.flatMap(\.chips) + Catalog.barometers.flatMap(\.chips)
    }

    public static func named(_ name: String) -> ChipInfo? { all.first { $0.name == name } }

    public static func names(of kind: SensorKind) -> [String] { all.filter { $0.kind == kind }.map(\.name) }
}
