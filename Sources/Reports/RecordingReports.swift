import LodestoneCore
import LodestoneDomain

/// The track recording (TRACK): its state and, while one is open, its figures so far.
public struct TrackReport: Sendable {
    public struct Recording: Sendable {
        public var name: String
        public var tags: [String]
        public var interval: String
        public var points: Int
        public var distance: Double
        /// When it started (UTC seconds), and the seconds since then, pauses included.
        public var started = Double.nan
        public var elapsed = Double.nan
        /// Seconds moving (at walking pace or faster), metres climbed and descended.
        public var movingTime = 0.0
        public var climb = 0.0
        public var descent = 0.0
        /// The splits: their length (m), how many are complete, the last complete one's seconds,
        /// and the one under way (metres and seconds so far).
        public var splitLength = 1000.0
        public var splits = 0
        public var lastSplit = Double.nan
        public var splitDistance = 0.0
        public var splitTime = 0.0
        public init(name: String, tags: [String], interval: String, points: Int, distance: Double) {
            (self.name, self.tags, self.interval, self.points, self.distance) = (name, tags, interval, points, distance)
        }
    }
    /// "stopped", "recording" or "paused".
    public var state: String
    public var autoPaused: Bool
    public var recording: Recording?
    public var message: String?
    public init(state: String, autoPaused: Bool, recording: Recording?, message: String?) {
        (self.state, self.autoPaused, self.recording, self.message) = (state, autoPaused, recording, message)
    }
}

/// A waypoint and the way to it (WAYPOINT): bearing and distance (m), how far to turn and the
/// time to go (s) when navigating.
public struct WaypointReport: Sendable {
    public var waypoint: Waypoint?
    public var bearing: Double?
    public var distance: Double?
    public var relativeBearing: Double?
    public var timeToGo: Double?
    public var message: String?
    /// While taking the person back along the track: the distance left to the start along it,
    /// the distance from the path, and whether that is off track.
    public var backtrack: (remaining: Double, crossTrack: Double, offTrack: Bool)?
    /// Within the arrival circle of the waypoint navigated to.
    public var arrived = false
    public init(
        waypoint: Waypoint?, bearing: Double? = nil, distance: Double? = nil, relativeBearing: Double? = nil,
        timeToGo: Double? = nil, message: String?
    ) {
        (self.waypoint, self.bearing, self.distance, self.relativeBearing, self.timeToGo, self.message) = (
            waypoint, bearing, distance, relativeBearing, timeToGo, message
        )
    }
}

/// A logging session (LOG): whether one runs, its figures, and what just happened.
public struct LogReport: Sendable {
    public struct Session: Sendable {
        public var id: String
        public var streams: [String]
        /// Seconds between records; 0 for every sample.
        public var interval: Double
        public var records: Int
        public var bytes: Int
        public var estimatedBytesPerHour: Double
        public var secondsLeft: Double?
        public init(id: String, streams: [String], interval: Double, records: Int, bytes: Int, estimatedBytesPerHour: Double, secondsLeft: Double?) {
            (self.id, self.streams, self.interval, self.records, self.bytes) = (id, streams, interval, records, bytes)
            (self.estimatedBytesPerHour, self.secondsLeft) = (estimatedBytesPerHour, secondsLeft)
        }
    }
    public var session: Session?
    public var message: String?
    public init(session: Session?, message: String?) { (self.session, self.message) = (session, message) }
}

/// The next departures from a stop of the imported timetable (DEPARTURES), times in its zone.
public struct DeparturesReport: Sendable {
    public struct Item: Sendable {
        public var time: Double, route: String, headsign: String, trip: String
        public var minutes: Int
        /// The person's mark on this trip or route ("Panta Rhei", rating 0 to 5).
        public var mark: (label: String, rating: Int)?
        /// The stop the trip calls at next, and the light it leaves in ("day", "twilight", "dark").
        public var next: String?
        public var light: String?
        /// The Zambretti forecast for the hours it sails in, when one was made in the 12 before.
        public var forecast: Zambretti.Forecast?
        public init(time: Double, route: String, headsign: String, trip: String, minutes: Int, mark: (label: String, rating: Int)? = nil) {
            (self.time, self.route, self.headsign, self.trip, self.minutes, self.mark) = (time, route, headsign, trip, minutes, mark)
        }
    }
    public var stopID: String, stopName: String
    public var zone: TimeZoneRules
    /// From the observer to the stop, when the stop was chosen as the nearest.
    public var distance: Double?, bearing: Double?
    public var departures: [Item]
    public var message: String?
    public init(stopID: String, stopName: String, zone: TimeZoneRules, distance: Double?, bearing: Double?, departures: [Item], message: String? = nil) {
        (self.stopID, self.stopName, self.zone, self.distance, self.bearing, self.departures, self.message) = (
            stopID, stopName, zone, distance, bearing, departures, message
        )
    }
}

/// The departure reminders set (REMINDERS): each an EVENT and the buzzer `minutes` before its
/// trip leaves its stop, kept across restarts until it fires or is cancelled.
public struct RemindersReport: Sendable {
    public struct Reminder: Sendable {
        public var id: String
        public var stopID: String, stopName: String
        public var zone: TimeZoneRules
        public var route: String, headsign: String, trip: String
        /// When the trip leaves, and when the reminder sounds (UTC seconds).
        public var departure: Double, at: Double
        public init(
            id: String, stopID: String, stopName: String, zone: TimeZoneRules, route: String, headsign: String, trip: String,
            departure: Double, at: Double
        ) {
            (self.id, self.stopID, self.stopName, self.zone) = (id, stopID, stopName, zone)
            (self.route, self.headsign, self.trip, self.departure, self.at) = (route, headsign, trip, departure, at)
        }
    }
    public var reminders: [Reminder]
    public var message: String?
    public init(reminders: [Reminder], message: String? = nil) { (self.reminders, self.message) = (reminders, message) }
}

/// The day's waves at a stop or a spot (WAVES), as `lodestone waves --json` writes them: the
/// members after the class, each already JSON.
public struct WavesReport: Sendable {
    public var members: [(key: String, json: String)]
    public init(members: [(key: String, json: String)]) { self.members = members }
}
