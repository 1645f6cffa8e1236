import LodestoneCore
import LodestoneDomain

/// The motion features once a second (MOTION): state, steps (since the start, and today's,
/// kept across restarts), cadence (steps/min), distance (m), floors climbed and descended
/// today, the level and the display's theme.
public struct MotionReport: Sendable, Equatable {
    public var time: Double
    public var state: MotionState
    public var steps: Int
    public var cadence: Double
    public var distance: Double
    public var level: Bool
    public var tilt: Double
    public var nightTheme: Bool
    public var stepsToday: Int?
    public var floorsUp: Int?
    public var floorsDown: Int?
    /// Metres on foot today and seconds walking or running today (kept across restarts).
    public var distanceToday: Double?
    public var activeSecondsToday: Double?
    public init(time: Double, state: MotionState, steps: Int, cadence: Double, distance: Double, level: Bool, tilt: Double, nightTheme: Bool) {
        (self.time, self.state, self.steps, self.cadence, self.distance) = (time, state, steps, cadence, distance)
        (self.level, self.tilt, self.nightTheme) = (level, tilt, nightTheme)
    }
}
