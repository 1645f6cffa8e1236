import LodestoneCore
import LodestoneDomain
import LodestoneOutputs
import LodestoneRuntime

/// `lodestone track`: record on a running instance (start, pause, resume, stop) and work
/// with stored tracks (list, show, export, delete).
enum TrackCommand {
    static let help = """
    Usage: lodestone track start [--name NAME] | pause | resume | stop   [--socket PATH]
           lodestone track list [--search TEXT] [--since YYYY-MM-DD] [--min-km KM] [--json]
           lodestone track show ID [--json]
           lodestone track export ID [--format gpx|csv|json]
           lodestone track delete ID
           (the stored-track commands take --data-dir DIR)

    Recording runs in 'lodestone run': a point every 5 s while moving, paused by itself while
    standing still (no phantom distance), written so that a power cut loses at most the last
    second; after a crash the next start continues the track. The track button on a board's
    GPIO starts and stops it too. Stopped tracks are listed newest first with distance, moving
    time and elevation gain; export writes GPX 1.1 (for every GPS app), CSV or JSON to stdout.

    Examples:
      lodestone track start --name "Ridge walk"
      lodestone track list --search ridge
      lodestone track export 20260621-080000 > ridge.gpx
    """

    static func main(_ arguments: ArraySlice<String>) throws(UsageError) -> Int32 {
        let options = try Options(arguments, spec: OptionSpec(valued: ["name", "socket", "data-dir", "search", "since", "min-km", "format"],
                                                               flags: ["json"]), command: "track")
        guard let action = options.positional.first else {
            throw UsageError(message: "track what? start, pause, resume, stop, list, show, export or delete (see 'lodestone track --help')")
        }
        let store = TrackStore(dataDirectory: options.values["data-dir"] ?? Configuration.defaultDataDirectory())
        let id = options.positional.count > 1 ? options.positional[1] : nil
        switch action {
        case "start", "pause", "resume", "stop":
            var request = "?TRACK={\"action\":\"\(action)\""
            if let name = options.values["name"] { request += ",\"name\":" + JSONObjectWriter.quoted(name) }
            request += "};"
            return LockCommand.exchange(request, socket: options.values["socket"], json: options.flags.contains("json"),
                                        answer: [#""class":"TRACK""#]) { report in
                let state = report["state"]?.stringValue ?? "?"
                let detail = report["message"]?.stringValue.map { ": " + $0 } ?? ""
                return "track \(state)\(detail)"
            }
        case "list":
            var since: Double?
            if let text = options.values["since"] {
                let parts = text.split(separator: "-").compactMap { Int($0) }
                guard parts.count == 3 else { throw UsageError(message: "--since takes a date as YYYY-MM-DD, not '\(text)'") }
                since = Double(CivilTime.days(year: parts[0], month: parts[1], day: parts[2]) * 86_400)
            }
            let minimum = try options.number("min-km", in: 0...100_000).map { $0 * 1000 }
            let tracks = store.list(text: options.values["search"], from: since, minimumDistance: minimum)
            if options.flags.contains("json") {
                let items = tracks.map { t -> String in
                    var w = JSONObjectWriter()
                    w.string("id", t.id)
                    w.string("name", t.name)
                    w.string("started", CivilTime(unixSeconds: t.started).iso8601)
                    w.number("distance", t.distance, decimals: 1)
                    w.number("movingTime", t.movingTime, decimals: 0)
                    w.number("elevationGain", t.elevationGain, decimals: 1)
                    w.integer("points", t.points)
                    return w.finished
                }
                writeOut("[" + items.joined(separator: ",") + "]\n")
            } else if tracks.isEmpty {
                writeOut("no tracks in \(store.directory)\n")
            } else {
                for t in tracks {
                    writeOut("\(t.id)  \(fixed(t.distance / 1000, 2)) km  \(fixed(t.movingTime / 60, 0)) min moving  +\(fixed(t.elevationGain, 0)) m  \(t.name)\n")
                }
            }
            return 0
        case "show", "export", "delete":
            guard let id else { throw UsageError(message: "\(action) which track? give its id from 'lodestone track list'") }
            if action == "delete" {
                guard store.delete(id: id) else { Log.error("no track '\(id)' in \(store.directory)"); return 1 }
                writeOut("deleted \(id)\n")
                return 0
            }
            let format = action == "show" ? "json" : (options.values["format"] ?? "gpx")
            guard ["gpx", "csv", "json"].contains(format) else { throw UsageError(message: "--format takes gpx, csv or json") }
            guard let text = store.export(id: id, format: format) else {
                Log.error("no track '\(id)' in \(store.directory); see 'lodestone track list'")
                return 1
            }
            writeOut(text)
            return 0
        default:
            throw UsageError(message: "unknown track action '\(action)': start, pause, resume, stop, list, show, export or delete")
        }
    }
}
