/// An on/off condition as events announce it: a change must hold for a while before it is
/// told (`onAfter`, `offAfter` seconds), and two changes are at least `leastBetween` seconds
/// apart (one due sooner waits, and is dropped if the condition goes back meanwhile). The
/// condition itself brings its hysteresis (the level's 0.5 and 0.8 degrees); this adds time,
/// so a boat rolling through level or a receiver hovering at five satellites is not a stream
/// of events, each a buzzer tick.
public struct EventDeadBand: Sendable, Equatable {
    public struct Settings: Sendable, Equatable {
        public var onAfter: Double
        public var offAfter: Double
        public var leastBetween: Double
        public init(onAfter: Double, offAfter: Double, leastBetween: Double) {
            (self.onAfter, self.offAfter, self.leastBetween) = (onAfter, offAfter, leastBetween)
        }
    }

    public let settings: Settings
    public private(set) var isOn = false
    private var pendingFor = 0.0
    private var sinceChange = Double.infinity

    public init(_ settings: Settings) { self.settings = settings }

    /// The condition now, `interval` seconds after the last update: the new state when it
    /// changes, nil otherwise.
    public mutating func update(_ condition: Bool, interval: Double) -> Bool? {
        let step = interval.isFinite && interval > 0 ? interval : 0
        sinceChange += step
        guard condition != isOn else { pendingFor = 0; return nil }
        pendingFor += step
        guard pendingFor >= (condition ? settings.onAfter : settings.offAfter), sinceChange >= settings.leastBetween else { return nil }
        (isOn, pendingFor, sinceChange) = (condition, 0, 0)
        return condition
    }
}
