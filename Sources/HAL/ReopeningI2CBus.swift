/// An I2C bus that may not be there yet: i2c-dev loaded late, an overlay applied after boot, a
/// USB adapter plugged in later. It is opened at first use and, while it cannot be, every
/// transfer fails with the reason (no such bus, permission denied), which the sensor's slot
/// reports and retries with back-off; the sensors on it start as soon as it appears.
public final class ReopeningI2CBus: I2CBus {
    public let path: String
    private var bus: LinuxI2CBus?
    /// Why the bus could not be opened last time.
    public private(set) var openingError: I2CError?

    public init(path: String) {
        self.path = path
        _ = opened()
    }

    public func transfer(address: UInt8, write: UnsafeRawBufferPointer, read: UnsafeMutableRawBufferPointer) throws(I2CError) {
        guard let bus = opened() else { throw openingError ?? .noSuchBus(path: path) }
        try bus.transfer(address: address, write: write, read: read)
    }

    /// The open bus, opening it when it is not yet.
    private func opened() -> LinuxI2CBus? {
        if let bus { return bus }
        do {
            bus = try LinuxI2CBus(path: path)
            openingError = nil
        } catch {
            openingError = error
        }
        return bus
    }
}
