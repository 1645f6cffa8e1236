import LodestoneBench
import LodestoneCore

/// `lodestone bench`: the options parsed, the bench table (`BenchTable`) or one bench alone
/// (`BenchKernels`) run, and their figures printed.
enum BenchCommand {
    static func main(_ arguments: ArraySlice<String>) throws(UsageError) -> Int32 {
        let options = try Options(
            arguments, spec: OptionSpec(valued: ["seconds", "trials", "kernel", "updates", "logs", "clients", "peers", "data-dir"], flags: ["json"]),
            command: "bench")
        let bench = BenchOptions(
            seconds: try options.number("seconds", in: 0.5...600) ?? 5, trials: try options.integer("trials", in: 1...100) ?? 7,
            updates: try options.integer("updates", in: 1...100_000_000), clients: try options.integer("clients", in: 0...64),
            logs: options.values["logs"], peers: options.values["peers"], dataDirectory: options.values["data-dir"], json: options.flags.contains("json"))
        // `lodestone bench timetable` names one bench as --kernel does.
        if let name = options.values["kernel"] ?? options.positional.first {
            guard let kernel = BenchKernels.named(name) else { throw UsageError(message: "--kernel takes \(BenchKernels.names)") }
            switch kernel.run(bench, writeOut) {
            case .success: return 0
            case .failure(let message):
                if let message { Log.error(message) }
                return 1
            case .usage(let message): throw UsageError(message: message)
            }
        }
        var lines: [String] = []
        let json = BenchTable.run(
            bench, starting: { row in if !bench.json { writeOut(row.measures + "...\n") } }, finished: { row, output in lines.append(row.line(output)) })
        writeOut(bench.json ? json + "\n" : "\n" + lines.joined(separator: "\n") + "\n")
        return 0
    }

    /// `lodestone bench --help`: the benches and the single ones from their tables.
    static var help: String {
        var text = """
            Usage: lodestone bench [NAME] [--json] [--seconds S] [--trials N] [--peers DIR]

            Runs every bench of the bench table, in this order, and prints each one's figures with
            its budget (--json: one object, each bench's keys as docs/development.md describes them).
            Build with -c release for device figures; valgrind counts the instructions (callgrind)
            and rt-tests' cyclictest gives the lateness beside the scheduler's, where installed.

            """
        for row in BenchTable.rows {
            text += "\n" + entry(row.name, row.measures + (row.budget.map { " (budget: \($0))" } ?? ""))
        }
        text += """


            Options:
              --json          machine-readable output
              --seconds S     length of each latency measurement (default 5)
              --trials N      ring throughput trials (default 7)
              --logs DIR      the receiver logs the NMEA bench and the peers read (default ../shared/data/nmea)
              --peers DIR     after the figures above, the same counts for established peers over
                              the same inputs: minmea's NMEA parser (DIR/minmea) over the bench's
                              sentences and the receiver logs, Fusion's AHRS update (DIR/fusion)
                              over the attitude readings, and, when gpsd-clients is installed,
                              gpsdecode -j against lodestone nmea as whole processes over one
                              file ("peers" in --json, with ours/peer ratios). The peers are
                              compiled from DIR with cc -O2 in a temporary folder, for comparison
                              only: they are never linked into Lodestone. Needs cc and valgrind.

            One bench alone, by NAME (or --kernel NAME); --updates N sets the work of those that
            count (10,000 unless given):

            """
        for kernel in BenchKernels.all { text += "\n" + entry(kernel.name, kernel.does) }
        return text
    }

    /// A name and what it is, the text wrapped at 96 columns under the name.
    static func entry(_ name: String, _ what: String) -> String {
        var lines: [String] = []
        var line = "  " + name + String(repeating: " ", count: max(1, 18 - name.count))
        let indent = String(repeating: " ", count: line.count)
        for word in what.split(separator: " ") {
            if line.count + 1 + word.count > 96 && line.count > indent.count {
                lines.append(line)
                line = indent + word
            } else {
                line += (line.count > indent.count || line.last != " " ? " " : "") + word
            }
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }
}
