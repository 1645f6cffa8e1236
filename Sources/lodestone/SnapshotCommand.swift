import LodestoneCore
import LodestoneDomain
import LodestoneOutputs
import LodestoneReports
import LodestoneRuntime
import LodestoneEncoding
import LodestoneSettings
import LodestoneStorage

/// `lodestone snapshot`: capture every current value (asked of the running instance) and
/// work with the stored snapshots.
enum SnapshotCommand {
    static let help = """
        Usage: lodestone snapshot take [--name NAME] [--notes TEXT]   [--socket PATH] [--json]
               lodestone snapshot list [--json]
               lodestone snapshot show ID
               lodestone snapshot delete ID
               lodestone snapshot export [ID] [--format json|csv]
               lodestone snapshot compare ID1 ID2 [--json]
               (all but take read --data-dir DIR)

        take asks the running instance to capture position, altitude, pressure, attitude, weather
        and the raw motion sensors at once (the snapshot button does the same). export writes one
        snapshot, or all of them, as JSON or CSV (a header row, one row per snapshot). compare
        gives every value's change from the first to the second, the time between them, and the
        distance and bearing from the first place to the second.

        Examples:
          lodestone snapshot take --name "Col de Balme" --notes "wind from the west"
          lodestone snapshot export --format csv > snapshots.csv
        """

    static func main(_ arguments: ArraySlice<String>) throws(UsageError) -> Int32 {
        let options = try Options(
            arguments, spec: OptionSpec(valued: ["name", "notes", "socket", "data-dir", "format"], flags: ["json"]),
            command: "snapshot")
        guard let action = options.positional.first else {
            throw UsageError(message: "snapshot what? take, list, show, delete, export or compare (see 'lodestone snapshot --help')")
        }
        let dataDirectory = options.values["data-dir"] ?? Configuration.defaultDataDirectory()
        let store = SnapshotStore(dataDirectory: dataDirectory)
        let ids = Array(options.positional.dropFirst())
        switch action {
        case "take":
            let request = SnapshotRequest(name: options.values["name"], notes: options.values["notes"])
            return LockCommand.exchange(
                request.text, socket: options.values["socket"], json: options.flags.contains("json"),
                answer: [#""class":"SNAPSHOT""#]
            ) { report in
                "snapshot \(report["id"]?.stringValue ?? "?") saved: \(report["name"]?.stringValue ?? "")"
            }
        case "list":
            let (all, warnings) = store.listReporting()
            for warning in warnings { Log.warning(warning) }
            if options.flags.contains("json") {
                writeOut(SnapshotJSON.list(all) + "\n")
            } else if all.isEmpty {
                writeOut("no snapshots in \(store.directory)\n")
            } else {
                for s in all {
                    let place = s.latitude.isFinite ? "  \(fixed(s.latitude, 5)), \(fixed(s.longitude, 5))" : ""
                    let pressure = s.seaLevelPressure.isFinite ? "  \(fixed(s.seaLevelPressure, 1)) hPa" : ""
                    writeOut("\(s.id)  \(CivilTime(unixSeconds: s.timestamp).iso8601)  \(s.name)\(place)\(pressure)\n")
                }
            }
            return 0
        case "show", "delete":
            guard let id = ids.first else { throw UsageError(message: "\(action) which snapshot? give its id from 'lodestone snapshot list'") }
            if action == "delete" {
                guard let change = StoreChange.begin(dataDirectory) else { return 1 }
                defer { withExtendedLifetime(change) {} }
                guard store.delete(id: id) else { Log.error("no snapshot '\(id)' in \(store.directory)"); return 1 }
                writeOut("deleted \(id)\n")
                return 0
            }
            guard let s = store.load(id: id) else { Log.error("no snapshot '\(id)' in \(store.directory)"); return 1 }
            writeOut(SnapshotJSON.object(s) + "\n")
            return 0
        case "export":
            let format = options.values["format"] ?? "json"
            guard format == "json" || format == "csv" else { throw UsageError(message: "--format takes json or csv") }
            var chosen = store.list()
            if let id = ids.first {
                guard let one = store.load(id: id) else { Log.error("no snapshot '\(id)' in \(store.directory)"); return 1 }
                chosen = [one]
            }
            writeOut(SnapshotStore.export(chosen, one: !ids.isEmpty, format: format))
            return 0
        case "compare":
            guard ids.count == 2 else { throw UsageError(message: "compare takes two snapshot ids") }
            guard let first = store.load(id: ids[0]), let second = store.load(id: ids[1]) else {
                Log.error("no snapshot '\(store.load(id: ids[0]) == nil ? ids[0] : ids[1])' in \(store.directory)")
                return 1
            }
            let c = first.comparison(to: second)
            if options.flags.contains("json") {
                writeOut(SnapshotJSON.comparison(first, second) + "\n")
            } else {
                writeOut("\(first.id) -> \(second.id): \(fixed(c.seconds / 60, 0)) min later")
                if let distance = c.distance { writeOut(", \(fixed(distance, 0)) m at \(fixed(c.bearing ?? 0, 0))°") }
                writeOut("\n")
                for (path, delta) in c.deltas where delta.isFinite && delta != 0 { writeOut("  \(path)  \(delta > 0 ? "+" : "")\(fixed(delta, 3))\n") }
            }
            return 0
        default:
            throw UsageError.unknown("snapshot action", action, among: ["take", "list", "show", "delete", "export", "compare"])
        }
    }
}
