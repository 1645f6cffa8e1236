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
    public var profile: [Double] = []
    public var splits: [Double] = []
    /// Heading-up (the heading) or north-up (nil).
    public var headingUp: Double?
    public init() {}
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
    /// How many departures the page shows.
    public static let shown = 3
    public init(stop: String) { self.stop = stop }
}
