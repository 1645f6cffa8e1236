import LodestoneCore

/// Steps, cadence and distance walked or run, from the accelerometer alone.
///
/// The magnitude of the specific force is used, not one axis: a handheld device is held at any
/// angle, but every footfall shows as a rise and fall of the total force whatever the grip.
/// The magnitude is band-passed to the band of human cadence (about 1 to 4 Hz): this removes
/// gravity, the swell of a boat and the sway of a car below, and road vibration and the ringing
/// of taps above. A step is one excursion above an adaptive threshold (a fraction of the
/// recent step peaks, never below `minimumAmplitude`) that ends below a lower threshold, which
/// keeps the second bump of a heel-strike harmonic from counting twice; it is timed at its peak.
///
/// Three further checks keep a pedometer quiet when nobody walks:
/// - the band must hold more energy than the vibration above it (`bandToVibrationRatio`):
///   taps and engines are broadband, walking is not;
/// - peaks closer than `minimumStepInterval` (or 55 % of the current step interval once
///   walking) are echoes of the same step;
/// - walking starts only after `stepsToConfirm` candidate steps at a steady rhythm (intervals
///   within `regularity` of their mean). Those steps are then all counted at once, so none is
///   lost, but random bumps rarely line up that many times.
///
/// Time is in seconds between updates (`interval`), so the filters follow the real rate
/// (25..200 Hz) and its jitter. Allocation-free, no trigonometry per update.
public struct StepCounter: Sendable {
    public struct Settings: Sendable, Equatable {
        /// Length of one step while walking, metres.
        public var walkingStride = 0.75
        /// Length of one step while running, metres; nil derives it from the cadence: it grows
        /// with the square of the cadence above `runningCadence` (people run faster mostly by
        /// lengthening their stride), capped at 2.5 walking strides.
        public var runningStride: Double? = nil
        /// Steps per minute from which the running stride applies.
        public var runningCadence = 140.0
        /// The step band, hertz.
        public var highPassHz = 0.8
        public var lowPassHz = 4.0
        /// Everything above this is "vibration", hertz.
        public var vibrationHz = 6.0
        /// The least band-passed peak that can be a step, m/s^2: above sensor noise and the
        /// leakage of vehicle vibration, below the gentlest walk with the device in hand.
        public var minimumAmplitude = 0.5
        /// The threshold as a fraction of the recent step peaks.
        public var adaptiveFraction = 0.4
        /// Seconds: 0.2 s is 300 steps per minute, a sprinter's cadence.
        public var minimumStepInterval = 0.2
        /// Seconds: a longer pause ends the walk (and cadence drops to zero).
        public var maximumStepInterval = 1.5
        public var stepsToConfirm = 6
        /// How far a confirming interval may be from the mean of the previous ones, as a fraction
        /// of the longer. Left and right steps often differ by 10..20 % (a limp, a bag, the arm
        /// holding the device), so this is not tight.
        public var regularity = 0.35
        public var bandToVibrationRatio = 0.2
        public init() {}
    }

    public let settings: Settings
    /// Steps counted since the start (or reset).
    public private(set) var steps = 0
    /// Metres, the sum of the stride in effect at each step.
    public private(set) var distance = 0.0
    /// Steps per minute; zero when not walking.
    public private(set) var cadence = 0.0
    /// Whether a walk (or run) is under way: its steps are counted as they come.
    public private(set) var isStepping = false
    /// The band-passed magnitude of the last update, m/s^2 (for display and tuning).
    public private(set) var band = 0.0

    // Filters (one-pole sections, coefficients from each update's interval).
    private let highPassTau: Double
    private let lowPassTau: Double
    private let vibrationTau: Double
    private var started = false
    private var previousMagnitude = 0.0
    private var highPass1 = 0.0
    private var highPass2 = 0.0
    private var lowPass1 = 0.0
    private var lowPass2 = 0.0
    private var vibrationLowPass = 0.0
    private var bandPower = 0.0
    private var vibrationPower = 0.0

    // Peak detection.
    private var time = 0.0
    private var armed = true
    private var excursionPeak = 0.0
    private var peakLevel = 0.0
    private var excursionPeakTime = 0.0

    // Rhythm.
    private var lastCandidateTime = -1e9
    private var pending = 0
    private var pendingIntervalSum = 0.0
    private var lastStepTime = -1e9
    private var averageInterval = 0.5

    public init(settings: Settings = Settings()) {
        self.settings = settings
        highPassTau = 1 / (2 * Double.pi * max(settings.highPassHz, 1e-3))
        lowPassTau = 1 / (2 * Double.pi * max(settings.lowPassHz, 1e-3))
        vibrationTau = 1 / (2 * Double.pi * max(settings.vibrationHz, 1e-3))
    }

    /// One accelerometer reading. Returns the number of steps added by it: usually 0 or 1,
    /// `stepsToConfirm` when a walk is recognised.
    /// - Parameters:
    ///   - specificForce: accelerometer, m/s^2, any axes.
    ///   - interval: seconds since the previous reading.
    @discardableResult
    public mutating func update(specificForce: Vector3, interval: Double) -> Int {
        guard interval > 0, interval < 1 else { return 0 }  // also false for NaN
        let magnitude = specificForce.length
        guard magnitude.isFinite else { return 0 }
        time += interval
        guard started else {
            // Start the filters at rest on the first reading: no step from switching on.
            started = true
            previousMagnitude = magnitude
            vibrationLowPass = magnitude
            return 0
        }

        let highPassKeep = highPassTau / (highPassTau + interval)
        let stage1 = highPassKeep * (highPass1 + magnitude - previousMagnitude)
        let stage2 = highPassKeep * (highPass2 + stage1 - highPass1)
        previousMagnitude = magnitude
        highPass1 = stage1
        highPass2 = stage2
        let lowPassGain = interval / (lowPassTau + interval)
        lowPass1 += lowPassGain * (stage2 - lowPass1)
        lowPass2 += lowPassGain * (lowPass1 - lowPass2)
        band = lowPass2

        vibrationLowPass += interval / (vibrationTau + interval) * (magnitude - vibrationLowPass)
        let vibration = magnitude - vibrationLowPass
        // Energies over about a second: long enough to span a step, short enough to follow a tap.
        let powerGain = interval / (1 + interval)
        bandPower += powerGain * (band * band - bandPower)
        vibrationPower += powerGain * (vibration * vibration - vibrationPower)

        // The peak level fades so that after a run the threshold comes back down for a stroll.
        peakLevel *= max(0, 1 - interval / 4)
        let upper = max(settings.minimumAmplitude, settings.adaptiveFraction * peakLevel)
        let lower = -0.5 * upper

        if isStepping, time - lastStepTime > min(settings.maximumStepInterval, 2.5 * averageInterval) {
            endWalk()
        }

        var added = 0
        if armed {
            if band > upper {
                armed = false
                excursionPeak = band
                excursionPeakTime = time
            }
        } else {
            if band > excursionPeak {
                excursionPeak = band
                excursionPeakTime = time
            }
            if band < lower {
                // The excursion is over: judge it, timed at its peak (the upward crossing
                // would move with the strength of the step and blur the rhythm).
                armed = true
                var counted = false
                added = candidate(at: excursionPeakTime, counted: &counted)
                // Only peaks taken for steps set the level: one knock or jolt must not raise
                // the threshold above the next few real steps.
                if counted {
                    peakLevel = peakLevel == 0 ? excursionPeak : 0.7 * peakLevel + 0.3 * min(excursionPeak, 3 * peakLevel)
                }
            }
        }
        return added
    }

    /// A peak that may be a step, at `peakTime`.
    private mutating func candidate(at peakTime: Double, counted: inout Bool) -> Int {
        guard bandPower >= settings.bandToVibrationRatio * vibrationPower else {
            // Broadband: a knock or an engine. It also breaks any rhythm being built.
            pending = 0
            return 0
        }
        let sinceLast = peakTime - lastCandidateTime
        let echo = isStepping ? max(settings.minimumStepInterval, 0.55 * averageInterval) : settings.minimumStepInterval
        guard sinceLast >= echo else { return 0 }
        lastCandidateTime = peakTime
        counted = true

        if isStepping {
            // A missed step doubles an interval; it should not halve the cadence.
            if sinceLast < 1.6 * averageInterval {
                averageInterval += 0.2 * (sinceLast - averageInterval)
                cadence = 60 / averageInterval
            }
            addSteps(1)
            return 1
        }

        let mean = pending >= 2 ? pendingIntervalSum / Double(pending - 1) : sinceLast
        if pending >= 1, sinceLast <= settings.maximumStepInterval,
            abs(sinceLast - mean) <= settings.regularity * max(mean, sinceLast)
        {
            pending += 1
            pendingIntervalSum += sinceLast
        } else {
            pending = 1
            pendingIntervalSum = 0
        }
        guard pending >= max(settings.stepsToConfirm, 2) else { return 0 }
        // A steady rhythm: a walk. Count the steps that proved it.
        let confirmed = pending
        averageInterval = pendingIntervalSum / Double(pending - 1)
        cadence = 60 / averageInterval
        isStepping = true
        pending = 0
        pendingIntervalSum = 0
        addSteps(confirmed)
        return confirmed
    }

    private mutating func addSteps(_ count: Int) {
        steps += count
        distance += Double(count) * stride
        lastStepTime = lastCandidateTime
    }

    private mutating func endWalk() {
        isStepping = false
        cadence = 0
        pending = 0
        pendingIntervalSum = 0
    }

    /// The length of one step at the current cadence, metres.
    public var stride: Double {
        guard cadence >= settings.runningCadence, settings.runningCadence > 0 else { return settings.walkingStride }
        if let running = settings.runningStride { return running }
        let ratio = cadence / settings.runningCadence
        return settings.walkingStride * min(ratio * ratio, 2.5)
    }

    /// Forgets the counts and the filters' state.
    public mutating func reset() {
        self = StepCounter(settings: settings)
    }
}
