import LodestoneCore
import LodestoneDomain
import LodestoneOutputs

/// Weather and altitude alerts on the output thread: rules evaluated once a second (so an
/// alert is raised within a second or two of the crossing), their settings kept in
/// `<dataDir>/alerts.json`, every alert appended to `<dataDir>/alerts.rec` (the alert
/// history) and delivered as an EVENT, a log line, the alert pattern on the buzzer and LED,
/// and a line on the display.
final class AlertService {
    let settingsPath: String
    let historyPath: String
    private(set) var rules: AlertRules
    private var history: RecordLog?
    /// The newest alert, shown on the display for `shownFor` seconds.
    private(set) var latest: AlertRules.Alert?
    static let shownFor = 600.0

    init(dataDirectory: String, now: Double) {
        settingsPath = dataDirectory + "/alerts.json"
        historyPath = dataDirectory + "/alerts.rec"
        rules = AlertRules()
        if fileExists(settingsPath) {
            // The person's own settings: a damaged file is said, kept aside, and the standard
            // rules stand in for what could not be read.
            var problem: String?
            do {
                let json = try JSONValue.parse(try readTextFile(settingsPath))
                let items = json.arrayValue ?? []
                var skipped = json.arrayValue == nil ? 1 : 0
                for item in items {
                    if let rule = try? Self.rule(from: item, base: nil) { rules.set(rule) } else { skipped += 1 }
                }
                if skipped > 0 { problem = "\(skipped) entries are not alert rules and were skipped (the standard rules stand for them)" }
            } catch {
                problem = "\(error): the standard alert rules are used"
                if let aside = setAside(settingsPath, at: now) { problem = (problem ?? "") + "; the damaged file is kept as \(aside)" }
            }
            if let problem { Log.warning("\(settingsPath): \(problem)") }
        }
        if makeDirectories(dataDirectory) {
            do {
                history = try RecordLog(path: historyPath, now: now)
                if let cut = history?.recovery, cut.cutBytes > 0 {
                    Log.warning("\(historyPath): a torn end of \(cut.cutBytes) bytes was cut; \(cut.records) alerts kept")
                }
            } catch {
                Log.warning(error.description + ": alerts will not be kept in the history")
            }
        }
    }

    /// Evaluates the rules; returns the EVENT lines of the alerts that fired.
    func evaluate(_ values: [AlertRules.Kind: Double], time: Double, wallClock: String) -> [String] {
        rules.evaluate(values, time: time).map { alert in
            latest = alert
            let line = Self.event(alert, time: wallClock)
            Log.warning("alert: " + alert.message)
            try? history?.append(Array(line.utf8), now: time)
            history?.flush(now: time)
            return line
        }
    }

    /// The display's alert line while the newest alert is recent.
    func displayLine(time: Double) -> String? {
        guard let latest, time - latest.time < Self.shownFor else { return nil }
        return latest.message
    }

    /// `?ALERT={"name":"pressureLow","enabled":true,"threshold":985,"hysteresis":1,"cooldown":3600}`;
    /// no argument lists the rules.
    func handle(_ argument: JSONValue?) -> String {
        if let argument {
            guard let name = argument["name"]?.stringValue, let kind = AlertRules.Kind(rawValue: name) else {
                return GPSDReports.error("?ALERT name must be one of " + AlertRules.Kind.allCases.map(\.rawValue).joined(separator: ", "))
            }
            do {
                rules.set(try Self.rule(from: argument, base: rules.rule(kind)))
            } catch {
                return GPSDReports.error(error.description)
            }
            let items = rules.rules.map(Self.json)
            if !writeFileAtomically(settingsPath, Array(("[" + items.joined(separator: ",\n") + "]\n").utf8)) {
                return GPSDReports.error("cannot write \(settingsPath): the change holds until the next start")
            }
        }
        var w = JSONObjectWriter(class: "ALERT")
        w.raw("rules", "[" + rules.rules.map(Self.json).joined(separator: ",") + "]")
        return w.finished
    }

    static func json(_ rule: AlertRules.Rule) -> String {
        var w = JSONObjectWriter()
        w.string("name", rule.kind.rawValue)
        w.bool("enabled", rule.enabled)
        w.number("threshold", rule.threshold, decimals: 2)
        w.string("unit", rule.kind.unit)
        w.number("hysteresis", rule.hysteresis, decimals: 2)
        w.number("cooldown", rule.cooldown, decimals: 0)
        return w.finished
    }

    struct BadRule: Error, CustomStringConvertible { var description: String }

    /// A rule from JSON, starting from `base` (or the standard rule) for the fields not given.
    static func rule(from json: JSONValue, base: AlertRules.Rule?) throws(BadRule) -> AlertRules.Rule {
        guard let name = json["name"]?.stringValue, let kind = AlertRules.Kind(rawValue: name) else { throw BadRule(description: "unknown alert") }
        var rule = base ?? AlertRules.Rule.standard(kind)
        if let value = json["enabled"] {
            guard let flag = value.boolValue else { throw BadRule(description: "?ALERT enabled must be true or false") }
            rule.enabled = flag
        }
        for (key, range) in [("threshold", kind.thresholdRange), ("hysteresis", 0.0...1000.0), ("cooldown", 0.0...604_800.0)] {
            guard let value = json[key] else { continue }
            guard let number = value.numberValue, range.contains(number) else {
                let unit = key == "threshold" ? " " + kind.unit : (key == "cooldown" ? " s" : " " + kind.unit)
                throw BadRule(description: "?ALERT \(key) for \(name) must be a number from \(DecimalText.format(range.lowerBound, 1)) to "
                    + "\(DecimalText.format(range.upperBound, 1))\(unit)")
            }
            switch key {
            case "threshold": rule.threshold = number
            case "hysteresis": rule.hysteresis = number
            default: rule.cooldown = number
            }
        }
        return rule
    }

    /// EVENT "alert": which, the value and threshold with their unit, and what it means.
    static func event(_ alert: AlertRules.Alert, time: String) -> String {
        var w = JSONObjectWriter(class: "EVENT")
        w.string("event", "alert")
        w.string("alert", alert.kind.rawValue)
        w.number("value", alert.value, decimals: 2)
        w.number("threshold", alert.threshold, decimals: 2)
        w.string("unit", alert.kind.unit)
        w.string("message", alert.message)
        w.string("time", time)
        return w.finished
    }
}

/// The alert history on disk, for `lodestone alert history`.
public enum AlertLog {
    /// The stored alerts (EVENT lines), oldest first.
    public static func lines(dataDirectory: String) throws(StorageError) -> [String] {
        try RecordLog.records(path: dataDirectory + "/alerts.rec").records.map { String(decoding: $0, as: UTF8.self) }
    }
}
