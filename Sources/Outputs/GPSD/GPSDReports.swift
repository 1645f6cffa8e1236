import LodestoneCore
import LodestoneDomain
import LodestoneReports
import LodestoneEncoding

/// The gpsd JSON adapter (protocol 3.x): turns reports into lines, with gpsd's names and units
/// for the classes gpsd defines (TPV, SKY, ATT, IMU, DEVICES, VERSION, WATCH, ERROR) and
/// Lodestone's classes for the rest (ENV, EVENT, HEALTH...). Each line is one JSON object
/// without the trailing newline, "class" first and "device" next when there is one.
public enum GPSDReports {
    public static let protocolMajor = 3
    public static let protocolMinor = 14
    public static let release = "lodestone " + Version.number

    /// The one place a report becomes a gpsd JSON line: written into `json` (emptied first),
    /// whose storage is kept from report to report.
    public static func write(_ report: Report, into json: inout JSONBuffer) {
        json.reset()
        switch report {
        case .position(let r): tpv(r, into: &json)
        case .satellites(let r): sky(r, into: &json)
        case .attitude(let r): att(r, into: &json)
        case .inertial(let r): imu(r, into: &json)
        case .environment(let r): env(r, into: &json)
        case .barometer(let r): baro(r, into: &json)
        case .motion(let r): motion(r, into: &json)
        case .event(let r): event(r, into: &json)
        case .sun(let r): sun(r, into: &json)
        case .track(let r): track(r, into: &json)
        case .waypoint(let r): waypoint(r, into: &json)
        case .alertRules(let r): alertRules(r, into: &json)
        case .log(let r): log(r, into: &json)
        case .snapshot(let s): snapshot(s, into: &json)
        case .departures(let r): departures(r, into: &json)
        case .reminders(let r): reminders(r, into: &json)
        case .waves(let r):
            json.beginReport("WAVES")
            for member in r.members {
                json.key(member.key)
                json.value(raw: member.json)
            }
            json.endObject()
        case .photo(let r): photo(r, into: &json)
        case .health(let r): health(r, into: &json)
        case .devices(let r): devices(r, into: &json)
        case .poll(let r): poll(r, into: &json)
        case .settings(let r):
            json.beginReport("CONFIG")
            json.key("settings")
            json.value(raw: "{" + r.settings.map { JSONObjectWriter.quoted($0.key) + ":" + $0.json }.joined(separator: ",") + "}")
            json.endObject()
        case .pairing(let r): pairing(r, into: &json)
        case .error(let message):
            json.beginReport("ERROR")
            json.string("message", message)
            json.endObject()
        }
    }

    /// A report's line as text (files, the command line, tests).
    public static func line(_ report: Report) -> String {
        var json = JSONBuffer()
        write(report, into: &json)
        return json.text
    }

    public static func tpv(_ report: PositionReport) -> String { line(.position(report)) }
    public static func sky(_ report: SatelliteReport) -> String { line(.satellites(report)) }
    public static func health(_ report: HealthReport) -> String { line(.health(report)) }

    public static func version() -> String {
        var w = JSONObjectWriter(class: "VERSION")
        w.string("release", release)
        w.string("rev", Version.revision)
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
            w.raw(
                "rates",
                "{"
                    + options.rates.keys.sorted().map { JSONObjectWriter.quoted($0) + ":" + JSONObjectWriter.format(options.rates[$0] ?? 0, decimals: 3) }
                    .joined(separator: ",") + "}")
        }
        return w.finished
    }

    public static func error(_ message: String) -> String { line(.error(message)) }

    /// A list of strings as a JSON array.
    static func strings(_ key: StaticString, _ items: [String], into w: inout JSONBuffer) {
        w.beginArray(key)
        for item in items { w.element(item) }
        w.endArray()
    }
}
