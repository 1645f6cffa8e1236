import LodestoneCore
import LodestoneEncoding

/// How one kernel or single bench ended.
public enum BenchKernelOutcome: Equatable, Sendable {
    case success
    /// Exit status 1, with what failed when there is something to say.
    case failure(String?)
    /// Exit status 2: the options do not suit this kernel.
    case usage(String)
}

/// One bench alone, by name (`lodestone bench NAME`, `--kernel NAME`): the measured work of a
/// callgrind count (what the bench's own callgrind runs execute) or a single bench printing
/// its figures.
public struct BenchKernel {
    public let name: String
    public let does: String
    /// Runs it; `write` prints its figures.
    public let run: (BenchOptions, _ write: (String) -> Void) -> BenchKernelOutcome

    init(_ name: String, does: String, run: @escaping (BenchOptions, _ write: (String) -> Void) -> BenchKernelOutcome) {
        self.name = name
        self.does = does
        self.run = run
    }
}

/// The kernels and single benches, in the order the help names them.
public enum BenchKernels {
    public static var all: [BenchKernel] {
        [
            BenchKernel("attitude", does: "--updates N attitude updates (callgrind's attitudeFilter count)") { options, _ in
                status(AttitudeCostBench.kernel(updates: options.updates ?? 10_000).isFinite)
            },
            BenchKernel("nmea", does: "--updates N sentences parsed, the bench's mix or --logs DIR's") { options, _ in
                status(NMEACostBench.kernel(sentences: options.updates ?? 10_000, logs: options.logs) > 0)
            },
            BenchKernel("tpv", does: "--updates N TPV reports written") { options, _ in
                status(ReportCostBench.kernel("tpv", reports: options.updates ?? 10_000) > 0)
            },
            BenchKernel("sky", does: "--updates N SKY reports of 20 satellites written") { options, _ in
                status(ReportCostBench.kernel("sky", reports: options.updates ?? 10_000) > 0)
            },
            BenchKernel("display", does: "--updates N frames of the turning compass") { options, _ in
                status(DisplayBench.kernel(frames: options.updates ?? 10_000) > 0)
            },
            BenchKernel(
                "web",
                does:
                    "the web server streaming --updates N tenths of a second of ATT at 10 Hz and TPV, SKY and ENV at 1 Hz to --clients C browsers "
                    + "on a loopback port (what callgrind counts for web.instructionsPerClientSecond)"
            ) { options, _ in
                let updates = options.updates ?? 10_000
                // Every browser must have had every ATT, or the figure would flatter.
                let least = WebClientBench.kernel(ticks: updates, clients: options.clients ?? 20)
                return least >= updates ? .success : .failure("a browser received \(least) of \(updates) ATT events")
            },
            BenchKernel("web-attack", does: "the web server under attack alone (--json too)") { options, write in
                guard let attacks = WebAttackBench.run() else { return .failure("the device could not be started with its web app on a loopback port") }
                write((options.json ? BenchWriters.webAttackJSON(attacks) : BenchWriters.webAttackLines(attacks)) + "\n")
                return .success
            },
            BenchKernel("startup", does: "the start-up figures alone") { _, write in
                guard let figures = StartupBench.run() else { return .failure(nil) }
                write(BenchWriters.startupLine(figures) + "\n")
                return .success
            },
            BenchKernel("runtime", does: "the whole device's instructions per second of its time, per thread, in steady state (--json too)") {
                options, write in
                let cost = RuntimeCostBench.run()
                // --json: the runtime's keys as the whole table gives them (runtime.sampling, runtime.output...).
                guard options.json else { return printed(cost, "the runtime", BenchWriters.runtimeLine, write) }
                let output = BenchWriters.runtime(cost, memory: (nil, cost.1 ?? "not measured: 'lodestone bench memory'"))
                write("{" + output.json.map { JSONObjectWriter.quoted($0.key) + ":" + $0.value }.joined(separator: ",") + "}\n")
                return cost.0 == nil ? .failure(cost.1) : .success
            },
            BenchKernel("memory", does: "its resident set with the memory locked and 4 clients (runtime.rssKB)") { _, write in
                printed(RuntimeMemoryBench.run(), "the resident memory", BenchWriters.memoryLine, write)
            },
            BenchKernel("record", does: "five minutes of the simulated walk recorded and replayed (record.bytesPerHour, record.replayTimesRealTime)") {
                _, write in printed(RecordingBench.run(), "the recording", BenchWriters.recordingLine, write)
            },
            BenchKernel(
                "timetable", does: "import a synthetic national feed of 10,000 stops and 1,000,000 stop times, then time cold departures answers (--json too)"
            ) { options, write in
                guard let figures = TimetableBench.run() else { return .failure("the synthetic timetable could not be written or imported in /tmp") }
                write((options.json ? figures.json : figures.lines) + "\n")
                return .success
            },
            BenchKernel("timetable-answer", does: "--updates N cold busiest-stop answers from the timetable in --data-dir DIR") { options, _ in
                // Cold busy-stop answers from the data directory the timetable bench imported.
                guard let data = options.dataDirectory else { return .usage("--kernel timetable-answer needs --data-dir DIR") }
                let answers = options.updates ?? 10_000
                return status(TimetableBench.kernel(answers: answers, dataDirectory: data) == 5 * answers)
            },
            BenchKernel("tracks", does: "one 30,000-point track listed, shown, plotted and exported by the command line (tracks.largeShowMs and the others)") {
                _, write in
                guard let figures = LargeTrackBench.run() else { return .failure("the 30,000-point track could not be made or read in /tmp") }
                write(BenchWriters.largeTrackLine(figures) + "\n")
                return .success
            },
            BenchKernel("backup-import", does: "import-all --replace of an archive of --updates N stored files (10,000 unless given; --json too)") {
                options, write in
                let files = options.updates ?? 10_000
                guard let figures = BackupBench.run(tracks: files * 3 / 10, snapshots: files - files * 3 / 10 * 2) else {
                    return .failure("the 10,000-file backup could not be made or imported in /tmp")
                }
                write(options.json ? "{\"backup\":\(figures.json)}\n" : BenchWriters.backupLine(figures) + "\n")
                return .success
            },
            BenchKernel("clients", does: "the socket-load comparison alone, with and without the sampling thread pinned") { _, write in
                for pin in [false, true] {
                    guard let load = ClientLoadBench.run(pin: pin) else { return .failure(nil) }
                    for run in [load.idle, load.loaded] { write(BenchWriters.clientLoadLine(run, pinned: pin) + "\n") }
                }
                return .success
            }
        ]
    }

    /// The kernel called `name`, or nil.
    public static func named(_ name: String) -> BenchKernel? { all.first { $0.name == name } }

    /// "a, b or c": the names a usage error lists.
    public static var names: String {
        let names = all.map(\.name)
        return names.dropLast().joined(separator: ", ") + (names.count > 1 ? " or " : "") + (names.last ?? "")
    }

    static func status(_ succeeded: Bool) -> BenchKernelOutcome { succeeded ? .success : .failure(nil) }

    /// One bench's figures as a line, or why they could not be measured.
    static func printed<Figures>(_ result: (Figures?, String?), _ what: String, _ line: (Figures) -> String, _ write: (String) -> Void) -> BenchKernelOutcome {
        guard let figures = result.0 else { return .failure(result.1 ?? "\(what) could not be measured") }
        write(line(figures) + "\n")
        return .success
    }
}
