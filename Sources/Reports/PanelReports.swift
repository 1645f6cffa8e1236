import LodestoneCore
import LodestoneDomain

/// What a display page shows that the services work out only when asked, for the page on the
/// screen (the costliest figures: the sky, the chart, a track's statistics and plot, the
/// departures, the pressure history), and the header's local time and alert line. The wiring
/// asks the services for them before each redraw of the page that shows them; the display
/// takes them as it takes every other report.
public enum PanelReport: Sendable {
    /// The local time of day for the header, "14:32" (nil without a time zone).
    case clock(String?)
    /// The newest alert while it is recent.
    case alert(String?)
    /// Sea-level pressure over each history range ("1h", "6h", "24h", "7d"), NaN for gaps.
    case pressureGraphs([(label: String, values: [Double])])
    case sky(SkyPanel)
    /// What is up over the observer now.
    case chart(SkyChart)
    case track(TrackPanel)
    /// The next departures from the favourite or the nearest stop (nil: no stop near or chosen).
    case departures(DeparturesPanel?)
    /// The day's waves at the favourite or the nearest stop (nil: no stop near or chosen).
    case waves(WavesPanel?)
    /// The web app's pairing address for a phone to scan.
    case connect(ConnectPanel)
    /// The day's steps by local hour, 0 to 23, and the hour now, for the day page's bars.
    case stepsByHour([Int], now: Int)
}

/// The connect page: a one-time pairing address of the web app (shown as a QR code and in
/// words), or why there is none.
public struct ConnectPanel: Sendable {
    /// "http://192.168.1.20:8080/pair?code=...", good once, for `minutesLeft` more minutes.
    public var url: String?
    public var minutesLeft: Int?
    /// Why there is no address ("the web app is off: ...").
    public var problem: String?
    public init(url: String?, minutesLeft: Int?, problem: String? = nil) { (self.url, self.minutesLeft, self.problem) = (url, minutesLeft, problem) }
}

public struct TrackPanel: Sendable {
    /// "recording", "paused", "stopped".
    public var state = "stopped"
    public var autoPaused = false
    public var name: String?
    public var points = 0
    public var distance = 0.0
    public var elapsed = 0.0
    public var movingTime = 0.0
    public var averageSpeed = Double.nan
    public var elevationGain = 0.0
    public var elevationLoss = 0.0
    /// The path (at most a few hundred points, thinned evenly), the position now, the
    /// saved waypoints within reach, the elevation profile (m) and the kilometre splits (s).
    public var path: [(latitude: Double, longitude: Double)] = []
    public var here: (latitude: Double, longitude: Double)?
    public var waypoints: [(name: String, latitude: Double, longitude: Double)] = []
    /// Where the track's photos were taken.
    public var photos: [(latitude: Double, longitude: Double)] = []
    public var profile: [Double] = []
    public var splits: [Double] = []
    /// Heading-up (the heading) or north-up (nil).
    public var headingUp: Double?
    public init() {}
}

/// The day's ferry waves at a stop, for the waves page: its timeline (the light, each wave,
/// the best sessions, the time now) and the lines beside it, worded in the stop's zone.
public struct WavesPanel: Sendable {
    /// The stop, and the day as it reads there ("Sat 07-04").
    public var stop: String, day: String
    /// Where the stop is (the light along the timeline is the Sun's there).
    public var latitude: Double, longitude: Double
    public var now: Double
    /// The timeline's span (UTC seconds) and its hour marks, labelled in local time ("06").
    public var start: Double, end: Double
    public var hours: [(time: Double, label: String)] = []
    /// Each wave: when it comes, how many waves the ship makes (1 to 3), and its line for the
    /// list of the coming ones ("10:30  3730 Thalwil  Panta Rhei  ~~~  day").
    public var waves: [(time: Double, count: Int, text: String)] = []
    /// The best sessions, the best first: their span and the words for them
    /// ("10:00-12:00  5 waves  30 pts").
    public var sessions: [(start: Double, end: Double, text: String)] = []
    /// The session under way at `now` (`underWay`) or else the next to start, shown before the
    /// day's best (which may be over); nil when none is under way or to come. `short`: its
    /// span alone ("13:00-14:30").
    public var upcoming: (start: Double, end: Double, text: String, short: String, underWay: Bool)?
    /// The next wave from now ("10:30  3 waves  in 12 min"; short, "10:30 ~~~ in 12 min"),
    /// nil when the day's are over; the best session short ("06:00-08:00 50 pts").
    public var next: String?, nextShort: String?, bestShort: String?
    /// "sun 05:35-21:25", and "20 lit waves, every 30 min".
    public var sun: String, frequency: String
    public init(stop: String, day: String, latitude: Double, longitude: Double, now: Double, start: Double, end: Double, sun: String, frequency: String) {
        (self.stop, self.day, self.latitude, self.longitude, self.now, self.start, self.end, self.sun, self.frequency) = (
            stop, day, latitude, longitude, now, start, end, sun, frequency
        )
    }
}

public struct DeparturesPanel: Sendable {
    public struct Row: Sendable {
        /// "14:05" in the stop's zone, the route's short name, where it goes, seconds to go.
        public var clock: String, route: String, headsign: String
        public var secondsToGo: Double
        /// The person's own mark on the trip or route ("Panta Rhei", 5).
        public var mark: String?, rating: Int?
        public init(clock: String, route: String, headsign: String, secondsToGo: Double, mark: String? = nil, rating: Int? = nil) {
            (self.clock, self.route, self.headsign, self.secondsToGo, self.mark, self.rating) = (clock, route, headsign, secondsToGo, mark, rating)
        }
    }
    /// The stop, and the way to it when it was chosen as the nearest.
    public var stop: String
    public var distance: Double?, bearing: Double?
    public var rows: [Row] = []
    /// Only the marked departures are shown (the flip gesture toggles it).
    public var onlyMarked = false
    /// Set, with no stop, when no stop with a departure in the next 24 hours lies within this
    /// many metres of the fix: the page says so and points to the search.
    public var noServiceWithin: Double?
    /// How many departures the page always shows; up to `listed` where a large panel has the
    /// rows for them.
    public static let shown = 3
    public static let listed = 8
    public init(stop: String) { self.stop = stop }
}
