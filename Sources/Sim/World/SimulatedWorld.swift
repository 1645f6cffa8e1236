import Glibc
import LodestoneCore
import Synchronization

/// The simulated device moving through a scenario. It integrates the scenario's motion in fixed
/// 10 ms steps from time 0, so a run is the same whatever the pattern of reads, and it presents
/// the result to the emulated chips (as `SensorTruth`) and to the simulated GPS.
///
/// World time runs `speed` times faster than the monotonic clock, so long trips can be run
/// in minutes. Reads come from the sampling thread and the GPS thread; a mutex held only for
/// the few steps of integration keeps them consistent.
public final class SimulatedWorld: SensorTruthSource, @unchecked Sendable {
    public let scenario: Scenario
    public let speed: Double
    public let faults: FaultPlan
    private let clock: any MonotonicClock
    private let startTime: MonotonicNanoseconds
    private let integration: Mutex<Integration>

    static let step = 0.01
    static let earthRadius = 6_371_000.0
    static let gravity = 9.80665

    struct Integration {
        var state: WorldState
        /// Steps taken; time is steps x step, so it never accumulates rounding error.
        var steps = 0
    }

    /// - Parameters:
    ///   - speed: world seconds per second of `clock`; 1 when the clock itself runs at the
    ///     trip's pace (`SimulationClock`), so the device's own time is the world's.
    public init(scenario: Scenario, clock: any MonotonicClock, speed: Double = 1, faults: FaultPlan = FaultPlan()) {
        self.scenario = scenario
        self.faults = faults
        self.speed = speed
        self.clock = clock
        startTime = clock.now()
        let initial = Self.state(
            scenario: scenario, time: 0, latitude: scenario.startLatitude,
            longitude: scenario.startLongitude, altitude: scenario.startAltitude,
            previous: nil, faults: faults)
        integration = Mutex(Integration(state: initial))
    }

    /// Scenario time now, seconds.
    public var elapsed: Double {
        Double(clock.now() &- startTime) / 1e9 * speed
    }

    /// The clock's reading at scenario time `t` (when something in the world happened, as a
    /// kernel would have stamped it).
    public func clockTime(at t: Double) -> MonotonicNanoseconds {
        guard t.isFinite, t > 0 else { return startTime }
        return startTime &+ MonotonicNanoseconds(min(t / speed, 1e9) * 1e9)
    }

    /// The world at the current instant of the clock.
    public func current() -> WorldState { state(at: elapsed) }

    public func currentTruth() -> SensorTruth { current().truth }

    /// The world at scenario time `t`; time only moves forward (an earlier `t` returns the latest state).
    public func state(at t: Double) -> WorldState {
        integration.withLock { integration in
            while Double(integration.steps + 1) * Self.step <= t + 1e-9 {
                let previous = integration.state
                integration.steps += 1
                let next = Double(integration.steps) * Self.step
                let m = scenario.motion(at: next)
                let north = m.speed * cos(Angle.radians(m.course))
                let east = m.speed * sin(Angle.radians(m.course))
                let latitude = previous.latitude + Angle.degrees(north * Self.step / Self.earthRadius)
                let longitude =
                    previous.longitude
                    + Angle.degrees(
                        east * Self.step / (Self.earthRadius * cos(Angle.radians(previous.latitude))))
                integration.state = Self.state(
                    scenario: scenario, time: next, latitude: latitude,
                    longitude: longitude,
                    altitude: previous.altitude + m.climbRate * Self.step,
                    previous: previous, faults: faults)
            }
            return integration.state
        }
    }

    static func state(
        scenario: Scenario, time t: Double, latitude: Double, longitude: Double,
        altitude: Double, previous: WorldState?, faults: FaultPlan = FaultPlan()
    ) -> WorldState {
        let m = scenario.motion(at: t)
        let before = scenario.motion(at: t - step)
        // Acceleration in the navigation frame from the change of velocity, plus footsteps or swell.
        let vNow = velocity(m), vBefore = velocity(before)
        let accel = Vector3(
            (vNow.x - vBefore.x) / step + m.extraAcceleration.north,
            (vNow.y - vBefore.y) / step + m.extraAcceleration.east,
            (vNow.z - vBefore.z) / step + m.extraAcceleration.down)
        let specificForceNav = accel - Vector3(0, 0, gravity)
        let field = Vector3(scenario.earthField.north, scenario.earthField.east, scenario.earthField.down)
        let seaLevel = scenario.seaLevelPressure(at: t)
        let temperature = scenario.temperature(at: t, altitude: altitude)
        let truth = SensorTruth(
            specificForce: toBody(specificForceNav, m),
            rotationRate: bodyRates(m, before),
            magneticField: toBody(field, m) + faults.magnetField(at: t),
            pressure: seaLevel * pow(1 - 2.25577e-5 * altitude, 5.25588),
            temperature: temperature,
            humidity: scenario.name == .boat ? 75 : 55)
        return WorldState(
            time: t, latitude: latitude, longitude: longitude, altitude: altitude,
            speed: m.speed, course: m.course, climbRate: m.climbRate,
            roll: m.roll, pitch: m.pitch, yaw: m.yaw, truth: truth, seaLevelPressure: seaLevel)
    }

    static func velocity(_ m: Motion) -> Vector3 {
        Vector3(m.speed * cos(Angle.radians(m.course)), m.speed * sin(Angle.radians(m.course)), -m.climbRate)
    }

    /// Rotates a navigation-frame (north, east, down) vector into the body frame: the
    /// transpose of the yaw-pitch-roll rotation.
    static func toBody(_ v: Vector3, _ m: Motion) -> Vector3 {
        let (sr, cr) = (sin(Angle.radians(m.roll)), cos(Angle.radians(m.roll)))
        let (sp, cp) = (sin(Angle.radians(m.pitch)), cos(Angle.radians(m.pitch)))
        let (sy, cy) = (sin(Angle.radians(m.yaw)), cos(Angle.radians(m.yaw)))
        let x = cp * cy * v.x + cp * sy * v.y - sp * v.z
        let y = (sr * sp * cy - cr * sy) * v.x + (sr * sp * sy + cr * cy) * v.y + sr * cp * v.z
        let z = (cr * sp * cy + sr * sy) * v.x + (cr * sp * sy - sr * cy) * v.y + cr * cp * v.z
        return Vector3(x, y, z)
    }

    /// Body angular rates from the change in Euler angles over one step.
    static func bodyRates(_ m: Motion, _ before: Motion) -> Vector3 {
        let rollRate = Angle.radians(Angle.signed(m.roll - before.roll)) / step
        let pitchRate = Angle.radians(Angle.signed(m.pitch - before.pitch)) / step
        let yawRate = Angle.radians(Angle.signed(m.yaw - before.yaw)) / step
        let (sr, cr) = (sin(Angle.radians(m.roll)), cos(Angle.radians(m.roll)))
        let (sp, cp) = (sin(Angle.radians(m.pitch)), cos(Angle.radians(m.pitch)))
        return Vector3(
            rollRate - yawRate * sp,
            pitchRate * cr + yawRate * cp * sr,
            -pitchRate * sr + yawRate * cp * cr)
    }
}
