import Glibc
import LodestoneCore

/// The flip gesture: the device turned face down and back face up, as one deliberate movement.
///
/// Face up and face down are judged from the direction of gravity in the body frame. With the
/// gyroscope available the detector keeps its own estimate of that direction: the gyro turns
/// it, and the accelerometer pulls it back slowly, and only while the force is close to 1 g.
/// That is why shaking cannot fake a flip: shaken to +-3 g the accelerometer points anywhere,
/// but nothing rotates, so the estimate stays put. (`update(down:interval:)` takes the
/// direction from the attitude filter instead, which rejects accelerations the same way.)
///
/// The gesture, with the time limits that tell it from putting the device down:
/// face up -> turned over within `maximumTurn` -> face down for at least `minimumHold` ->
/// back face up (again within `maximumTurn` of leaving face down) no more than
/// `maximumFaceDown` after it arrived face down. One event per gesture, then `cooldown`.
/// Either axis, either direction, and back the same way or on round the full circle.
///
/// Allocation-free; no trigonometry per update (a square root).
public struct FlipDetector: Sendable {
    public struct Settings: Sendable, Equatable {
        /// Within this many degrees of level counts as face up, and of upside down as face down.
        public var faceAngle = 40.0
        /// Extra degrees needed to leave face down, so a tremor at the border does not end the hold.
        public var faceDownHysteresis = 10.0
        /// Longest time for each half-turn, seconds (from leaving one face to reaching the other).
        public var maximumTurn = 2.5
        /// Shortest time face down, seconds.
        public var minimumHold = 0.25
        /// Longest time from arriving face down to being face up again, seconds: longer is
        /// putting the device down, not a gesture.
        public var maximumFaceDown = 6.0
        /// No new gesture starts for this long after one, seconds.
        public var cooldown = 3.0
        /// How fast the accelerometer corrects the gyro-carried gravity direction, per second.
        public var correctionGain = 0.5
        /// The accelerometer is believed only while its magnitude is within this fraction of 1 g.
        public var forceTolerance = 0.15
        public var gravity = 9.80665
        public init() {}
    }

    public struct Flip: Sendable, Equatable {
        /// Seconds since the detector started (the sum of the update intervals) when the device
        /// came back face up.
        public var time: Double
        /// Seconds spent face down.
        public var faceDownDuration: Double
    }

    enum Phase: Sendable, Equatable {
        /// Face up (or turning but not yet face down): waiting for a gesture.
        case ready
        /// Left face up at `since`, not yet face down.
        case turningOver(since: Double)
        case faceDown(since: Double)
        /// Left face down at `leftAt`, after arriving there at `downSince`.
        case turningBack(downSince: Double, leftAt: Double)
        /// A gesture failed or came too soon: wait to be face up again before the next.
        case waitingForFaceUp
    }

    public let settings: Settings
    /// The estimated direction of gravity ("down") in body axes, unit length.
    public private(set) var down = Vector3(0, 0, 1)
    public private(set) var flips = 0
    private var phase = Phase.waitingForFaceUp
    private var started = false
    private var time = 0.0
    private var cooldownUntil = -1e9
    private let faceUpCosine: Double
    private let faceDownCosine: Double
    private let leaveFaceDownCosine: Double

    public init(settings: Settings = Settings()) {
        self.settings = settings
        faceUpCosine = cos(Angle.radians(settings.faceAngle))
        faceDownCosine = -faceUpCosine
        leaveFaceDownCosine = -cos(Angle.radians(settings.faceAngle + settings.faceDownHysteresis))
    }

    /// Whether the device lies face down now (screen to the ground).
    public var isFaceDown: Bool { down.z <= faceDownCosine }
    public var isFaceUp: Bool { down.z >= faceUpCosine }

    /// One IMU reading.
    /// - Parameters:
    ///   - specificForce: accelerometer, m/s^2 (reads (0, 0, -g) level and still).
    ///   - rotationRate: gyroscope, rad/s.
    ///   - interval: seconds since the previous reading.
    /// - Returns: the flip completed by this reading, if any.
    public mutating func update(specificForce: Vector3, rotationRate: Vector3, interval: Double) -> Flip? {
        guard interval > 0, interval < 1 else { return nil }  // also false for NaN
        let forceLength = specificForce.length
        guard forceLength.isFinite, rotationRate.length.isFinite else { return nil }
        if !started {
            guard forceLength > 0.5 * settings.gravity else { return nil }
            down = specificForce * (-1 / forceLength)
            started = true
        }
        // A direction fixed on the earth turns the other way in the body frame: d/dt = down x rate.
        var next = down + down.cross(rotationRate) * interval
        let weight = 1 - abs(forceLength - settings.gravity) / (settings.forceTolerance * settings.gravity)
        if weight > 0 {
            // Pull towards the measured direction, along the sphere (the part across `down`):
            // a measurement opposite the estimate pulls nowhere, so a reading flung upside down
            // by a shake does not turn the estimate over.
            let measured = specificForce * (-1 / forceLength)
            let across = measured - next * measured.dot(next)
            next = next + across * (settings.correctionGain * weight * interval)
        }
        let length = next.length
        if length > 0 { down = next * (1 / length) }
        return advance(interval: interval)
    }

    /// One reading of the down direction in body axes from elsewhere (the attitude filter:
    /// `orientation.rotateInverse(Vector3(0, 0, 1))`). Any length.
    public mutating func update(down direction: Vector3, interval: Double) -> Flip? {
        guard interval > 0, interval < 1 else { return nil }
        let length = direction.length
        guard length > 0, length.isFinite else { return nil }
        down = direction * (1 / length)
        started = true
        return advance(interval: interval)
    }

    private mutating func advance(interval: Double) -> Flip? {
        time += interval
        let c = down.z
        let up = c >= faceUpCosine
        switch phase {
        case .waitingForFaceUp:
            if up { phase = .ready }
        case .ready:
            if !up { phase = time >= cooldownUntil ? .turningOver(since: time) : .waitingForFaceUp }
        case .turningOver(let since):
            if up {
                phase = .ready
            } else if c <= faceDownCosine {
                phase = .faceDown(since: time)
            } else if time - since > settings.maximumTurn {
                phase = .waitingForFaceUp  // a slow tilt, not a flip
            }
        case .faceDown(let since):
            if time - since > settings.maximumFaceDown {
                phase = .waitingForFaceUp  // put down face down
            } else if c > leaveFaceDownCosine {
                phase = time - since >= settings.minimumHold ? .turningBack(downSince: since, leftAt: time) : .waitingForFaceUp
            }
        case .turningBack(let downSince, let leftAt):
            if up {
                phase = .ready
                guard time - downSince <= settings.maximumFaceDown else { return nil }
                cooldownUntil = time + settings.cooldown
                flips += 1
                return Flip(time: time, faceDownDuration: leftAt - downSince)
            } else if c <= faceDownCosine {
                phase = .faceDown(since: downSince)
            } else if time - leftAt > settings.maximumTurn || time - downSince > settings.maximumFaceDown {
                phase = .waitingForFaceUp
            }
        }
        return nil
    }

    public mutating func reset() {
        self = FlipDetector(settings: settings)
    }
}
