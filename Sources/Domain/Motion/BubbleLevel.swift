import LodestoneCore

/// A spirit level from the attitude: roll and pitch relative to a reference surface, and a
/// "level" state for the buzzer or LED.
///
/// Level has hysteresis: the tilt must come within `levelWithin` to become level and go beyond
/// `leaveBeyond` to stop being level, so a hand steadying the device at the edge gives one
/// pulse, not a buzz. The tilt is the combined one, sqrt(roll^2 + pitch^2): at these small
/// angles that is the angle between the device and the surface, to a small fraction of a degree.
///
/// Zeroing stores the current roll and pitch as the surface's offset (a device whose case is
/// not square to its sensor, or a reference surface that is not itself level); later readings
/// are given relative to it. Offsets are subtracted angle by angle, right for the small offsets
/// a surface calibration produces.
///
/// Allocation-free, no trigonometry.
public struct BubbleLevel: Sendable {
    public struct Settings: Sendable, Equatable {
        /// Degrees of tilt within which the device becomes level.
        public var levelWithin = 0.5
        /// Degrees of tilt beyond which it is no longer level.
        public var leaveBeyond = 0.8
        /// Time constant of the smoothing of roll and pitch, seconds (0: none). The bubble
        /// should settle, not tremble with the hand.
        public var smoothing = 0.1
        public init() {}
    }

    public enum Event: Sendable, Equatable {
        case becameLevel
        case leftLevel
    }

    public let settings: Settings
    /// Degrees relative to the reference surface (right side down, nose up positive).
    public private(set) var roll = 0.0
    public private(set) var pitch = 0.0
    /// Combined tilt from the reference surface, degrees.
    public private(set) var tilt = 0.0
    public private(set) var isLevel = false
    /// The surface offset subtracted from the attitude, degrees.
    public private(set) var rollOffset = 0.0
    public private(set) var pitchOffset = 0.0
    /// Smoothed attitude before the offset.
    private var rawRoll = 0.0
    private var rawPitch = 0.0
    private var started = false

    public init(settings: Settings = Settings()) {
        self.settings = settings
    }

    /// A new attitude, degrees, and the seconds since the previous one.
    /// Returns an event when the device becomes level or stops being level.
    public mutating func update(roll newRoll: Double, pitch newPitch: Double, interval: Double) -> Event? {
        guard newRoll.isFinite, newPitch.isFinite, interval.isFinite, interval >= 0 else { return nil }
        if started {
            // 1 - exp(-dt/tau) by its bilinear approximation: no exponential per update.
            let x = settings.smoothing > 0 ? interval / settings.smoothing : .infinity
            let gain = x.isFinite ? min(x / (1 + x / 2), 1) : 1
            // Roll is smoothed through its difference so that +-180 (upside down) does not
            // average to 0.
            rawRoll = Angle.signed(rawRoll + gain * Angle.signed(newRoll - rawRoll))
            rawPitch += gain * (newPitch - rawPitch)
        } else {
            rawRoll = newRoll
            rawPitch = newPitch
            started = true
        }
        return evaluate()
    }

    /// Takes the current attitude as the reference surface: it reads zero from now on.
    /// Changing the offset can change the level state; the event is returned like `update`'s.
    @discardableResult
    public mutating func zero() -> Event? {
        rollOffset = rawRoll
        pitchOffset = rawPitch
        return evaluate()
    }

    /// Forgets the surface offset: roll and pitch are relative to true level again.
    @discardableResult
    public mutating func clearOffset() -> Event? {
        rollOffset = 0
        pitchOffset = 0
        return evaluate()
    }

    /// Sets a stored offset (from settings saved earlier), degrees.
    @discardableResult
    public mutating func setOffset(roll: Double, pitch: Double) -> Event? {
        guard roll.isFinite, pitch.isFinite else { return nil }
        rollOffset = roll
        pitchOffset = pitch
        return evaluate()
    }

    private mutating func evaluate() -> Event? {
        guard started else { return nil }
        roll = Angle.signed(rawRoll - rollOffset)
        pitch = rawPitch - pitchOffset
        tilt = (roll * roll + pitch * pitch).squareRoot()
        if !isLevel, tilt <= settings.levelWithin {
            isLevel = true
            return .becameLevel
        }
        if isLevel, tilt > settings.leaveBeyond {
            isLevel = false
            return .leftLevel
        }
        return nil
    }
}
