import LodestoneCore
import LodestoneDevices
import LodestoneDomain

/// A chip driver as the sampling loop sees it: start it (identify and configure), then read it.
public protocol SampledSensor: SendableMetatype {
    associatedtype Sample
    /// Identifies and configures the chip; called again to re-initialise after failures.
    mutating func start() throws(DeviceError)
    /// The newest reading, or nil when the chip has nothing new yet.
    mutating func read(at time: MonotonicNanoseconds) throws(DeviceError) -> Sample?
    /// Sets the chip's own output rate where it can; false when it keeps its configured rate.
    mutating func configureRate(_ hz: Double) throws(DeviceError) -> Bool
}

extension SampledSensor {
    public mutating func configureRate(_ hz: Double) throws(DeviceError) -> Bool { false }
}

/// One sensor in the loop with its health: a chip that fails is marked degraded after a few
/// consecutive errors and re-initialised with exponential back-off (0.1 s doubling to 1 s: a chip that comes back
/// is in use again within a second, and one failed transfer a second costs the bus nothing),
/// while the other sensors keep running. Nothing here allocates once made.
///
/// A class: the pipeline reads a slot's health and problem at every sample, and a struct
/// holding a driver (references and all) read out of the pipeline's optional property is copied
/// whole each time (retains and releases included), where a reference reads one field.
public final class SensorSlot<Sensor: SampledSensor> {
    public private(set) var sensor: Sensor
    public private(set) var health: SensorHealth = .degraded
    public private(set) var errors = 0
    public private(set) var recoveries = 0
    public private(set) var lastError: DeviceError?
    private var consecutiveFailures = 0
    private var needsStart = true
    private var retryAt: MonotonicNanoseconds = 0
    private var backoff: UInt64 = SensorSlot.initialBackoff

    static var initialBackoff: UInt64 { 100_000_000 }
    static var maximumBackoff: UInt64 { 1_000_000_000 }
    /// Read errors in a row before the sensor counts as degraded (one glitch on a long cable is not a failure).
    static var failuresBeforeDegraded: Int { 3 }

    public init(_ sensor: Sensor) { self.sensor = sensor }

    /// Reads the sensor if it is up, or tries to bring it up when its back-off has elapsed.
    public func sample(at now: MonotonicNanoseconds) -> Sensor.Sample? {
        if needsStart {
            guard now >= retryAt else { return nil }
            do {
                try sensor.start()
                needsStart = false
                if health == .degraded && errors > 0 { recoveries += 1 }
                health = .ok
                consecutiveFailures = 0
                backoff = Self.initialBackoff
            } catch {
                fail(error, at: now, restart: true)
                return nil
            }
        }
        do {
            let sample = try sensor.read(at: now)
            consecutiveFailures = 0
            return sample
        } catch {
            fail(error, at: now, restart: false)
            return nil
        }
    }

    /// Asks the chip to convert at `hz`; a failure counts like a failed read.
    public func configureRate(_ hz: Double, at now: MonotonicNanoseconds) {
        guard !needsStart else { return }
        do { _ = try sensor.configureRate(hz) } catch { fail(error, at: now, restart: false) }
    }

    private func fail(_ error: DeviceError, at now: MonotonicNanoseconds, restart: Bool) {
        errors += 1
        consecutiveFailures += 1
        lastError = error
        if restart || consecutiveFailures >= Self.failuresBeforeDegraded {
            health = .degraded
            needsStart = true
            retryAt = now + backoff
            backoff = min(backoff * 2, Self.maximumBackoff)
        }
    }
}
