import LodestoneDevices
import LodestoneDomain
import Synchronization

/// Why each I2C sensor last failed, handed from the sampling thread (which owns the chips) to
/// the output side, which says it in the log, `status`, DEVICES, HEALTH and the health page.
/// The sampling thread writes only when a sensor's error count or health changes (at most
/// once per retry, a second apart at most back-off); nothing here allocates.
public final class SensorProblems: Sendable {
    public enum Sensor: Int, Sendable, CaseIterable { case imu, magnetometer, barometer }

    private let errors = Mutex<(DeviceError?, DeviceError?, DeviceError?)>((nil, nil, nil))
    private let changes = Atomic<UInt64>(0)

    /// How many times a problem was set: the output side, which asks 50 times a second,
    /// looks again only when it moved.
    public var changeCount: UInt64 { changes.load(ordering: .acquiring) }

    public init() {}

    /// The reason `sensor` is failing, or nil when it works (or was never tried).
    public func problem(_ sensor: Sensor) -> DeviceError? {
        errors.withLock { all in
            switch sensor {
            case .imu: return all.0
            case .magnetometer: return all.1
            case .barometer: return all.2
            }
        }
    }

    func set(_ sensor: Sensor, _ error: DeviceError?) {
        errors.withLock { all in
            switch sensor {
            case .imu: all.0 = error
            case .magnetometer: all.1 = error
            case .barometer: all.2 = error
            }
        }
        changes.add(1, ordering: .releasing)
    }
}

/// What a slot last told `SensorProblems`, so a change is published once.
struct PublishedProblem {
    private var errors = -1
    private var health = SensorHealthMark.unknown

    enum SensorHealthMark { case unknown, ok, failing }

    /// Publishes `slot`'s reason when its error count or health moved since the last call.
    mutating func update<S>(_ slot: SensorSlot<S>?, as sensor: SensorProblems.Sensor, into problems: SensorProblems) {
        guard let slot else { return }
        let mark: SensorHealthMark = slot.health == .ok ? .ok : .failing
        guard slot.errors != errors || mark != health else { return }
        errors = slot.errors
        health = mark
        problems.set(sensor, mark == .ok ? nil : slot.lastError)
    }
}
