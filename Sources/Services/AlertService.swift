import LodestoneCore
import LodestoneDomain
import LodestoneReports
import LodestoneStorage

/// Weather and altitude alerts on the output thread: rules evaluated once a second (so an
/// alert is raised within a second or two of the crossing), their settings kept in
/// `<dataDir>/alerts.json`, every alert appended to `<dataDir>/alerts.rec` (the alert
/// history) and delivered as an EVENT, a log line, the alert pattern on the buzzer and LED,
/// and a line on the display.
package final class AlertService {
    let store: AlertStore
    private(set) var rules: AlertRules
    /// The newest alert, shown on the display for `shownFor` seconds.
    private(set) var latest: AlertRules.Alert?
    static let shownFor = 600.0

    init(dataDirectory: String, now: Double) {
        store = AlertStore(dataDirectory: dataDirectory, now: now)
        rules = store.loadRules(now: now)
    }

    /// Evaluates the rules at `time`; returns the EVENTs of the alerts that fired.
    func evaluate(time: Double, value: (AlertRules.Kind) -> Double) -> [Report] {
        let fired = rules.evaluate(time: time, value: value)
        guard !fired.isEmpty else { return [] }
        return fired.map { alert in
            latest = alert
            let report = Report.event(EventReport(.alert(alert), time: time))
            Log.warning("alert: " + alert.message)
            store.record(alert, time: time)
            return report
        }
    }

    /// The display's alert line while the newest alert is recent.
    package func displayLine(time: Double, _ language: Language = .en) -> String? {
        guard let latest, time - latest.time < Self.shownFor else { return nil }
        return latest.message(language)
    }

    /// SIGHUP: the rules file is read again (edited by hand, or by `lodestone alert set` from
    /// another instance); the names of the rules that changed. An unchanged rule keeps its
    /// armed state and cooldown.
    package func reloadRules(now: Double) -> [String] {
        let fresh = store.loadRules(now: now)
        var changed: [String] = []
        for rule in fresh.rules where rules.rule(rule.kind) != rule {
            rules.set(rule)
            changed.append(rule.kind.rawValue)
        }
        return changed
    }

    /// `?ALERT`: changes a rule (saved in the settings file), then lists the rules.
    package func handle(_ change: AlertRuleChange?) -> Report {
        if let change {
            rules.set(change.applied(to: rules.rule(change.kind) ?? .standard(change.kind)))
            if !store.saveRules(rules.rules) {
                return .error("cannot write \(store.settingsPath): the change holds until the next start")
            }
        }
        return .alertRules(AlertRulesReport(rules))
    }
}
