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
    /// The day's steps by local hour, 0 to 23, the hour now, and whether the hours are marked
    /// on a 12-hour clock, for the day page's bars.
    case stepsByHour([Int], now: Int, twelveHour: Bool)
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
    /// With no recording open, the last track saved: what a person looks back on before the next.
    public var last: SavedTrack?
    public init() {}

    public struct SavedTrack: Sendable {
        public var name: String
        /// When it started, on the device's clock ("Sun 06-21 09:12").
        public var started: String
        public var distance: Double, movingTime: Double, climb: Double
        public init(name: String, started: String, distance: Double, movingTime: Double, climb: Double) {
            (self.name, self.started, self.distance, self.movingTime, self.climb) = (name, started, distance, movingTime, climb)
        }
    }
}

/// The day's ferry waves at a stop, for the waves page: its timeline (the light, each wave,
/// the best sessions, the time now) and the figures beside it, in the stop's zone. Figures and
/// codes, not sentences: the page says them in the language of the words.
public struct WavesPanel: Sendable {
    /// A wave: when it comes, how many waves its ship makes (1 to 3), and for the list of the
    /// coming ones its time of day, the trip's route and headsign, the ship (the person's mark,
    /// "Panta Rhei") and the light it comes in ("day", "twilight", "dark"; nil: not said).
    public struct Wave: Sendable {
        public var time: Double, count: Int
        public var clock: String, route: String, headsign: String
        public var ship: String?, light: String?
        public init(time: Double, count: Int, clock: String, route: String, headsign: String, ship: String? = nil, light: String? = nil) {
            (self.time, self.count, self.clock, self.route, self.headsign, self.ship, self.light) = (time, count, clock, route, headsign, ship, light)
        }
    }

    /// A session: its span (UTC seconds) and as clocks ("10:00-12:00"), its waves and points.
    public struct Session: Sendable {
        public var start: Double, end: Double
        public var span: String
        public var waves: Int, points: Int
        public init(start: Double, end: Double, span: String, waves: Int, points: Int) {
            (self.start, self.end, self.span, self.waves, self.points) = (start, end, span, waves, points)
        }
    }

    /// The next wave from now: its time of day, how many waves, the whole minutes to go and
    /// the local days ahead (0 today, 1 tomorrow).
    public struct NextWave: Sendable {
        public var clock: String, count: Int
        public var minutes: Int, days: Int
        public init(clock: String, count: Int, minutes: Int, days: Int) { (self.clock, self.count, self.minutes, self.days) = (clock, count, minutes, days) }
    }

    /// The stop, and the day as it reads there: the weekday (0 Monday) and "07-04".
    public var stop: String
    public var weekday: Int, date: String
    /// Where the stop is (the light along the timeline is the Sun's there).
    public var latitude: Double, longitude: Double
    public var now: Double
    /// The timeline's span (UTC seconds) and its hour marks: the local hour (0-23) and its
    /// label on the device's clock ("06", or "6a" on a 12-hour one).
    public var start: Double, end: Double
    public var hours: [(time: Double, hour: Int, label: String)] = []
    public var waves: [Wave] = []
    /// The best sessions, the best first.
    public var sessions: [Session] = []
    /// The session under way at `now` (`underWay`) or else the next to start, shown before the
    /// day's best (which may be over); nil when none is under way or to come.
    public var upcoming: (session: Session, underWay: Bool)?
    /// Nil when the day's waves are over.
    public var next: NextWave?
    /// The Sun's rise and set ("05:35", "21:25"; no sunrise: nil), and the waves in its light:
    /// how many, and their mean gap in minutes (nil with fewer than two).
    public var sunrise: String?, sunset: String?
    public var litWaves = 0
    public var litGapMinutes: Double?
    public init(stop: String, weekday: Int, date: String, latitude: Double, longitude: Double, now: Double, start: Double, end: Double) {
        (self.stop, self.weekday, self.date, self.latitude, self.longitude, self.now, self.start, self.end) = (
            stop, weekday, date, latitude, longitude, now, start, end
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
