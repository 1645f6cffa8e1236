import LodestoneCore
import LodestoneSettings
import LodestoneSim

/// Which zone the device shows its times in: the `timeZone` setting; else a zone a paired
/// phone offered and the person took (kept in the data folder; it also stands in for a
/// setting of plain UTC, which on a device in the field means "not chosen"); else, on the
/// simulated board, the zone of the scenario's place (the world knows where it is: a trip off
/// Marseille should not read UTC); else the system's.
enum DeviceZone {
    /// Where the zone in force came from, as the web app is told (it offers the phone's zone
    /// only in place of the system's).
    enum Source: String {
        case configuration, phone, scenario, system
    }

    /// A zone by name (nil: the system's) and where it came from.
    struct Choice: Equatable {
        var name: String?
        var source: Source
    }

    /// The zone in force, and the one while `timeZone` is null (what a reload that removes the
    /// setting goes back to).
    static func resolve(_ c: Configuration, simulated: Bool, remembered: String?) -> (current: Choice, unset: Choice) {
        let scenario = simulated ? ScenarioName(rawValue: c.scenario).map { Scenario($0).timeZone } : nil
        let unset =
            remembered.map { Choice(name: $0, source: .phone) } ?? scenario.map { Choice(name: $0, source: .scenario) }
            ?? Choice(name: nil, source: .system)
        guard let configured = c.timeZone, !(remembered != nil && isUTC(configured)) else { return (unset, unset) }
        return (Choice(name: configured, source: .configuration), unset)
    }

    /// Whether the setting names UTC itself (the zone a phone may stand in for).
    static func isUTC(_ name: String?) -> Bool { ["UTC", "Etc/UTC", "GMT", "Z", "+00:00", "+0000", "+00"].contains(name ?? "") }

    /// The zone's rules; one that cannot be read is said once and UTC is used.
    static func rules(_ name: String?) -> TimeZoneRules {
        do { return try TimeZoneRules(name) } catch {
            Log.warning("\(error.description); times are shown in UTC")
            return .utc
        }
    }
}
