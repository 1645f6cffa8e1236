import Glibc
import LodestoneCore
import LodestoneOutputs
import LodestoneRuntime
import LodestoneEncoding
import LodestoneSettings
import LodestoneStorage

/// `lodestone export-all` and `lodestone forget-all`: the person's records, taken away in one
/// archive or deleted (privacy).
enum PersonalDataCommands {
    static let exportHelp = """
        Usage: lodestone export-all [--out FILE.tar] [--with-timetable] [--with-private] [--data-dir DIR]

        Writes everything the device keeps to one tar archive (any tar or archive tool opens it),
        by default lodestone-export-YYYYMMDD-HHMMSS.tar in the current folder: every track (and the
        one being recorded), the waypoints, every logging session, every snapshot, the alert rules
        and the alert history, the pressure and altitude history, the calibrations, what the device
        remembers (display choices, last position, the day's steps), your private places, and your
        timetable favourites and marks; with --with-timetable also the imported timetable. Each
        file is carried as stored, so 'lodestone import-all' restores it; a GPX copy of every track
        and of the waypoints (gpx/) is for other programs. The first file, manifest.json, lists
        every other file with its size and SHA-256 (check an unpacked archive with sha256sum).
        A private track (track start --private, track edit ID --private) is left out, and said,
        unless --with-private. An existing FILE is replaced only when it is a regular file.
        """

    static let importHelp = """
        Usage: lodestone import-all ARCHIVE [--merge|--replace] [--json] [--data-dir DIR] [--socket PATH]

        Restores an archive 'lodestone export-all' wrote. The whole archive is checked against its
        manifest first (every file there once, with its size and SHA-256; nothing else; no name
        reaching out of the data directory, no links): a damaged one is refused, saying what is
        wrong, and the data directory is left untouched.

          --merge    (the default) adds what is not here and changes nothing that is: an item
                     already here is skipped; a different track, log or snapshot under a taken id
                     is kept under a new id (20260621-080000-2); a different waypoint under a taken
                     name gets " (2)"; alerts the history lacks are added. Settings, calibrations
                     and the history this device has are kept. Importing twice adds nothing.
          --replace  makes every store the archive carries the archive's: what this device holds
                     and the archive does not is deleted (the timetable only when the archive
                     carries one).
          --json     a summary: {"archive","mode","imported":[..],"renamed":[{"from","to"}],
                     "skipped":[{"item","reason"}],"removed":[..]}

        Stop 'lodestone run' first (it refuses while the device runs: it records into that
        directory).
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
        let options = try Options(arguments, spec: OptionSpec(valued: ["out", "data-dir"], flags: ["with-timetable", "with-private"]), command: "export-all")
        guard options.positional.isEmpty else { throw UsageError(message: "'export-all' takes no arguments (give --out FILE.tar)") }
        let directory = options.values["data-dir"] ?? Configuration.defaultDataDirectory()
        let now = OutputClock.unixTime()
        let out = options.values["out"] ?? "lodestone-export-\(CivilTime(unixSeconds: now).compactStamp).tar"
        let progress = TerminalProgress()
        let (bytes, contents, warnings) = PersonalData.archive(
            dataDirectory: directory, now: now,
            withTimetable: options.flags.contains("with-timetable"),
            withPrivate: options.flags.contains("with-private")
        ) { store, done, total in
            progress.update("exporting \(store)", done: done, total: total, unit: "stores")
        }
        progress.finish()
        for warning in warnings { Log.warning(warning) }
        do { try replaceFile(out, with: bytes) } catch {
            Log.error(error.description)
            return 1
        }
        writeOut(
            "wrote \(out): \(contents.tracks) tracks, \(contents.waypoints) waypoints, \(contents.logSessions) log sessions "
                + "(\(contents.logs) files), \(contents.snapshots) snapshots, \(contents.photos) photos, \(contents.alerts) alerts; \(contents.files) files "
                + "(\(bytes.count / 1024) KiB)\n")
        return 0
    }

    static func importAll(_ arguments: ArraySlice<String>) throws(UsageError) -> Int32 {
        let options = try Options(
            arguments, spec: OptionSpec(valued: ["data-dir", "socket"], flags: ["merge", "replace", "json"]),
            command: "import-all")
        guard options.positional.count == 1, let archive = options.positional.first else {
            throw UsageError(message: "'import-all' takes one archive: lodestone import-all lodestone-export-YYYYMMDD-HHMMSS.tar")
        }
        guard !(options.flags.contains("merge") && options.flags.contains("replace")) else {
            throw UsageError(message: "give --merge or --replace, not both")
        }
        let mode: BackupRestore.Mode = options.flags.contains("replace") ? .replace : .merge
        let directory = options.values["data-dir"] ?? Configuration.defaultDataDirectory()
        let socket = options.values["socket"] ?? Configuration.clientSocketPath()
        if (try? ReportClient(path: socket)) != nil {
            Log.error("a running 'lodestone run' answers on \(socket) and records into its data directory: stop it first, then import")
            return 1
        }
        let backup: CheckedBackup
        do { backup = try CheckedBackup(try ArchiveFile(path: archive)) } catch {
            Log.error("\(archive) is refused: \(error.description); nothing was changed in \(directory)")
            return 1
        }
        guard makeDirectories(directory) else {
            Log.error("cannot create the data directory \(directory): \(String(cString: strerror(errno)))")
            return 1
        }
        guard let change = StoreChange.begin(directory) else { return 1 }
        defer { withExtendedLifetime(change) {} }
        let summary: BackupRestore.Summary
        var failure: String?
        var nothingChanged = false
        let progress = TerminalProgress()
        do {
            summary = try BackupRestore.restore(backup, into: directory, mode: mode) { store, done, total in
                progress.update("restoring \(store)", done: done, total: total, unit: "stores")
            }
        } catch {
            summary = error.summary
            failure = error.description
            nothingChanged = error.nothingChanged
        }
        progress.finish()
        if let failure, nothingChanged {
            // Refused before anything was written: said once, as a damaged archive is.
            Log.error("\(archive) is refused: \(failure); nothing was changed in \(directory)")
            return 1
        }
        if options.flags.contains("json") {
            var w = JSONObjectWriter()
            w.string("archive", archive)
            w.string("mode", mode.rawValue)
            w.raw("imported", "[" + summary.imported.map(JSONObjectWriter.quoted).joined(separator: ",") + "]")
            w.raw(
                "renamed",
                "["
                    + summary.renamed.map { "{\"from\":\(JSONObjectWriter.quoted($0.from)),\"to\":\(JSONObjectWriter.quoted($0.to))}" }
                    .joined(separator: ",") + "]")
            w.raw(
                "skipped",
                "["
                    + summary.skipped.map { "{\"item\":\(JSONObjectWriter.quoted($0.item)),\"reason\":\(JSONObjectWriter.quoted($0.reason))}" }
                    .joined(separator: ",") + "]")
            w.raw("removed", "[" + summary.removed.map(JSONObjectWriter.quoted).joined(separator: ",") + "]")
            if let failure { w.string("error", failure) }
            writeOut(w.finished + "\n")
        } else {
            for renamed in summary.renamed { writeOut("kept \(renamed.from) as \(renamed.to) (its id was taken by another)\n") }
            for skipped in summary.skipped where skipped.reason != "already there" { writeOut("skipped \(skipped.item): \(skipped.reason)\n") }
            let already = summary.skipped.filter { $0.reason == "already there" }.count
            writeOut(
                "imported \(summary.imported.count) items, \(summary.renamed.count) under new ids, \(already) already there"
                    + (summary.removed.isEmpty ? "" : ", \(summary.removed.count) removed") + " from \(archive) into \(directory) (\(mode.rawValue))\n")
        }
        if let failure {
            Log.error("the import stopped half-way: \(failure); what is listed above was imported, the rest was not")
            return 1
        }
        return 0
    }

    static func forgetAll(_ arguments: ArraySlice<String>) throws(UsageError) -> Int32 {
        let options = try Options(arguments, spec: OptionSpec(valued: ["data-dir", "socket"], flags: ["yes"]), command: "forget-all")
        guard options.positional.isEmpty else { throw UsageError(message: "'forget-all' takes no arguments") }
        let directory = options.values["data-dir"] ?? Configuration.defaultDataDirectory()
        guard options.flags.contains("yes") else {
            throw UsageError(
                message: "forget-all deletes every track, waypoint, log and snapshot in \(directory) and cannot be undone: "
                    + "give --yes (and 'lodestone export-all' first to keep a copy)")
        }
        let socket = options.values["socket"] ?? Configuration.clientSocketPath()
        if (try? ReportClient(path: socket)) != nil {
            Log.error("a running 'lodestone run' answers on \(socket) and records into its data directory: stop it first, then forget")
            return 1
        }
        guard let change = StoreChange.begin(directory) else { return 1 }
        defer { withExtendedLifetime(change) {} }
        let removed = PersonalData.forget(dataDirectory: directory)
        writeOut(removed.isEmpty ? "nothing to forget in \(directory)\n" : "forgot \(removed.joined(separator: ", ")) in \(directory)\n")
        return 0
    }
}
