import LodestoneCore

/// How the person carrying the device is moving.
public enum MotionState: String, Sendable, CaseIterable {
    case still, walking, running, vehicle
}

/// Still, walking, running or riding in a vehicle, from the IMU over the last couple of seconds,
/// the step counter's cadence and, when there is a fix, the GPS speed.
///
/// The rules, in order:
/// - steps (a cadence from `StepCounter`): running at or above `runningCadence`, else walking,
///   unless the GPS says faster than any runner (`maximumRunningSpeed`): then the "steps"
///   are bumps of a vehicle;
/// - no steps and GPS speed above `carriedSpeed` (a boat at 3 m/s, a bicycle): vehicle;
/// - no steps and steady vibration (engine and road, above 5 Hz, present nearly all the time,
///   not in bursts like taps on a table): vehicle;
/// - no steps and calm (little variation of the force, little rotation): still;
/// - anything else (handling the device, swaying without vibration): no change from vehicle,
///   otherwise still: without steps or speed a person is not travelling.
///
/// A new state must be indicated continuously for a dwell time before it is reported, so the
/// state does not flicker: `dwell` in general, longer to enter a vehicle (the heel strikes of
/// the first strides of a run, before the step counter has confirmed them, look like
/// vibration) and longer to leave one for still (a stop at traffic lights).
///
/// A boat on a swell without GPS has no vibration and no steps: it reads still, like a person
/// standing; with GPS it is a vehicle as soon as it makes way.
///
/// Allocation-free, no trigonometry.
public struct MotionClassifier: Sendable {
    public struct Settings: Sendable, Equatable {
        /// The span of the statistics, seconds.
        public var window = 2.0
        /// Steps per minute from which the gait is running.
        public var runningCadence = 140.0
        /// Without steps, faster than this (m/s, GPS) is a vehicle.
        public var vehicleSpeed = 7.0
        /// Without steps, moving faster than this (m/s, GPS) is being carried: a boat, a bicycle,
        /// a train at a crawl. Above any GPS noise at rest and below any stride's pace.
        public var carriedSpeed = 1.0
        /// With steps, faster than this (m/s, GPS) is still a vehicle.
        public var maximumRunningSpeed = 12.0
        /// Calm: force magnitude varying less than this (RMS, m/s^2) ...
        public var stillForceVariation = 0.25
        /// ... and turning less than this (RMS, rad/s).
        public var stillRotation = 0.15
        /// Vibration above 5 Hz counts while its short-term RMS exceeds this, m/s^2 ...
        public var vibrationLevel = 0.15
        /// ... for at least this fraction of the window.
        public var vibrationSteadiness = 0.85
        /// Seconds a new state must hold before it is reported.
        public var dwell = 2.0
        public var dwellToVehicle = 5.0
        public var dwellVehicleToStill = 8.0
        /// Setting off on foot from still: the step counter has already waited for a steady
        /// rhythm of several steps, so a shorter hold is enough.
        public var dwellStillToSteps = 0.5
        public init() {}
    }

    public struct Change: Sendable, Equatable {
        public var from: MotionState
        public var to: MotionState
        /// Seconds since the classifier started (the sum of the update intervals).
        public var time: Double
    }

    public let settings: Settings
    /// The reported state.
    public private(set) var state = MotionState.still
    /// Whether `state` rests on readings yet: false until a full window has been seen and the
    /// rules have agreed with it for its dwell (or a change completed). Before that `state` is
    /// only where the classifier starts, and nothing should be decided on it.
    public private(set) var judged = false
    /// What the rules say this instant, before the dwell.
    public private(set) var indicated = MotionState.still
    /// Statistics of the window, for display and tuning.
    public private(set) var forceVariation = 0.0
    public private(set) var rotation = 0.0
    /// Fraction of the window with vibration above `vibrationLevel`.
    public private(set) var vibrationShare = 0.0

    private var started = false
    private var time = 0.0
    private var meanForce = 0.0
    private var forcePower = 0.0
    private var rotationPower = 0.0
    private var vibrationLowPass = 0.0
    private var vibrationPower = 0.0
    private var indicatedSince = 0.0

    public init(settings: Settings = Settings()) {
        self.settings = settings
    }

    /// One IMU reading.
    /// - Parameters:
    ///   - specificForce: accelerometer, m/s^2.
    ///   - rotationRate: gyroscope, rad/s.
    ///   - cadence: steps per minute from the step counter, 0 when not stepping.
    ///   - gpsSpeed: ground speed, m/s, when there is a current fix; nil otherwise.
    ///   - interval: seconds since the previous reading.
    /// - Returns: the change of state this reading completed, if any.
    public mutating func update(
        specificForce: Vector3, rotationRate: Vector3, cadence: Double,
        gpsSpeed: Double?, interval: Double
    ) -> Change? {
        guard interval > 0, interval < 1 else { return nil }  // also false for NaN
        let magnitude = specificForce.length
        let turn = rotationRate.dot(rotationRate)
        guard magnitude.isFinite, turn.isFinite else { return nil }
        time += interval
        if !started {
            started = true
            meanForce = magnitude
            vibrationLowPass = magnitude
            indicatedSince = time
        }

        let windowGain = interval / (settings.window + interval)
        meanForce += windowGain * (magnitude - meanForce)
        let deviation = magnitude - meanForce
        forcePower += windowGain * (deviation * deviation - forcePower)
        rotationPower += windowGain * (turn - rotationPower)
        forceVariation = forcePower.squareRoot()
        rotation = rotationPower.squareRoot()

        // Vibration: the force above about 5 Hz, its power over 30 ms, and the share of the
        // window in which that power is above the level. An engine hums all the time; knocks
        // ring and die away.
        vibrationLowPass += interval / (0.032 + interval) * (magnitude - vibrationLowPass)
        let vibration = magnitude - vibrationLowPass
        vibrationPower += interval / (0.03 + interval) * (vibration * vibration - vibrationPower)
        let vibrating = vibrationPower > settings.vibrationLevel * settings.vibrationLevel ? 1.0 : 0.0
        vibrationShare += windowGain * (vibrating - vibrationShare)

        let now = classify(cadence: cadence.isFinite ? cadence : 0, gpsSpeed: gpsSpeed.flatMap { $0.isFinite ? $0 : nil })
        if now != indicated {
            indicated = now
            indicatedSince = time
        }
        if !judged, time >= settings.window, indicated == state, time - indicatedSince >= dwell(to: state) { judged = true }
        guard indicated != state, time - indicatedSince >= dwell(to: indicated) else { return nil }
        let change = Change(from: state, to: indicated, time: time)
        state = indicated
        judged = true
        return change
    }

    private func classify(cadence: Double, gpsSpeed: Double?) -> MotionState {
        if cadence > 0 {
            if let speed = gpsSpeed, speed > settings.maximumRunningSpeed { return .vehicle }
            return cadence >= settings.runningCadence ? .running : .walking
        }
        if let speed = gpsSpeed, speed > settings.vehicleSpeed || speed > settings.carriedSpeed { return .vehicle }
        if vibrationShare >= settings.vibrationSteadiness { return .vehicle }
        if forceVariation < settings.stillForceVariation && rotation < settings.stillRotation { return .still }
        return state == .vehicle ? .vehicle : .still
    }

    private func dwell(to next: MotionState) -> Double {
        if next == .vehicle { return settings.dwellToVehicle }
        if state == .vehicle && next == .still { return settings.dwellVehicleToStill }
        if state == .still && (next == .walking || next == .running) { return settings.dwellStillToSteps }
        return settings.dwell
    }

    public mutating func reset() {
        self = MotionClassifier(settings: settings)
    }
}
