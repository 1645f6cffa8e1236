import LodestoneCore
import LodestoneDomain
import LodestoneReports
import LodestoneEncoding

/// The alerts on disk: the person's rules in `<dataDir>/alerts.json` and every alert that
/// fired in `<dataDir>/alerts.rec` (the alert history, EVENT lines on the record log). Both
/// formats are this store's own (AlertFileFormat), written to read as the socket's ALERT items
/// and EVENTs so a person reading the files sees what a client saw.
public final class AlertStore {
    package let settingsPath: String
    let historyPath: String
    private var history: RecordLog?

    package init(dataDirectory: String, now: Double) {
        settingsPath = dataDirectory + "/alerts.json"
        historyPath = dataDirectory + "/alerts.rec"
        guard makeDirectories(dataDirectory) else { return }
        do {
            history = try RecordLog(path: historyPath, now: now)
            if let cut = history?.recovery, cut.cutBytes > 0 {
                Log.warning("\(historyPath): a torn end of \(cut.cutBytes) bytes was cut; \(cut.records) alerts kept")
            }
        } catch {
            Log.warning(error.description + ": alerts will not be kept in the history")
        }
    }

    /// The rules: the standard ones, with the person's settings over them. A damaged file is
    /// said, kept aside, and the standard rules stand in for what could not be read.
    package func loadRules(now: Double) -> AlertRules {
        var rules = AlertRules()
        guard fileExists(settingsPath) else { return rules }
        var problem: String?
        do {
            let json = try JSONValue.parse(try readStoreText(settingsPath))
            let items = json.arrayValue ?? []
            var skipped = json.arrayValue == nil ? 1 : 0
            for item in items {
                if let change = AlertFileFormat.change(item) { rules.set(change.applied(to: .standard(change.kind))) } else { skipped += 1 }
            }
            if skipped > 0 { problem = "\(skipped) entries are not alert rules and were skipped (the standard rules stand for them)" }
        } catch {
            problem = "\(error): the standard alert rules are used"
            if let aside = setAside(settingsPath, at: now) { problem = (problem ?? "") + "; the damaged file is kept as \(aside)" }
        }
        if let problem { Log.warning("\(settingsPath): \(problem)") }
        return rules
    }

    /// Saves the rules; false when the file cannot be written.
    package func saveRules(_ rules: [AlertRules.Rule]) -> Bool {
        let items = rules.map(AlertFileFormat.rule)
        return writeFileAtomically(settingsPath, Array(("[" + items.joined(separator: ",\n") + "]\n").utf8))
    }

    /// Appends an alert's EVENT to the history.
    package func record(_ alert: AlertRules.Alert, time: Double) {
        try? history?.append(Array(AlertFileFormat.historyLine(alert, time: time).utf8), now: time)
        history?.flush(now: time)
    }

    /// The stored alerts (EVENT lines), oldest first, for `lodestone alert history`.
    public static func lines(dataDirectory: String) throws(StorageError) -> [String] {
        try RecordLog.records(path: dataDirectory + "/alerts.rec").records.map { String(decoding: $0, as: UTF8.self) }
    }
}
