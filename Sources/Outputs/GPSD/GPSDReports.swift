import LodestoneCore
import LodestoneDomain
import LodestoneReports

/// The gpsd JSON adapter (protocol 3.x): turns reports into lines, with gpsd's names and units
/// for the classes gpsd defines (TPV, SKY, ATT, IMU, DEVICES, VERSION, WATCH, ERROR) and
/// Lodestone's classes for the rest (ENV, EVENT, HEALTH...). Each line is one JSON object
/// without the trailing newline, "class" first and "device" next when there is one.
public enum GPSDReports {
    public static let protocolMajor = 3
    public static let protocolMinor = 14
    public static let release = "lodestone 0.1.0"

    /// The one place a report becomes a gpsd JSON line.
    public static func line(_ report: Report) -> String {
        switch report {
        case .position(let r): return tpv(r)
        case .satellites(let r): return sky(r)
        case .attitude(let r): return att(r)
        case .inertial(let r): return imu(r)
        case .environment(let r): return env(r)
        case .barometer(let r): return baro(r)
        case .motion(let r): return motion(r)
        case .event(let r): return event(r)
        case .sun(let r): return sun(r)
        case .track(let r): return track(r)
        case .waypoint(let r): return waypoint(r)
        case .alertRules(let r): return alertRules(r)
        case .log(let r): return log(r)
        case .snapshot(let s): return snapshot(s)
        case .health(let r): return health(r)
        case .devices(let r): return devices(r)
        case .poll(let r): return poll(r)
        case .error(let message): return error(message)
        }
    }

    public static func version() -> String {
        var w = JSONObjectWriter(class: "VERSION")
        w.string("release", release)
        w.string("rev", "0.1.0")
        w.integer("proto_major", protocolMajor)
        w.integer("proto_minor", protocolMinor)
        return w.finished
    }

    /// The options in force, as gpsd answers ?WATCH (with Lodestone's `rates` when set).
    public static func watch(_ options: WatchOptions) -> String {
        var w = JSONObjectWriter(class: "WATCH")
        w.bool("enable", options.enabled)
        w.bool("json", options.json)
        w.bool("nmea", options.nmea)
        w.integer("raw", options.raw)
        w.bool("scaled", options.scaled)
        w.bool("timing", options.timing)
        w.bool("split24", options.split24)
        w.bool("pps", options.pps)
        if let device = options.device { w.string("device", device) }
        if !options.rates.isEmpty {
            w.raw("rates", "{" + options.rates.keys.sorted().map { JSONObjectWriter.quoted($0) + ":" + JSONObjectWriter.format(options.rates[$0] ?? 0, decimals: 3) }.joined(separator: ",") + "}")
        }
        return w.finished
    }

    public static func error(_ message: String) -> String {
        var w = JSONObjectWriter(class: "ERROR")
        w.string("message", message)
        return w.finished
    }

    /// A UTC time on the device's time base as the reports write it.
    static func iso(_ utc: Double) -> String { CivilTime(unixSeconds: utc).iso8601 }

    /// A list of strings as a JSON array.
    static func strings(_ items: [String]) -> String { "[" + items.map(JSONObjectWriter.quoted).joined(separator: ",") + "]" }
}
