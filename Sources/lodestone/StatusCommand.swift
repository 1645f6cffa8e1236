import LodestoneCore
import LodestoneOutputs
import LodestoneReports
import LodestoneRuntime
import LodestoneEncoding
import LodestoneSettings

enum StatusCommand {
    static func main(_ arguments: ArraySlice<String>) throws(UsageError) -> Int32 {
        let options = try Options(arguments, spec: OptionSpec(valued: ["socket"], flags: ["json"]), command: "status")
        let path = options.values["socket"] ?? Configuration.clientSocketPath()
        let client: ReportClient
        do { client = try ReportClient(path: path) } catch {
            Log.error(error.description)
            return 1
        }
        client.send(PlainRequest.status.text)
        while let line = client.readLine(timeoutMilliseconds: 5000) {
            guard line.contains("\"class\":\"HEALTH\"") else { continue }
            if options.flags.contains("json") {
                writeOut(line + "\n")
            } else {
                writeOut(describe(line) + "\n")
            }
            return 0
        }
        Log.error("\(path) did not answer ?STATUS within 5 s")
        return 1
    }

    /// The HEALTH report as a table a person reads.
    static func describe(_ line: String) -> String {
        guard let report = try? JSONValue.parse(line) else { return line }
        var out = "sensors:"
        if case .object(let sensors)? = report["sensors"] {
            for (name, value) in sensors { out += " \(name) \(value.stringValue ?? "?")" }
        }
        // Why a failing sensor fails, one line each.
        if case .object(let problems)? = report["sensorErrors"] {
            for (name, value) in problems { out += "\n  \(name): \(value.stringValue ?? "?")" }
        }
        if let rejected = report["gps"]?["rejected"]?.numberValue, rejected > 0 {
            out += "\ngps: \(fixed(rejected, 0)) sentences rejected, the last for \(report["gps"]?["rejectedReason"]?.stringValue ?? "?")"
        }
        if let loop = report["loop"] {
            out +=
                "\nloop \(fixed(loop["rateHz"]?.numberValue ?? .nan, 0)) Hz: \(fixed(loop["ticks"]?.numberValue ?? .nan, 0)) ticks, "
                + "\(fixed(loop["overruns"]?.numberValue ?? .nan, 0)) overruns, wake-up lateness p50 "
                + "\(fixed(loop["latenessP50us"]?.numberValue ?? .nan, 0)) us p99 \(fixed(loop["latenessP99us"]?.numberValue ?? .nan, 0)) us"
        }
        if let profile = report["profile"]?.stringValue {
            out += "\nsampling profile \(profile), GPS fix every \(fixed(report["gpsInterval"]?.numberValue ?? .nan, 1)) s"
        }
        return out + "\nsampling thread:\n" + SchedulerTable.text(tasks(report["tasks"]))
            + "\noutput thread:\n" + SchedulerTable.text(tasks(report["outputTasks"]))
    }

    /// A task table from HEALTH's `tasks` or `outputTasks`.
    static func tasks(_ list: JSONValue?) -> [TaskLine] {
        var lines: [TaskLine] = []
        if case .array(let tasks)? = list {
            for task in tasks {
                var s = TaskStatistics()
                s.rateHz = task["rateHz"]?.numberValue ?? 0
                // Counts from the socket: anything negative, fractional or beyond range reads as 0.
                func count(_ key: String, scale: Double = 1) -> UInt64 {
                    UInt64(rounding: (task[key]?.numberValue ?? 0) * scale, in: 0...UInt64(1) << 62) ?? 0
                }
                s.runs = count("runs")
                s.totalExecution = count("meanus", scale: 1000 * Double(s.runs))
                s.maxExecution = count("maxus", scale: 1000)
                s.overruns = count("overruns")
                s.slips = count("slips")
                s.skips = count("skips")
                s.missed = count("missed")
                lines.append(TaskLine(name: task["name"]?.stringValue ?? "?", statistics: s, budgetMicroseconds: task["budgetus"]?.numberValue ?? 0))
            }
        }
        return lines
    }
}
