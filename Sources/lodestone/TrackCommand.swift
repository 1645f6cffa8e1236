import LodestoneCore
import LodestoneDomain
import LodestoneOutputs
import LodestoneReports
import LodestoneRuntime
import LodestoneEncoding
import LodestoneSettings
import LodestoneStorage

/// `lodestone track`: record on a running instance (start, pause, resume, stop) and work
/// with stored tracks (list, show, export, delete).
enum TrackCommand {
    static let help = """
        Usage: lodestone track start [--name NAME] [--tags a,b] [--notes TEXT] [--interval 1..30|adaptive] [--private] [--socket PATH]
               lodestone track pause | resume | stop   [--socket PATH]
               lodestone track back                    [--socket PATH]   (take me back along it to the start)
               lodestone track list [--search TEXT] [--tag TAG] [--since YYYY-MM-DD] [--until YYYY-MM-DD]
                                    [--min-km KM] [--max-km KM] [--sort date|distance|duration|pace|name]
                                    [--page N] [--units metric|imperial|nautical] [--json]
               lodestone track show ID [--units SET] [--json]
               lodestone track show ID --plot [--out FILE.png] [--size WxH] [--heading-up] [--units SET] [--theme day|night]
               lodestone track card ID --output FILE.png [--units SET] [--language en|de] [--tz ZONE]
               lodestone track export ID [--format gpx|csv|json] [--private] [--trim "LAT,LON[,M];..."] [--keep-times]
               lodestone track export ID --with-photos [--out FILE.tar] [--private] [--trim ...]
               lodestone track edit ID [--name NAME] [--notes TEXT] [--private|--public]   (rename ID NAME is --name)
               lodestone track import FILE.gpx|FILE.json [--tags a,b]
               lodestone track delete ID [--yes]
               (the stored-track commands take --data-dir DIR)

        Recording runs in 'lodestone run': a point every 5 s while moving (or every 1..30 s, or
        adaptive: on every turn, every 50 m and at least every 30 s), paused by itself while
        standing still (no phantom distance), written so that a power cut loses at most the last
        second; after a crash the next start continues the track. The track button on a board's
        GPIO starts and stops it too.

        show --plot draws the track as the device's track page does: the path with its start (S),
        end (@) and the waypoints near it, north (or the last leg's course, --heading-up) up, a
        scale bar, the elevation profile and the kilometre splits; to the terminal, or to a PNG
        with --out (default 800x480).

        card draws the card to share a finished track: a square PNG (1080 x 1080) with its name,
        when and where it began (in the device's zone), the route as the track page draws it,
        and the distance, moving time, climb and pace (or average speed) large. The web app
        shares the same card (GET /api/v1/tracks/ID/card.png).

        import brings tracks in from a GPX file (1.0 or 1.1, from any app: every track with its
        segments, elevations and times) or from 'track export --format json' (one track or a
        list): each becomes a track like any other (list, show, plot, export, the way back). A
        track without times keeps its shape and says it has none. A file with a point that is
        wrong is refused with its line, and nothing is added.

        edit renames a stored track and gives it notes after the fact (the export's name and
        description). delete asks first on a terminal; elsewhere (a script) it needs --yes.

        show prints the summary: distance, moving and total time, average and best pace, the
        splits per kilometre (per mile with --units imperial, nautical mile with nautical),
        elevation gain and loss past a 3 m dead band, the highest and lowest points; --json the
        whole track with its points.

        list finds stored tracks, 50 to a page (--page N for the next): every word of --search
        must be in the name, the id or a tag; --since and --until take UTC dates (--until is
        inclusive); --sort date (newest first, the default), distance, duration, pace (fastest
        first) or name. A private track (edit --private) never leaves the device by MQTT and is
        left out of export-all unless asked. export writes GPX 1.1 (for every
        GPS app), CSV or JSON to stdout. To share a track without showing where you live, --private
        drops every point within 500 m of the places listed in <data-dir>/private-places (one
        "LAT,LON" or "LAT,LON,RADIUS_M" per line) and of those given with --trim, and drops the
        times (--keep-times keeps them). --with-photos writes a tar (default ID.tar) of the GPX
        and the track's photos (photos/); with --private the photos taken inside those places are
        left out and the others lose the position in their EXIF.

        Examples:
          lodestone track start --name "Ridge walk" --tags hike,alps --interval adaptive
          lodestone track list --search ridge --since 2026-06-01 --sort longest
          lodestone track export 20260621-080000 > ridge.gpx
          lodestone track export 20260621-080000 --private --trim 47.3769,8.5417 > share.gpx
        """

    static func main(_ arguments: ArraySlice<String>) throws(UsageError) -> Int32 {
        let options = try Options(
            arguments,
            spec: OptionSpec(
                valued: [
                    "name", "tags", "interval", "socket", "data-dir", "search", "tag", "units",
                    "since", "until", "min-km", "max-km", "sort", "format", "trim", "notes", "out", "size", "theme", "page", "config", "output",
                    "language", "tz"
                ],
                flags: ["json", "private", "public", "keep-times", "yes", "plot", "heading-up", "with-photos"]), command: "track")
        guard let action = options.positional.first else {
            throw UsageError(
                message: "track what? start, pause, resume, stop, list, show, card, export, import, edit, rename or delete (see 'lodestone track --help')")
        }
        let dataDirectory = options.values["data-dir"] ?? Configuration.defaultDataDirectory()
        let store = TrackStore(dataDirectory: dataDirectory)
        let id = options.positional.count > 1 ? options.positional[1] : nil
        switch action {
        case "start", "pause", "resume", "stop":
            var mode: TrackSampler.Mode?
            if let interval = options.values["interval"] {
                guard let parsed = TrackSampler.Mode(interval) else {
                    throw UsageError(message: "--interval takes seconds from 1 to 30 or 'adaptive', not '\(interval)'")
                }
                mode = parsed
            }
            let tags = options.values["tags"].map { $0.split(separator: ",").map(String.init) } ?? []
            let request: TrackRequest
            switch action {
            case "start":
                if let notes = options.values["notes"], notes.utf8.count > 4000 { throw UsageError(message: "notes are at most 4000 bytes") }
                request = .start(
                    name: options.values["name"], tags: tags, mode: mode, notes: options.values["notes"],
                    isPrivate: options.flags.contains("private"))
            case "pause": request = .pause
            case "resume": request = .resume
            default: request = .stop
            }
            return LockCommand.exchange(
                request.text, socket: options.values["socket"], json: options.flags.contains("json"),
                answer: [#""class":"TRACK""#]
            ) { report in
                let state = report["state"]?.stringValue ?? "?"
                let detail = report["message"]?.stringValue.map { ": " + $0 } ?? ""
                return "track \(state)\(detail)"
            }
        case "list":
            return try TrackListCommand.run(options, store: store)
        case "import":
            guard let file = id else { throw UsageError(message: "import which file? 'lodestone track import walk.gpx' (GPX or JSON)") }
            // The largest file taken is a setting (tracks.importMaxMB) of the configuration file.
            let importLimit: Int
            do { importLimit = try Configuration.commandConfiguration(options.values["config"]).trackImportLimit } catch {
                Log.error(error.description)
                return 1
            }
            // Each point is written as it is read (what the import holds does not grow with
            // the file), so the data directory is held from the start; the tracks are filed
            // only once the whole file has been read.
            guard let change = StoreChange.begin(dataDirectory) else { return 1 }
            defer { withExtendedLifetime(change) {} }
            let tags = options.values["tags"].map { TrackFile.tags($0) } ?? []
            let imported: [TrackStore.Imported]
            let progress = TerminalProgress()
            defer { progress.finish() }
            do {
                imported = try store.importTracks(file: file, limit: importLimit, tags: tags) { read, size in
                    progress.update("reading \(file)", done: read, total: size, unit: "MB")
                }
            } catch {
                progress.finish()
                switch error {
                case .reading(let why): Log.error("\(file): \(why); nothing was imported")
                case .storing(let why): Log.error(why.description)
                }
                return 1
            }
            progress.finish()
            for warning in imported.flatMap(\.warnings) { Log.warning("\(file): \(warning)") }
            for track in imported {
                let summary = track.summary
                writeOut(
                    "imported \(summary.id)  \(((try? Units.option(options)) ?? .metric).distance(summary.distance))  \(summary.points) points  \(summary.name)"
                        + (track.timeless ? "  (no times in the file: its shape only)" : "") + "\n")
            }
            return 0
        case "back":
            // The way back is navigation, answered as WAYPOINT (see 'lodestone waypoint back').
            return try WaypointCommand.main(["back"] + options.passThrough(["socket", "json"]))
        case "edit", "rename":
            guard let id else { throw UsageError(message: "\(action) which track? give its id from 'lodestone track list'") }
            let name = action == "rename" ? (options.positional.count > 2 ? options.positional[2] : nil) : options.values["name"]
            if action == "rename" && name == nil { throw UsageError(message: "rename \(id) to what? 'lodestone track rename ID \"New name\"'") }
            if options.flags.contains("private") && options.flags.contains("public") { throw UsageError(message: "--private or --public, not both") }
            let privacy: Bool? = options.flags.contains("private") ? true : (options.flags.contains("public") ? false : nil)
            guard name != nil || options.values["notes"] != nil || privacy != nil else {
                throw UsageError(message: "edit needs --name, --notes, --private or --public")
            }
            if let name, name.isEmpty || name.utf8.count > 200 { throw UsageError(message: "a track's name is 1 to 200 bytes") }
            if let notes = options.values["notes"], notes.utf8.count > 4000 { throw UsageError(message: "notes are at most 4000 bytes") }
            guard let change = StoreChange.begin(dataDirectory) else { return 1 }
            defer { withExtendedLifetime(change) {} }
            do {
                let summary = try store.edit(id: id, name: name, notes: options.values["notes"], isPrivate: privacy)
                writeOut(
                    "\(id): \"\(summary.name)\"" + (summary.notes.isEmpty ? "" : ", notes: \(summary.notes)")
                        + (summary.isPrivate ? ", private" : "") + "\n")
                return 0
            } catch {
                Log.error(error.description)
                return 1
            }
        case "card":
            guard let id else { throw UsageError(message: "card of which track? give its id from 'lodestone track list'") }
            return try TrackCardCommand.run(id: id, store: store, dataDirectory: dataDirectory, options: options)
        case "show", "export", "delete":
            guard let id else { throw UsageError(message: "\(action) which track? give its id from 'lodestone track list'") }
            if action == "delete" {
                guard let summary = try? store.summary(id: id) else { Log.error("no track '\(id)' in \(store.directory)"); return 1 }
                if !options.flags.contains("yes") {
                    let what = "\(id) \"\(summary.name)\" (\(((try? Units.option(options)) ?? .metric).distance(summary.distance)), \(summary.points) points)"
                    guard Confirmation.isInteractive else {
                        throw UsageError(message: "deleting \(what) cannot be undone: give --yes to delete without a terminal to ask on")
                    }
                    guard Confirmation.ask("Delete \(what)? This cannot be undone. [y/N] ") else {
                        writeOut("kept \(id)\n")
                        return 1
                    }
                }
                guard let change = StoreChange.begin(dataDirectory) else { return 1 }
                defer { withExtendedLifetime(change) {} }
                guard store.delete(id: id) else { Log.error("no track '\(id)' in \(store.directory)"); return 1 }
                writeOut("deleted \(id)\n")
                return 0
            }
            if action == "show" && options.flags.contains("plot") { return try TrackPlotCommand.run(id: id, store: store, options: options) }
            if action == "show" && !options.flags.contains("json") {
                // A terminal gets the summary a runner reads; the points are --json's.
                guard let track = store.loadWithPhotos(id: id), let summary = try? store.summary(id: id) else {
                    Log.error("no track '\(id)' in \(store.directory); see 'lodestone track list'")
                    return 1
                }
                if let warning = track.warning { Log.warning(warning) }
                writeOut(
                    TrackSummaryText.text(
                        summary: summary, points: track.points, timeless: summary.timeless, units: try Units.option(options),
                        photos: track.photos))
                return 0
            }
            let format = action == "show" ? "json" : (options.values["format"] ?? "gpx")
            guard ["gpx", "csv", "json"].contains(format) else { throw UsageError(message: "--format takes gpx, csv or json") }
            guard store.contains(id: id) else {
                Log.error("no track '\(id)' in \(store.directory); see 'lodestone track list'")
                return 1
            }
            let directory = options.values["data-dir"] ?? Configuration.defaultDataDirectory()
            if options.flags.contains("private"), let problem = privatePlacesProblem(dataDirectory: directory) {
                // The user's own file is wrong, not the command line: exit 1, not 2.
                Log.error(problem)
                return 1
            }
            let privacy = try privacyTrim(options, dataDirectory: directory)
            if let privacy, privacy.places.isEmpty {
                Log.warning("--private: no places to trim (add them to the private-places file or give --trim); times are still dropped")
            }
            if options.flags.contains("with-photos") {
                let out = options.values["out"] ?? id + ".tar"
                guard let made = store.exportWithPhotos(id: id, privacy: privacy, now: OutputClock.unixTime()) else {
                    Log.error("no track '\(id)' in \(store.directory); see 'lodestone track list'")
                    return 1
                }
                for file in made.missing { Log.warning("photo \(file) is not in the photos folder: left out") }
                do { try replaceFile(out, with: made.archive) } catch {
                    Log.error(error.description)
                    return 1
                }
                writeOut("wrote \(out): \(id).gpx and \(made.photos) photos\(privacy == nil ? "" : " (shared: their EXIF positions removed)")\n")
                return 0
            }
            let loaded = store.loadWithPhotos(id: id)
            if let warning = loaded?.warning { Log.warning(warning) }
            guard let loaded, let text = store.export(id: id, loaded: loaded, format: format, privacy: privacy) else {
                Log.error("no track '\(id)' in \(store.directory); see 'lodestone track list'")
                return 1
            }
            writeOut(text)
            return 0
        default:
            throw UsageError.unknown(
                "track action", action, among: ["start", "pause", "resume", "stop", "list", "show", "card", "export", "import", "edit", "delete"])
        }
    }

    /// A UTC date option as Unix seconds at its midnight.
    static func day(_ options: Options, _ name: String) throws(UsageError) -> Double? {
        guard let date = try options.date(name, years: 1970...9999, what: "a track can have been recorded in") else { return nil }
        return Double(CivilTime.days(year: date.year, month: date.month, day: date.day) * 86_400)
    }

    /// What is wrong with the private-places file, if anything (a line that is not a place).
    static func privatePlacesProblem(dataDirectory: String) -> String? {
        let path = dataDirectory + "/private-places"
        guard fileExists(path) else { return nil }
        let text: String
        do { text = try readTextFile(path) } catch { return error.description }
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let entry = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
            if !entry.allSatisfy(\.isWhitespace) && PrivacyTrim.Place(entry) == nil {
                return "\(path) line \(index + 1): expected LAT,LON or LAT,LON,RADIUS_M, found '\(entry)'"
            }
        }
        return nil
    }

    /// The trim asked for by --private, --trim and --keep-times; nil when the export is not trimmed.
    static func privacyTrim(_ options: Options, dataDirectory: String) throws(UsageError) -> PrivacyTrim? {
        guard options.flags.contains("private") || options.values["trim"] != nil else { return nil }
        var places: [PrivacyTrim.Place] = []
        for text in (options.values["trim"] ?? "").split(separator: ";") {
            guard let place = PrivacyTrim.Place(String(text)) else {
                throw UsageError(message: "--trim takes LAT,LON or LAT,LON,RADIUS_M (several joined by ';'), not '\(text)'")
            }
            places.append(place)
        }
        if options.flags.contains("private") {
            let path = dataDirectory + "/private-places"
            if let text = try? readTextFile(path) {
                for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                    let entry = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
                    guard !entry.allSatisfy(\.isWhitespace) else { continue }
                    guard let place = PrivacyTrim.Place(entry) else {
                        throw UsageError(message: "\(path) line \(index + 1): expected LAT,LON or LAT,LON,RADIUS_M, found '\(entry)'")
                    }
                    places.append(place)
                }
            }
        }
        return PrivacyTrim(places: places, dropTimes: !options.flags.contains("keep-times"))
    }
}
