import LodestoneCore

/// Hold a bearing: lock the heading to follow, then read how far the device points off it.
///
/// The deviation is signed, -180..<180 degrees, positive when the device points clockwise
/// (to the right) of the locked bearing, and wraps correctly across north: locked on 355 and
/// pointing at 5 is 10 degrees right, not 350 left. "Off course" has hysteresis, so a heading
/// wavering at the limit does not chatter the buzzer.
///
/// Allocation-free, no trigonometry.
public struct BearingLock: Sendable {
    public struct Settings: Sendable, Equatable {
        /// Beyond this many degrees either side the device is off course.
        public var offCourse = 10.0
        /// Back within this many degrees it is on course again.
        public var backOnCourse = 8.0
        public init() {}
    }

    public enum Event: Sendable, Equatable {
        /// Left the allowed band; the deviation at that moment (negative: left of the bearing).
        case offCourse(deviation: Double)
        case backOnCourse
    }

    public let settings: Settings
    /// The locked bearing, degrees 0..<360; nil when unlocked.
    public private(set) var bearing: Double?
    /// The signed deviation of the last heading from the bearing, degrees; nil when unlocked
    /// or before the first heading.
    public private(set) var deviation: Double?
    public private(set) var isOffCourse = false
    /// The last heading given to `update`, degrees.
    public private(set) var heading: Double?

    public init(settings: Settings = Settings()) {
        self.settings = settings
    }

    /// Locks on a given bearing, degrees (any value; wrapped to 0..<360).
    public mutating func lock(bearing newBearing: Double) {
        guard newBearing.isFinite else { return }
        bearing = Angle.heading(newBearing)
        isOffCourse = false
        deviation = heading.map { Angle.signed($0 - Angle.heading(newBearing)) }
    }

    /// Locks on the current heading (the last one given to `update`). False when there is none yet.
    @discardableResult
    public mutating func lockCurrentHeading() -> Bool {
        guard let heading else { return false }
        lock(bearing: heading)
        return true
    }

    public mutating func unlock() {
        bearing = nil
        deviation = nil
        isOffCourse = false
    }

    /// A new heading, degrees. Returns an event when the device goes off or comes back on course.
    public mutating func update(heading newHeading: Double) -> Event? {
        guard newHeading.isFinite else { return nil }
        heading = Angle.heading(newHeading)
        guard let bearing else { return nil }
        let d = Angle.signed(newHeading - bearing)
        deviation = d
        if !isOffCourse, abs(d) > settings.offCourse {
            isOffCourse = true
            return .offCourse(deviation: d)
        }
        if isOffCourse, abs(d) < settings.backOnCourse {
            isOffCourse = false
            return .backOnCourse
        }
        return nil
    }
}
