import LodestoneCore
import LodestoneOutputs
import LodestoneReports
import LodestoneRuntime
import LodestoneEncoding
import LodestoneSettings
import LodestoneStorage

/// `lodestone log`: logging sessions on the running instance, and the stored ones.
enum LogCommand {
    static let help = """
        Usage: lodestone log start [--interval 1s..1h|every] [--streams a,b,..] [--for DURATION] [--socket PATH]
               lodestone log stop | status                    [--socket PATH] [--json]
               lodestone log list [--json]                    [--data-dir DIR]
               lodestone log export ID [--format csv|json]    [--data-dir DIR]
               lodestone log delete ID                        [--data-dir DIR]

        A session writes the chosen streams every interval (default 10s; 'every' writes each
        barometer sample) to framed, checksummed files synced each second: a power cut loses at
        most the last second, and the next read keeps every intact record. It stops after --for
        (e.g. 90m, 6h, 2d), when stopped, or before the disk fills. status shows the records, the
        bytes and the estimated use per hour. The log button starts and stops a default session.
        Streams: \(LogStore.streams.joined(separator: ", ")).
        export writes CSV (a header row, ISO-8601 times, one column per stream) or JSON.

        Examples:
          lodestone log start --interval 1m --streams pressure,temperature --for 7d
          lodestone log export 20260621-080000 --format csv > trip.csv
        """

    static func main(_ arguments: ArraySlice<String>) throws(UsageError) -> Int32 {
        let options = try Options(
            arguments,
            spec: OptionSpec(
                valued: ["interval", "streams", "for", "socket", "data-dir", "format"],
                flags: ["json"]), command: "log")
        guard let action = options.positional.first else {
            throw UsageError(message: "log what? start, stop, status, list, export or delete (see 'lodestone log --help')")
        }
        let dataDirectory = options.values["data-dir"] ?? Configuration.defaultDataDirectory()
        let store = LogStore(dataDirectory: dataDirectory)
        switch action {
        case "start", "stop", "status":
            var interval = 10.0
            if let text = options.values["interval"] {
                if text == "every" {
                    interval = 0
                } else {
                    guard let seconds = Self.duration(text), (1...3600).contains(seconds) else {
                        throw UsageError(message: "--interval takes 1s to 1h (e.g. 10s, 5m) or 'every', not '\(text)'")
                    }
                    interval = seconds
                }
            }
            var streams = LogRequest.defaultStreams
            if let given = options.values["streams"] {
                streams = given.split(separator: ",").map(String.init)
                if let unknown = streams.first(where: { !LogStore.streams.contains($0) }) {
                    throw UsageError.unknown("stream", unknown, among: LogStore.streams)
                }
            }
            var duration: Double?
            if let text = options.values["for"] {
                guard let seconds = Self.duration(text), seconds > 0 else {
                    throw UsageError(message: "--for takes a duration like 90m, 6h or 2d, not '\(text)'")
                }
                duration = seconds
            }
            let request: LogRequest =
                action == "status" ? .report : (action == "stop" ? .stop : .start(interval: interval, streams: streams, duration: duration))
            return LockCommand.exchange(
                request.text, socket: options.values["socket"], json: options.flags.contains("json"),
                answer: [#""class":"LOG""#]
            ) { report in
                var text = report["logging"]?.boolValue == true ? "logging \(report["id"]?.stringValue ?? "")" : "not logging"
                if let records = Int(whole: report["records"]?.numberValue ?? .nan, in: 0...Int.max) { text += ": \(records) records" }
                if let perHour = report["estimatedBytesPerHour"]?.numberValue { text += ", about \(fixed(perHour / 1e6, 2)) MB per hour" }
                if let message = report["message"]?.stringValue { text += " (\(message))" }
                return text
            }
        case "list":
            let sessions = store.ids().compactMap(store.load)
            if options.flags.contains("json") {
                writeOut(
                    "["
                        + sessions.map { s in
                            var w = JSONObjectWriter()
                            w.string("id", s.id)
                            w.raw("fields", "[" + s.fields.map(JSONObjectWriter.quoted).joined(separator: ",") + "]")
                            w.integer("records", s.rows.count)
                            w.integer("bytes", s.bytes)
                            w.integer("cutBytes", s.cutBytes)
                            return w.finished
                        }.joined(separator: ",") + "]\n")
            } else if sessions.isEmpty {
                writeOut("no logging sessions in \(store.directory)\n")
            } else {
                for s in sessions {
                    let cut = s.cutBytes > 0 ? "  (\(s.cutBytes) bytes of a torn end skipped)" : ""
                    writeOut("\(s.id)  \(s.rows.count) records  \(fixed(Double(s.bytes) / 1e6, 2)) MB  \(s.fields.joined(separator: ","))\(cut)\n")
                }
            }
            return 0
        case "export", "delete":
            guard options.positional.count > 1 else { throw UsageError(message: "\(action) which session? give its id from 'lodestone log list'") }
            let id = options.positional[1]
            if action == "delete" {
                guard let change = StoreChange.begin(dataDirectory) else { return 1 }
                defer { withExtendedLifetime(change) {} }
                guard store.delete(id: id) else { Log.error("no logging session '\(id)' in \(store.directory)"); return 1 }
                writeOut("deleted \(id)\n")
                return 0
            }
            let format = options.values["format"] ?? "csv"
            guard format == "csv" || format == "json" else { throw UsageError(message: "--format takes csv or json") }
            guard let session = store.load(id: id) else { Log.error("no logging session '\(id)' in \(store.directory)"); return 1 }
            if session.cutBytes > 0 { Log.warning("\(session.cutBytes) bytes of a torn end were skipped (a power cut); every intact record is here") }
            writeOut(format == "csv" ? LogStore.csv(session) : LogStore.json(session))
            return 0
        default:
            throw UsageError.unknown("log action", action, among: ["start", "stop", "status", "list", "export", "delete"])
        }
    }

    /// "90", "90s", "5m", "6h", "2d" in seconds.
    static func duration(_ text: String) -> Double? {
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
        if let last = text.last, let unit = units[last] { return Double(text.dropLast()).map { $0 * unit } }
        return DecimalNumber.parse(text)
    }
}
