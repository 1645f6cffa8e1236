import Glibc
import LodestoneCore
import LodestoneOutputs
import LodestoneRuntime

/// `lodestone export-all` and `lodestone forget-all`: the person's records, taken away in one
/// archive or deleted (privacy).
enum PersonalDataCommands {
    static let exportHelp = """
    Usage: lodestone export-all [--out FILE.tar] [--data-dir DIR]

    Writes every stored track (GPX and its summary), the waypoints (GPX), every log session and
    snapshot, and a manifest to one tar archive (any tar or archive tool opens it), by default
    lodestone-export-YYYYMMDD-HHMMSS.tar in the current folder. An existing FILE is replaced
    only when it is a regular file.
    """

    static let forgetHelp = """
    Usage: lodestone forget-all --yes [--data-dir DIR] [--socket PATH]

    Deletes every stored record of where the device has been and what it measured there:
    tracks, waypoints, logs, snapshots, the pressure and altitude history, the alert history,
    the day's steps, the last position and the MQTT messages waiting to be sent. Calibrations
    and settings (alert rules, the display's theme and units) are kept. It cannot be undone,
    so it needs --yes; stop 'lodestone run' first (it refuses while the device runs).
    Take the records away first with 'lodestone export-all' if you want to keep them.
    """

    static func exportAll(_ arguments: ArraySlice<String>) throws(UsageError) -> Int32 {
        let options = try Options(arguments, spec: OptionSpec(valued: ["out", "data-dir"], flags: []), command: "export-all")
        guard options.positional.isEmpty else { throw UsageError(message: "'export-all' takes no arguments (give --out FILE.tar)") }
        let directory = options.values["data-dir"] ?? Configuration.defaultDataDirectory()
        let now = OutputClock.unixTime()
        let out = options.values["out"] ?? "lodestone-export-\(CivilTime(unixSeconds: now).compactStamp).tar"
        let (bytes, contents, warnings) = PersonalData.archive(dataDirectory: directory, now: now)
        for warning in warnings { Log.warning(warning) }
        do { try replaceFile(out, with: bytes) } catch {
            Log.error(error.description)
            return 1
        }
        writeOut("wrote \(out): \(contents.tracks) tracks, \(contents.waypoints) waypoints, \(contents.logs) log files, "
                 + "\(contents.snapshots) snapshot files (\(bytes.count / 1024) KiB)\n")
        return 0
    }

    static func forgetAll(_ arguments: ArraySlice<String>) throws(UsageError) -> Int32 {
        let options = try Options(arguments, spec: OptionSpec(valued: ["data-dir", "socket"], flags: ["yes"]), command: "forget-all")
        guard options.positional.isEmpty else { throw UsageError(message: "'forget-all' takes no arguments") }
        let directory = options.values["data-dir"] ?? Configuration.defaultDataDirectory()
        guard options.flags.contains("yes") else {
            throw UsageError(message: "forget-all deletes every track, waypoint, log and snapshot in \(directory) and cannot be undone: "
                             + "give --yes (and 'lodestone export-all' first to keep a copy)")
        }
        let socket = options.values["socket"] ?? Configuration.defaultSocketPath()
        if (try? ReportClient(path: socket)) != nil {
            Log.error("a running 'lodestone run' answers on \(socket) and records into its data directory: stop it first, then forget")
            return 1
        }
        let removed = PersonalData.forget(dataDirectory: directory)
        writeOut(removed.isEmpty ? "nothing to forget in \(directory)\n" : "forgot \(removed.joined(separator: ", ")) in \(directory)\n")
        return 0
    }
}
