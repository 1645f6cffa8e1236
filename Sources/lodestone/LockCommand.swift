import LodestoneCore
import LodestoneOutputs
import LodestoneReports
import LodestoneRuntime
import LodestoneEncoding
import LodestoneSettings

/// `lodestone lock` and `lodestone level`: the bearing lock and the bubble level's surface
/// offset on a running instance, through its socket.
enum LockCommand {
    static let lockHelp = """
        Usage: lodestone lock [BEARING | --off] [--socket PATH] [--json]

        Locks a bearing to follow: the current heading (true when there is a fix, else magnetic),
        or BEARING in degrees. ATT reports then carry the bearing, the signed deviation (positive:
        pointing clockwise of it) and offCourse, set beyond 10 degrees and cleared below 8; EVENT
        reports announce going off course and coming back. --off releases the lock. The
        bearingLock button on a board's GPIO does the same: a press locks, the next releases.

        Examples:
          lodestone lock            # follow the heading the device points at now
          lodestone lock 235        # follow 235 degrees
          lodestone lock --off
        """

    static let levelHelp = """
        Usage: lodestone level [--zero | --clear] [--socket PATH] [--json]

        Shows the bubble level (roll and pitch, and whether it is level within 0.5 degrees), or
        with --zero takes the current attitude as level: set the device on a reference surface
        first. --clear forgets the offset. The offset is saved in the data directory.
        """

    static func lock(_ arguments: ArraySlice<String>) throws(UsageError) -> Int32 {
        let options = try Options(arguments, spec: OptionSpec(valued: ["socket"], flags: ["off", "json"]), command: "lock")
        var request = LockRequest(bearing: nil).text
        if options.flags.contains("off") {
            request = PlainRequest.unlock.text
        } else if let text = options.positional.first {
            guard let bearing = DecimalNumber.parse(text), bearing.isFinite, (0..<360).contains(bearing) || bearing == 360 else {
                throw UsageError(message: "the bearing must be degrees from 0 to 360, not '\(text)'")
            }
            request = LockRequest(bearing: bearing).text
        }
        return exchange(
            request, socket: options.values["socket"], json: options.flags.contains("json"),
            answer: [#""event":"bearingLock""#]
        ) { report in
            guard report["locked"]?.boolValue == true, let bearing = report["bearing"]?.numberValue else { return "bearing lock released" }
            return "locked on \(fixed(bearing, 1))°"
        }
    }

    static func level(_ arguments: ArraySlice<String>) throws(UsageError) -> Int32 {
        let options = try Options(arguments, spec: OptionSpec(valued: ["socket"], flags: ["zero", "clear", "json"]), command: "level")
        guard !(options.flags.contains("zero") && options.flags.contains("clear")) else {
            throw UsageError(message: "give --zero or --clear, not both")
        }
        let request = (options.flags.contains("zero") ? LevelRequest.zero : (options.flags.contains("clear") ? .clear : .report)).text
        return exchange(
            request, socket: options.values["socket"], json: options.flags.contains("json"),
            answer: [#""event":"levelOffset""#, #""class":"MOTION""#]
        ) { report in
            if report["event"]?.stringValue == "levelOffset" {
                return "level offset roll \(fixed(report["roll"]?.numberValue ?? 0, 2))°, pitch \(fixed(report["pitch"]?.numberValue ?? 0, 2))°"
            }
            let level = report["level"]?.boolValue == true
            return "\(level ? "level" : "not level"): tilt \(fixed(report["tilt"]?.numberValue ?? .nan, 2))°"
        }
    }

    /// Sends one request and prints the first reply whose line contains one of `answer`.
    static func exchange(
        _ request: String, socket: String?, json: Bool, answer: [String],
        describe: (JSONValue) -> String
    ) -> Int32 {
        let path = socket ?? Configuration.clientSocketPath()
        let client: ReportClient
        do { client = try ReportClient(path: path) } catch {
            Log.error(error.description)
            return 1
        }
        client.send(request)
        while let line = client.readLine(timeoutMilliseconds: 5000) {
            if line.contains(#""class":"ERROR""#) {
                Log.error((try? JSONValue.parse(line))?["message"]?.stringValue ?? line)
                return 1
            }
            guard answer.contains(where: { line.contains($0) }), let report = try? JSONValue.parse(line) else { continue }
            writeOut((json ? line : describe(report)) + "\n")
            return 0
        }
        Log.error("\(path) did not answer within 5 s")
        return 1
    }
}
