/// The sky page's figures: the day's sun events in the local zone, the Sun, the Moon and the
/// season, as the sky service computes them for the display.
public struct SkyPanel: Sendable {
    public struct Moment: Sendable {
        public var name: String
        /// Local time of day "06:42", or nil when it does not happen today.
        public var clock: String?
        public init(name: String, clock: String?) {
            self.name = name
            self.clock = clock
        }
    }
    /// The next event and seconds until it.
    public var next: (name: String, clock: String, seconds: Double)?
    /// Where the sky is worked out for, when it is not the fix: said on the page (in the table's
    /// words, "at the configured place"), so nobody reads another place's times as theirs.
    public enum PlaceNote: Sendable, Equatable {
        case configured
        /// The last fix kept, on its local date ("2026-06-21").
        case lastFix(date: String)
        /// No place at all: the page says how to give one.
        case unknown
    }
    public var placeNote: PlaceNote?
    /// The day's events in order (dawns, sunrise, noon, sunset, dusks, golden and blue hours).
    public var events: [Moment] = []
    public var dayLength = Double.nan
    public var sunAltitude = Double.nan
    public var sunAzimuth = Double.nan
    /// "day", "civil twilight", "night".
    public var light = ""
    public var moonPhase = ""
    public var moonIllumination = Double.nan
    public var moonAge = Double.nan
    /// The astronomical season now, the next one, whole days until it and the fraction of
    /// the current season gone by.
    public var season = ""
    public var nextSeason = ""
    public var daysUntilSeason = 0
    public var seasonProgress = Double.nan
    /// False without any place (no fix, none kept, none configured): only the Moon and the
    /// season (the north's), with `placeNote` saying how to give one.
    public var located = true
    public init() {}
}
