import LodestoneCore

/// The attitude and heading reference: integrates the gyroscope and corrects its drift towards
/// gravity (accelerometer) and towards magnetic north (magnetometer), a complementary filter
/// in quaternion form. Body frame x forward, y right, z down; earth frame north, east, down.
///
/// Why this shape: gyros are smooth but drift, the accelerometer knows down but is fooled by
/// every footstep, the magnetometer knows north but is fooled by every car door. The filter
/// trusts the gyro over short times and the references over long ones (`gain`), and stops
/// listening to a reference while it disagrees with the estimate by more than its rejection
/// angle (a swing of the arm, a magnet brought close). A reference that stays in disagreement
/// for `recoveryPeriod` is trusted again until it agrees, so a filter that has gone wrong (or
/// a field that has really changed, a new mounting) cannot stay wrong.
///
/// The magnetometer corrects heading only: its error is taken about the measured down
/// direction, so magnetic dip and tilt never leak into roll and pitch.
///
/// Allocation-free, no trigonometry per update (a few square roots): it runs at the IMU rate.
public struct AttitudeFilter: Sendable {
    public struct Settings: Sendable, Equatable {
        /// Trust in the references, per second (the feedback gain on the rotation error).
        public var gain: Double = 0.5
        /// A reference further than this from the filter's own estimate is ignored, degrees.
        public var accelerationRejection: Double = 10
        public var magneticRejection: Double = 10
        /// After this long mostly ignoring a reference, it is trusted again, seconds.
        public var recoveryPeriod: Double = 5
        /// At start the gain ramps down from `initialGain` over this time, so the first
        /// heading and level settle in seconds, not minutes.
        public var initialisationPeriod: Double = 3
        public var initialGain: Double = 10
        /// At rest (the force steady at gravity's strength, hardly turning, for `restTime`
        /// seconds) the accelerometer feels gravity alone: it is believed however far the
        /// estimate has wandered, with `restGain`, so the level is right again within a
        /// second or two of a figure-8 or a fall instead of after the rejection's recovery.
        /// At or below `gain` there is no rest rule (a plain complementary filter).
        public var restGain: Double = 3
        public var restTime: Double = 0.25
        /// Rad/s.
        public var restRotation: Double = 0.05
        /// Setting off from rest (a car pulling out, a boat casting off) the accelerometer
        /// feels the speeding up as a tilt: 1.5 m/s^2 reads as 9 degrees, with nothing turning.
        /// After a rest of at least `setOffRest` seconds the level is known and the gyro's bias
        /// freshly learned, so for `setOffHold` seconds the level is carried on the gyro and
        /// gravity is heard only within `setOffRejection` degrees; by then GPS has sped up and
        /// tells speeding up from tilt. A hold of zero turns it off.
        public var setOffRest: Double = 1
        public var setOffHold: Double = 10
        public var setOffRejection: Double = 2
        /// Per second squared: what is left of the gyro's bias once `GyroBiasEstimator` has
        /// had no still moment to learn it (a boat rolling from the moment it casts off) is
        /// integrated out of gravity's corrections, so it does not stand as a steady tilt of
        /// bias / gain (half a degree per second of bias is a degree of level).
        /// Zero turns it off (a plain complementary filter).
        public var integralGain: Double = 0.02
        /// The most the integral may take out, rad/s.
        public var integralLimit: Double = 0.1
        public init() {}
    }

    /// When to listen to one reference (gravity or north). Time in disagreement builds up,
    /// time in agreement wears it down nine times as fast, so brief disturbances are ridden
    /// out on the gyro while a lasting one is eventually believed. Counted in seconds, not
    /// readings, so it holds at whatever rate adaptive sampling reads the IMU.
    struct ReferenceTrust: Sendable {
        let limitSquared: Double
        /// Seconds.
        let period: Double
        var disagreement = 0.0
        var recovering = false

        init(rejectionDegrees: Double, seconds: Double) {
            let limit = AttitudeFilter.sine(degrees: rejectionDegrees)
            limitSquared = limit * limit
            period = seconds
        }

        /// Whether to use a reference whose error has the squared sine `errorSquared` this update.
        @inline(__always)
        mutating func use(errorSquared: Double, initialising: Bool, interval: Double) -> Bool {
            // Recovery starts when disagreement outgrows the period and lasts until it has worn away.
            if initialising || errorSquared <= limitSquared {
                if disagreement > 0 {
                    disagreement -= 9 * interval
                    recovering = recovering && disagreement > 0
                    if disagreement < 0 { disagreement = 0 }
                }
                return true
            }
            disagreement += interval
            if disagreement > period {
                disagreement = period
                recovering = true
            }
            return recovering
        }
    }

    public let settings: Settings
    public private(set) var orientation = Quaternion.identity
    /// Whether each reference was used by the last update (false while rejected or absent).
    public private(set) var accelerometerUsed = false
    public private(set) var magnetometerUsed = false
    /// The angle between each reference and the estimate in the last update, as its sine
    /// (kept squared: the comparison needs no square root).
    private var accelerationErrorSquared = 0.0
    private var magneticErrorSquared = 0.0
    public var accelerationErrorSine: Double { min(max(accelerationErrorSquared, 0).squareRoot(), 1) }
    public var magneticErrorSine: Double { min(max(magneticErrorSquared, 0).squareRoot(), 1) }
    private var elapsed = 0.0
    /// How fast the start-up gain falls, per second of data; zero once initialised.
    private let gainFall: Double
    private var initialising = true
    private var gravityTrust: ReferenceTrust
    private var northTrust: ReferenceTrust
    /// Gravity's strength in the accelerometer's units, learned slowly from every reading.
    private var gravityStrength = Double.nan
    private var restingFor = 0.0
    /// Seconds at rest with gravity where the estimate has it, and seconds left of the
    /// set-off hold (see `Settings.setOffHold`).
    private var settledFor = 0.0
    private let restRotationSquared: Double
    private var setOffLeft = 0.0
    private let setOffLimitSquared: Double
    /// Seconds left of believing the magnetometer at once after `relearnHeading`.
    private var headingRelearnLeft = 0.0
    /// Seconds since the last relearn began.
    private var sinceRelearn = Double.infinity
    /// The gyro bias the corrections have integrated, rad/s (added to the rate).
    public private(set) var residualBias = Vector3.zero
    /// Whether the device has been at rest long enough for the accelerometer to be gravity alone.
    public var isResting: Bool { restingFor >= settings.restTime }
    /// Still taking up its heading: initialising, relearning it after a new calibration, or,
    /// for a few seconds after that, still more than 2 degrees from the field's (the heading
    /// then slides by degrees a second towards it; a heading sent meanwhile would be a moving
    /// target to an autopilot).
    public var isSettlingHeading: Bool {
        initialising || headingRelearnLeft > 0 || (sinceRelearn < Self.settleTime && magneticErrorSquared > Self.settledErrorSquared)
    }

    /// Seconds after a relearn within which the heading waits to be within 2 degrees.
    static var settleTime: Double { 6 }
    static let settledErrorSquared = sine(degrees: 2) * sine(degrees: 2)

    public init(settings: Settings = Settings()) {
        self.settings = settings
        gainFall = (settings.initialGain - settings.gain) / max(settings.initialisationPeriod, 1e-9)
        gravityTrust = ReferenceTrust(rejectionDegrees: settings.accelerationRejection, seconds: settings.recoveryPeriod)
        northTrust = ReferenceTrust(rejectionDegrees: settings.magneticRejection, seconds: settings.recoveryPeriod)
        let setOffLimit = Self.sine(degrees: settings.setOffRejection)
        setOffLimitSquared = setOffLimit * setOffLimit
        restRotationSquared = settings.restRotation * settings.restRotation
    }

    /// Whether the level is being carried on the gyro through a set-off from rest.
    public var isHoldingThroughSetOff: Bool { setOffLeft > 0 }

    /// - Parameters:
    ///   - rotationRate: gyroscope, rad/s, with any bias already removed.
    ///   - specificForce: accelerometer, any unit (reads (0, 0, -g) level and still).
    ///   - field: magnetometer, any unit, calibrated; nil when there is no new reading.
    ///   - interval: seconds since the previous update.
    @inlinable
    public mutating func update(rotationRate: Vector3, specificForce: Vector3, field: Vector3?, interval: Double) {
        step(interval: interval, rotationRate: rotationRate, specificForce: specificForce, field: field ?? .zero, hasField: field != nil)
    }

    /// The update itself, with the field as a value and a flag (an optional reading would be
    /// handed over in general registers and unpacked on every call), and the interval first
    /// (so it comes in a register, not on the stack).
    @usableFromInline
    mutating func step(interval: Double, rotationRate: Vector3, specificForce: Vector3, field: Vector3, hasField: Bool) {
        guard interval > 0, interval < 1 else { return }  // also false for NaN
        sinceRelearn += interval
        var gain = settings.gain
        if initialising {
            elapsed += interval
            initialising = elapsed < settings.initialisationPeriod
            if initialising { gain = settings.initialGain - gainFall * elapsed }
        }

        // Where the filter thinks "up" and "east" are, in body axes.
        let q = orientation
        let up = Self.up(of: q)
        var turn = rotationRate

        var usedGravity = false
        let forceLength = specificForce.length
        if forceLength > 0, forceLength.isFinite {
            noteRest(forceLength: forceLength, rotationRate: rotationRate, interval: interval)
            let measured = specificForce * (1 / forceLength)
            let (error, errorSquared) = Self.rotationError(from: measured, to: up)
            accelerationErrorSquared = errorSquared
            let trusted = gravityTrust.use(errorSquared: accelerationErrorSquared, initialising: initialising, interval: interval)
            let heard = noteSetOff(interval: interval)
            if isResting && settings.restGain > settings.gain && heard {
                // Gravity alone: believed at once and firmly, whatever the estimate says.
                turn = turn + error * max(gain, settings.restGain)
                usedGravity = true
                // Once the level has come round, what still pulls at it is the gyro's bias:
                // learned in a second or two (the rest gain's critically damped integral), so
                // the gyro can carry the level alone when the rest ends (see `setOffHold`).
                if !initialising, settings.integralGain > 0, accelerationErrorSquared <= setOffLimitSquared {
                    learnBias(error, gain: settings.restGain * settings.restGain / 4, interval: interval)
                }
            } else if trusted && heard {
                turn = turn + error * gain
                usedGravity = true
                // Only gravity agreeing within the rejection angle teaches the integral: a
                // reference being believed again after a long disagreement says nothing of bias.
                if !initialising, settings.integralGain > 0, accelerationErrorSquared <= gravityTrust.limitSquared {
                    learnBias(error, gain: settings.integralGain, interval: interval)
                }
            }
        }

        var usedNorth = false
        if hasField {
            // Measured east: the estimated down x field, horizontal whatever the dip. Its error
            // against the estimated east is then a turn about the vertical alone: heading,
            // never roll or pitch.
            let measuredEast = field.cross(up)
            let eastLength = measuredEast.length
            if eastLength > 0, eastLength.isFinite {
                let east = Self.east(of: q)
                let (error, errorSquared) = Self.rotationError(from: measuredEast * (1 / eastLength), to: east)
                magneticErrorSquared = errorSquared
                let relearning = headingRelearnLeft > 0
                if relearning {
                    // Believed at once and firmly: the field itself has been corrected anew.
                    headingRelearnLeft -= interval
                    turn = turn + error * max(gain, settings.initialGain)
                    usedNorth = true
                } else if northTrust.use(errorSquared: magneticErrorSquared, initialising: initialising, interval: interval) {
                    turn = turn + error * gain
                    usedNorth = true
                }
            }
        }

        (accelerometerUsed, magnetometerUsed) = (usedGravity, usedNorth)

        // q' = q + (dt / 2) q (0, rate), then back to unit length; the half step is taken into
        // the rate first (three products instead of four).
        let r = (turn + residualBias) * (interval / 2)
        let next = Quaternion(
            w: q.w - q.x * r.x - q.y * r.y - q.z * r.z,
            x: q.x + q.w * r.x + q.y * r.z - q.z * r.y,
            y: q.y + q.w * r.y - q.x * r.z + q.z * r.x,
            z: q.z + q.w * r.z + q.x * r.y - q.y * r.x)
        // Back to unit length. The step is at right angles to a unit q, so its length squared
        // is 1 + |r|^2, never below 1: only a NaN or infinite rate makes it unusable, and then
        // the filter starts again level.
        let lengthSquared = next.w * next.w + next.x * next.x + next.y * next.y + next.z * next.z
        if lengthSquared < .infinity {
            let scale = 1 / lengthSquared.squareRoot()
            orientation = Quaternion(w: next.w * scale, x: next.x * scale, y: next.y * scale, z: next.z * scale)
        } else {
            orientation = .identity
        }
    }

    /// Learns gravity's strength (slowly, while hardly turning) and how long the device has
    /// been at rest: the force within 2% of that strength and the rotation below `restRotation`.
    @inline(__always)
    private mutating func noteRest(forceLength: Double, rotationRate: Vector3, interval: Double) {
        let turning = rotationRate.dot(rotationRate) > restRotationSquared
        // Learned while hardly turning (a turn's pull is no part of gravity), from the first such reading.
        if !turning {
            gravityStrength =
                gravityStrength.isNaN ? forceLength : gravityStrength + (forceLength - gravityStrength) * min(1, interval / Self.gravityLearningTime)
        }
        let steady = abs(forceLength - gravityStrength) < 0.02 * gravityStrength
        restingFor = turning || !steady ? 0 : restingFor + interval
    }

    /// The rates fed in have had `change` more bias taken out (a `GyroBiasEstimator` ahead of
    /// the filter learned it). Where gravity has already taught the integral that bias (the
    /// axes across the vertical), it is handed over, not taken out twice; and whatever the
    /// estimator learns there that is not bias (a slow real turn mistaken for stillness) is
    /// undone the same way. Along the vertical, gravity teaches nothing: the estimator's.
    public mutating func biasRemovedUpstream(_ change: Vector3) {
        guard change != .zero, !initialising, settings.integralGain > 0 else { return }
        let up = estimatedUp
        learnBias(change - up * up.dot(change), gain: 1, interval: 1)
    }

    /// Where the filter thinks "up" (the still accelerometer's direction) is, in body axes.
    private var estimatedUp: Vector3 { Self.up(of: orientation) }

    /// "Up" and "east" of an orientation, in body axes: the third and second rows of its
    /// rotation matrix (up negated, the body's z being down).
    @inline(__always)
    static func up(of q: Quaternion) -> Vector3 {
        Vector3(2 * (q.w * q.y - q.x * q.z), -2 * (q.y * q.z + q.w * q.x), 2 * (q.x * q.x + q.y * q.y) - 1)
    }

    @inline(__always)
    static func east(of q: Quaternion) -> Vector3 {
        Vector3(2 * (q.x * q.y + q.w * q.z), 1 - 2 * (q.x * q.x + q.z * q.z), 2 * (q.y * q.z - q.w * q.x))
    }

    private mutating func learnBias(_ error: Vector3, gain: Double, interval: Double) {
        let limit = settings.integralLimit
        let grown = residualBias + error * (gain * interval)
        residualBias = Vector3(min(max(grown.x, -limit), limit), min(max(grown.y, -limit), limit), min(max(grown.z, -limit), limit))
    }

    /// Arms the set-off hold when a settled rest ends (the force changes strength, the device
    /// turns, or gravity moves away from where the estimate has it with nothing turning);
    /// returns whether gravity may be heard this update.
    @inline(__always)
    private mutating func noteSetOff(interval: Double) -> Bool {
        if setOffLeft > 0 { setOffLeft -= interval }
        let agrees = accelerationErrorSquared <= setOffLimitSquared
        if isResting && agrees {
            settledFor += interval
        } else if settledFor > 0 {
            if settledFor >= settings.setOffRest && settings.setOffHold > 0 && !initialising { setOffLeft = settings.setOffHold }
            settledFor = 0
        }
        return setOffLeft <= 0 || agrees
    }

    /// Seconds over which gravity's strength is averaged.
    static var gravityLearningTime: Double { 10 }

    /// The axis (scaled by the sine of the angle) that turns the estimate towards the
    /// measurement. Beyond 90 degrees the sine shrinks again, so there the axis is given
    /// twice unit length instead: an estimate that is far off turns back at the fastest rate.
    @inline(__always)
    static func rotationError(from measured: Vector3, to estimated: Vector3) -> (error: Vector3, sineSquared: Double) {
        let error = measured.cross(estimated)
        let cosine = measured.dot(estimated)
        // Both of unit length: the cross product's length squared is 1 - cos^2.
        guard cosine < 0 else { return (error, 1 - cosine * cosine) }
        let length = error.length
        return length > 0 ? (error * (2 / length), 4) : (error, 4)
    }

    /// Roll, pitch and heading in degrees (heading 0..<360 from magnetic north).
    public var roll: Double { Angle.degrees(orientation.roll) }
    public var pitch: Double { Angle.degrees(orientation.pitch) }
    public var heading: Double { Angle.heading(Angle.degrees(orientation.yaw)) }

    public mutating func reset() {
        self = AttitudeFilter(settings: settings)
    }

    /// The magnetometer's correction has changed (a new calibration): believe the field at
    /// once for `relearnTime` seconds, as at start, instead of rejecting the jump of heading
    /// it brings as a disturbance and taking a minute to follow it.
    public mutating func relearnHeading() {
        headingRelearnLeft = Self.relearnTime
        sinceRelearn = 0
        northTrust = ReferenceTrust(rejectionDegrees: settings.magneticRejection, seconds: settings.recoveryPeriod)
    }

    /// Seconds.
    static var relearnTime: Double { 1 }

    static func sine(degrees: Double) -> Double {
        // sin for the settings only, without pulling in trigonometry per update.
        let x = Angle.radians(degrees)
        return x - x * x * x / 6 + x * x * x * x * x / 120 - x * x * x * x * x * x * x / 5040
    }
}
