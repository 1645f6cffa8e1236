import LodestoneCore
import LodestoneDomain

/// The attitude half of the sampling thread: one filter update per IMU sample (the gyro's
/// bias taken out, gravity with the turn's and the speeding up's share taken out, the newest
/// magnetometer reading), and at each processing run the attitude, the rate of turn and the
/// compass's figures written into the state to publish.
///
/// A plain value the pipeline keeps: no allocation, nothing shared with another thread.
struct AttitudeStep {
    private var filter = AttitudeFilter()
    private var gyroBias = GyroBiasEstimator()
    private var turnRate = TurnRate()
    private var compass = CompassFigures()
    /// The configured IMU period, seconds: the interval of the first sample.
    private let imuPeriod: Double
    private var lastIMUTime: MonotonicNanoseconds = 0
    private var lastProcess: MonotonicNanoseconds = 0
    /// The magnetometer calibration the heading was last computed with.
    private(set) var appliedCalibration: MagnetometerCalibration?
    /// Whether the magnetometer has ever given a reading (the heading exists from then on).
    private var hadMagneticField = false
    /// The accelerometer's latest reading with the turn's and the speeding up's share taken
    /// out (`gravityAlone`): gravity, as a calibration pairs it with the field. A boat's swing
    /// at 2 m/s and 3 deg/s feels 0.1 m/s^2 towards the circle's centre, a steady 0.6 degree
    /// lean of "down" that would otherwise move the fitted offset by half a microtesla.
    private(set) var lastGravity: Vector3?

    init(imuRateHz: Double) {
        imuPeriod = 1 / imuRateHz
    }

    /// A magnetometer reading came, corrected with `calibration`.
    @inline(__always)
    mutating func noteField(calibratedWith calibration: MagnetometerCalibration?) {
        if calibration != appliedCalibration {
            // A new calibration moves the heading by up to tens of degrees at once: the
            // filter takes it up within a second instead of rejecting it as a disturbance.
            if appliedCalibration != nil || calibration != nil { filter.relearnHeading() }
            appliedCalibration = calibration
        }
        hadMagneticField = true
    }

    /// One IMU sample (body axes) against what `state` holds of the field and the fix;
    /// `alongAcceleration` is the receiver's along-course acceleration, m/s^2.
    @inline(__always)
    mutating func update(_ sample: ImuSample, in state: NavigationState, alongAcceleration: Double) {
        // The interval from the samples' own stamps, whatever rate adaptive sampling has set;
        // the configured period at start. After a gap longer than any sampling rate gives (the
        // chip stopped answering) the rotation in between is unknown: the filter does not
        // pretend to have integrated it.
        var interval = imuPeriod
        if lastIMUTime != 0, sample.time > lastIMUTime {
            interval = Double(sample.time - lastIMUTime) / 1e9
        }
        lastIMUTime = sample.time
        guard interval <= Self.longestIMUInterval else { turnRate.reset(); return }
        let learned = gyroBias.bias
        let rate = gyroBias.update(sample.rotationRate, interval: interval)
        filter.biasRemovedUpstream(gyroBias.bias - learned)
        // A field bent by nearby iron would turn the heading: carry it on the gyro instead.
        let field = state.magneticInterference ? nil : state.magnetic?.field
        let gravity = gravityAlone(sample, rate: rate, in: state, alongAcceleration: alongAcceleration)
        lastGravity = gravity
        filter.update(rotationRate: rate, specificForce: gravity, field: field, interval: interval)
        turnRate.update(bodyRate: rate, orientation: filter.orientation, interval: interval)
    }

    /// The accelerometer's reading less the turn's and the speeding up's share (`GravityAlone`),
    /// while the receiver's fix is fresh and the body moves.
    @inline(__always)
    private func gravityAlone(_ sample: ImuSample, rate: Vector3, in state: NavigationState, alongAcceleration: Double) -> Vector3 {
        let fix = state.fix
        guard fix.hasPosition, fix.speed.isFinite, fix.course.isFinite, fix.speed > 0.5, fix.speed < 200,
            sample.time > fix.received, sample.time - fix.received < 3_000_000_000
        else { return sample.acceleration }
        // The filter's frame points at magnetic north; the receiver's course is true.
        let trusted = appliedCalibration != nil && state.magnetic != nil && !state.magneticInterference
        return GravityAlone.estimate(
            acceleration: sample.acceleration, rate: rate, orientation: filter.orientation, speed: fix.speed,
            alongAcceleration: alongAcceleration,
            magneticCourse: trusted ? fix.course - (state.declination ?? 0) : nil)
    }

    /// Writes the attitude, the rate of turn and the compass's figures into `state` at `now`,
    /// with Earth's field where the device is (`expected`, nil before the model has a position).
    @inline(__always)
    mutating func publish(into state: inout NavigationState, expected: ExpectedField?, at now: MonotonicNanoseconds) {
        let interval = lastProcess == 0 ? 0 : Double(now &- lastProcess) / 1e9
        lastProcess = now
        if state.imu != nil {
            // Without a magnetometer the filter's yaw is only the gyro's drift from where it
            // started: never published as a heading.
            state.attitude = TiltCompensatedHeading(
                roll: filter.roll, pitch: filter.pitch,
                magneticHeading: hadMagneticField ? filter.heading : .nan)
            state.rateOfTurn = turnRate.degreesPerSecond
            state.headingSettling = filter.isSettlingHeading
        }
        // With the calibration the field was corrected with, not the newest stored: until the
        // magnetometer's next reading takes a new one up, the heading is still the old one's.
        compass.update(
            &state, expected: expected, calibration: appliedCalibration, orientation: filter.orientation,
            magnetometerUsed: filter.magnetometerUsed, magneticErrorSine: filter.magneticErrorSine,
            interval: interval, now: now)
    }

    /// The slowest IMU rate adaptive sampling sets is 10 Hz; beyond this an interval is a gap, seconds.
    static var longestIMUInterval: Double { 0.25 }
}
