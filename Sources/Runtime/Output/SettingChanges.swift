import LodestoneCore
import LodestoneEncoding
import LodestoneSettings

/// What a configuration read again changes, read off the settings table (`Setting.all`): each
/// changed setting is live or waits for a restart as its `reload` column says, so marking a
/// setting live in the table is what makes a reload take it.
struct SettingChanges {
    /// The changed settings the table marks live, in the table's order.
    private(set) var live: [Setting] = []
    /// The changed settings that wait for the next start.
    private(set) var restart: [Setting] = []

    init(running: Configuration, fresh: Configuration, table: [Setting] = Setting.all) {
        for setting in table where setting.current(running) != setting.current(fresh) {
            if setting.reload == .live { live.append(setting) } else { restart.append(setting) }
        }
    }

    /// What the device runs on after a reload: `fresh`, with `kept`'s values put back as they
    /// run, each through its own row of the table. Taking `fresh` whole and putting back is
    /// what keeps a group of rows whole (the MQTT rows share one value: storing them one by
    /// one over the running one could bring back an output the file has turned off).
    static func keeping(_ kept: [Setting], of running: Configuration, in fresh: Configuration) -> Configuration {
        var configuration = fresh
        for setting in kept {
            if let problem = setting.apply(setting.current(running), to: &configuration) {
                // A row that cannot store what it reports is the table's fault, not the file's.
                Log.error("setting \(problem.key) not kept as it runs: \(problem.text)")
            }
        }
        return configuration
    }

    /// One change as the log says it: "rates.imu 100 -> 50 Hz"; a whole object by its key.
    static func describe(_ setting: Setting, from running: Configuration, to fresh: Configuration) -> String {
        func text(_ value: JSONValue) -> String? {
            switch value {
            case .null: return "none"
            case .bool(let on): return on ? "true" : "false"
            case .number(let number, _): return DecimalText.compact(number, 3)
            case .string(let string): return string
            case .array, .object: return nil
            }
        }
        guard let old = text(setting.current(running)), let new = text(setting.current(fresh)) else { return setting.key }
        return "\(setting.key) \(old) -> \(new)" + (setting.unit.map { " " + $0 } ?? "")
    }
}
