import LodestoneDomain
import LodestoneEncoding
import LodestoneReports

/// The alert files' entries. They are the store's own format, not a wire format borrowed from
/// the adapters: a rule is `{"name", "enabled", "threshold", "unit", "hysteresis", "cooldown"}`
/// (every field but the name may be left out), a history line an EVENT object with the alert's
/// kind, value, threshold, unit, message and time. Both keep the shape files written by earlier
/// releases have, so an upgrade reads every stored rule and alert.
enum AlertFileFormat {
    /// One rule as an entry of `alerts.json`.
    static func rule(_ rule: AlertRules.Rule) -> String {
        var w = JSONBuffer(capacity: 160)
        w.beginObject()
        w.string("name", rule.kind.rawValue)
        w.bool("enabled", rule.enabled)
        w.number("threshold", rule.threshold, decimals: 2)
        w.string("unit", rule.kind.unit)
        w.number("hysteresis", rule.hysteresis, decimals: 2)
        w.number("cooldown", rule.cooldown, decimals: 0)
        w.endObject()
        return w.text
    }

    /// One entry of `alerts.json` back: nil unless it names a rule and every figure it gives is
    /// in range (the rule's threshold range, `AlertRuleChange`'s hysteresis and cooldown), so a
    /// hand-edited file cannot set a rule the socket would refuse.
    static func change(_ json: JSONValue) -> AlertRuleChange? {
        guard let name = json["name"]?.stringValue, let kind = AlertRules.Kind(rawValue: name) else { return nil }
        var valid = true
        func figure(_ key: String, _ range: ClosedRange<Double>) -> Double? {
            guard let value = json[key] else { return nil }
            guard let number = value.numberValue, range.contains(number) else {
                valid = false
                return nil
            }
            return number
        }
        var enabled: Bool?
        if let flag = json["enabled"] {
            enabled = flag.boolValue
            if enabled == nil { valid = false }
        }
        let change = AlertRuleChange(
            kind: kind, enabled: enabled, threshold: figure("threshold", kind.thresholdRange),
            hysteresis: figure("hysteresis", AlertRuleChange.hysteresisRange), cooldown: figure("cooldown", AlertRuleChange.cooldownRange))
        return valid ? change : nil
    }

    /// One fired alert as a line of `alerts.rec`.
    static func historyLine(_ alert: AlertRules.Alert, time: Double) -> String {
        var w = JSONBuffer(capacity: 320)
        w.beginReport("EVENT")
        w.string("event", "alert")
        w.string("alert", alert.kind.rawValue)
        w.number("value", alert.value, decimals: 2)
        w.number("threshold", alert.threshold, decimals: 2)
        w.string("unit", alert.kind.unit)
        w.string("message", alert.message)
        w.time("time", time)
        w.endObject()
        return w.text
    }
}
