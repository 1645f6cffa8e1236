import LodestoneCore
import LodestoneDomain

/// What clients ask of the device, as values: the socket's decoders make them from a request's
/// JSON, every field range-checked, and the services carry them out.

/// `?CALIBRATE;` starts a guided calibration (of the compass's own kind unless a mode is
/// given); `{"cancel":true}` ends it.
public enum CalibrateRequest: Sendable, Equatable {
    case start(CalibrationMode?)
    case cancel
}

/// `?LOCK;` locks the current heading, `{"bearing":DEG}` a given one.
public struct LockRequest: Sendable, Equatable {
    public var bearing: Double?
    public init(bearing: Double?) { self.bearing = bearing }
}

/// `?LEVEL;` reports; `{"zero":true}` takes the current roll and pitch as level, `{"clear":true}` forgets it.
public enum LevelRequest: Sendable, Equatable {
    case report, zero, clear
}

/// `?TRACK;` reports; `{"action":"start"|"pause"|"resume"|"stop", ...}` acts.
public enum TrackRequest: Sendable, Equatable {
    case report
    /// Tags as the person wrote them (normalised where they are stored).
    case start(name: String?, tags: [String], mode: TrackSampler.Mode?, notes: String? = nil, isPrivate: Bool = false)
    case pause, resume, stop
}

/// `?WAYPOINT;` reports; `{"action":"add"|"goto"|"nearest"|"stop", ...}` acts.
public enum WaypointRequest: Sendable, Equatable {
    case report
    /// Where: the given coordinates, or the current fix when they are not given.
    /// A waypoint given by coordinates has the elevation given, or none; one saved at the
    /// current position has the fix's altitude.
    case add(name: String, latitude: Double?, longitude: Double?, elevation: Double? = nil, symbol: String?, notes: String?)
    /// Take me back along the recorded track to its start.
    case back
    case goto(name: String)
    case nearest, stop
    /// Gives a saved waypoint another name (a place saved with one tap is named later).
    case rename(name: String, to: String)
    case delete(name: String)
}

/// `?BARO;` reports; `{"qnh":HPA}` sets the reference, `{"altitude":M}` derives it from a known altitude.
public enum BaroRequest: Sendable, Equatable {
    case report
    case qnh(Double)
    case altitude(Double)
}

/// `?ALERT;` lists the rules; `{"name":..,"enabled":..,"threshold":..,"hysteresis":..,"cooldown":..}`
/// changes one (the fields not given keep their value).
public struct AlertRuleChange: Sendable, Equatable {
    public var kind: AlertRules.Kind
    public var enabled: Bool?
    public var threshold: Double?
    public var hysteresis: Double?
    public var cooldown: Double?
    public init(kind: AlertRules.Kind, enabled: Bool? = nil, threshold: Double? = nil, hysteresis: Double? = nil, cooldown: Double? = nil) {
        (self.kind, self.enabled, self.threshold, self.hysteresis, self.cooldown) = (kind, enabled, threshold, hysteresis, cooldown)
    }

    /// The hysteresis and the cooldown a rule may have (the threshold's range is the kind's):
    /// one rule for the socket's `?ALERT` and the rules file alike.
    public static let hysteresisRange = 0.0...1000, cooldownRange = 0.0...604_800

    /// `base` with the given fields changed.
    public func applied(to base: AlertRules.Rule) -> AlertRules.Rule {
        var rule = base
        if let enabled { rule.enabled = enabled }
        if let threshold { rule.threshold = threshold }
        if let hysteresis { rule.hysteresis = hysteresis }
        if let cooldown { rule.cooldown = cooldown }
        return rule
    }
}

/// `?LOG;` reports; `{"action":"start","interval":S|"every","streams":[..],"duration":S}` or `"stop"`.
public enum LogRequest: Sendable, Equatable {
    case report
    /// `interval` 0 records every barometer sample.
    case start(interval: Double, streams: [String], duration: Double?)
    case stop

    /// The values a logging session can record, by name.
    public static let streams = [
        "pressure", "seaLevelPressure", "altitude", "temperature", "humidity", "latitude", "longitude",
        "gpsAltitude", "speed", "course", "heading", "roll", "pitch",
        "waterTemperature", "windSpeed", "windGust", "windDirection"
    ]
    public static let defaultStreams = ["pressure", "seaLevelPressure", "altitude", "temperature"]
}

/// `?DEPARTURES;` the next departures from the favourite or the nearest stop (`"stop":"nearest"`
/// the nearest whatever the favourites);
/// `{"stop":NAME|ID,"count":N,"at":ISO-8601|YYYY-MM-DD}` from a stop, after a moment or from the
/// start of a local day there; `{"remind":TRIP,"minutes":M}`
/// sets a reminder (as ?REMINDER does) M minutes before that trip leaves the stop.
public struct DeparturesRequest: Sendable, Equatable {
    public var stop: String?
    public var count: Int
    public var remind: String?
    public var minutes: Double
    /// The moment to list from (UTC seconds); nil: now.
    public var at: Double?
    /// Or a local date at the stop ("YYYY-MM-DD"): from the start of that day there.
    public var day: String?
    public init(stop: String? = nil, count: Int = 3, remind: String? = nil, minutes: Double = 10, at: Double? = nil, day: String? = nil) {
        (self.stop, self.count, self.remind, self.minutes, self.at, self.day) = (stop, count, remind, minutes, at, day)
    }
}

/// `?REMINDER;` lists the departure reminders; `{"trip":TRIP,"stop":NAME|ID,"minutes":M}` adds
/// one (the stop defaults as ?DEPARTURES does); `{"cancel":ID}` cancels one.
public enum ReminderRequest: Sendable, Equatable {
    case list
    case add(trip: String, stop: String?, minutes: Double)
    case cancel(id: String)
}

/// `?SNAPSHOT={"name":..,"notes":..}` captures every current value.
public struct SnapshotRequest: Sendable, Equatable {
    public var name: String?
    public var notes: String?
    public init(name: String?, notes: String?) { (self.name, self.notes) = (name, notes) }
}

/// `?WEBFORGET={"id":"3fa2c1"};`: revokes a browser paired with the web app.
public struct WebForgetRequest: Sendable, Equatable {
    public var id: String
    public init(id: String) { self.id = id }
}

/// `?WAVES={"stop":NAME|ID,"date":"YYYY-MM-DD"}` or `{"spot":[LAT,LON],"radius":M,"date":..}`:
/// the day's waves there (the date: today at the place when not given).
public struct WavesRequest: Sendable, Equatable {
    public enum Place: Sendable, Equatable {
        case stop(String)
        case spot(latitude: Double, longitude: Double, radius: Double)
    }
    public var place: Place
    public var date: String?
    public init(place: Place, date: String? = nil) { (self.place, self.date) = (place, date) }
}
