import Glibc
import LodestoneCore
import LodestoneEncoding

/// What `lodestone bench` was asked for: its options, parsed and checked by the command line.
public struct BenchOptions: Sendable {
    /// Length of each latency measurement (`--seconds`).
    public var seconds: Double
    /// Ring throughput trials (`--trials`).
    public var trials: Int
    /// `--updates N`: how much work a kernel does; nil when not given (each kernel's default).
    public var updates: Int?
    /// `--clients C`: the browsers of the web kernel; nil when not given.
    public var clients: Int?
    /// `--logs DIR`: the receiver logs; nil for those beside the project.
    public var logs: String?
    /// `--peers DIR`: the peers' sources, compiled for the comparison; nil: no comparison.
    public var peers: String?
    /// `--data-dir DIR`: the timetable the `timetable-answer` kernel answers from.
    public var dataDirectory: String?
    /// `--json`: the single benches that have a JSON form print it.
    public var json: Bool

    public init(
        seconds: Double = 5, trials: Int = 7, updates: Int? = nil, clients: Int? = nil, logs: String? = nil, peers: String? = nil,
        dataDirectory: String? = nil, json: Bool = false
    ) {
        self.seconds = seconds
        self.trials = trials
        self.updates = updates
        self.clients = clients
        self.logs = logs
        self.peers = peers
        self.dataDirectory = dataDirectory
        self.json = json
    }

    /// The receiver logs the NMEA bench and the peers read.
    public var logsFolder: String { logs ?? NMEACostBench.sharedLogs }
}

/// Figures one bench measures that a later one needs (the peers are compared with ours).
public struct BenchShared: Sendable {
    public var nmeaInstructions: Double?
    public var nmeaLogsInstructions: Double?
    public var attitudeInstructions: Double?

    public init() {}
}

/// What one bench wrote: its members of `lodestone bench --json` (top-level key and JSON
/// value; members of several benches under one key are one object) and its line a person
/// reads, without the budget (the table's row has it).
public struct BenchOutput: Sendable {
    public var json: [(key: String, value: String)]
    public var text: String

    public init(json: [(key: String, value: String)], text: String) {
        self.json = json
        self.text = text
    }
}

/// One row of the bench table: what it is called, what it measures, the keys it writes into
/// `lodestone bench --json` (dotted paths; the figures' contract with scripts/bench-figures
/// and the checks outside), its budget, and what runs it and writes its figures.
public struct Bench {
    /// The bench's name in the help and at the start of its line.
    public let name: String
    /// What it measures, said while it runs and in the help.
    public let measures: String
    /// Every key path it can write; a path whose last part ends in "note"/"Note" is written
    /// only when there is something to say.
    public let keys: [String]
    /// What the figures should stay within; nil when the bench has no budget (a comparison).
    public let budget: String?
    /// Whether this run measures it (the peers only with `--peers DIR`).
    public let isRun: (BenchOptions) -> Bool
    /// Measures, then writes the figures.
    public let run: (BenchOptions, inout BenchShared) -> BenchOutput

    init(
        _ name: String, measures: String, keys: [String], budget: String? = nil, isRun: @escaping (BenchOptions) -> Bool = { _ in true },
        run: @escaping (BenchOptions, inout BenchShared) -> BenchOutput
    ) {
        self.name = name
        self.measures = measures
        self.keys = keys
        self.budget = budget
        self.isRun = isRun
        self.run = run
    }

    /// The line `lodestone bench` prints: the figures, then the budget.
    public func line(_ output: BenchOutput) -> String {
        "\(name): \(output.text)" + (budget.map { " (budget: \($0))" } ?? "")
    }

    /// Whether `path` is a note, written only when a figure is missing or qualified.
    public static func isNote(_ path: String) -> Bool {
        let last = path.split(separator: ".").last ?? ""
        return last == "note" || last.hasSuffix("Note")
    }
}

/// The benches `lodestone bench` runs, in order, as data: each row's name, what it measures,
/// its JSON keys, its budget and the function that runs it (`BenchWriters` writes the
/// figures). The single benches and the callgrind kernels are `BenchKernels`. A bench is added
/// here: a row, its writer, and its keys in the test of the contract (BenchTableTests).
public enum BenchTable {
    public static var rows: [Bench] {
        [
            Bench(
                "scheduler", measures: "scheduler wake-up lateness at 1 kHz, then cyclictest's at the same interval and policy",
                keys: [
                    "rateHz", "policy", "p50us", "p99us", "maxus", "cyclictest.p50us", "cyclictest.p99us", "cyclictest.maxus", "cyclictest.samples",
                    "cyclictestNote"
                ]
                .map { "scheduler." + $0 }
            ) { options, _ in BenchWriters.scheduler(SchedulerLatencyBench.run(rateHz: 1000, seconds: options.seconds)) },
            Bench(
                "ring", measures: "ring throughput between two pinned threads",
                keys: ["ring.mopsPerSec.best", "ring.mopsPerSec.median", "ring.trials", "ring.itemsPerTrial"]
            ) {
                options, _ in BenchWriters.ring(RingThroughputBench.run(trials: options.trials))
            },
            Bench(
                "allocations", measures: "heap allocations per tick of the sampling loop on the simulated board",
                keys: ["allocationsPerTick", "allocations.ticksN", "allocations.allocationsOverN", "allocations.allocationsOver2N", "allocations.note"],
                budget: "0 per tick"
            ) { _, _ in BenchWriters.allocations(AllocationBench.run()) },
            Bench(
                "attitude filter", measures: "attitude filter instructions per update (callgrind)",
                keys: ["attitudeFilter.instructionsPerUpdate", "attitudeFilter.gyroBiasInstructionsPerUpdate", "attitudeFilter.note"]
            ) { _, shared in
                let (figures, note) = AttitudeCostBench.run()
                shared.attitudeInstructions = figures?.update
                return BenchWriters.attitude(figures, note)
            },
            Bench(
                "NMEA parser", measures: "NMEA parser instructions and nanoseconds per sentence (callgrind), the bench's mix and the receiver logs",
                keys: ["nmea.instructionsPerSentence", "nmea.nsPerSentence", "nmea.logsInstructionsPerSentence"]
            ) { options, shared in
                let mix = Callgrind.count(kernel: "nmea", functions: ["*NMEAParser*parse*"], count: 7000).0?.first
                // Real receivers' mixes too, when the logs are beside the project.
                let logs =
                    access(options.logsFolder, F_OK) == 0
                    ? Callgrind.count(kernel: "nmea", functions: ["*NMEAParser*parse*"], count: 50_000, arguments: ["--logs", options.logsFolder]).0?.first
                    : nil
                (shared.nmeaInstructions, shared.nmeaLogsInstructions) = (mix, logs)
                return BenchWriters.nmea(instructions: mix, logsInstructions: logs, nanoseconds: NMEACostBench.nanosecondsPerSentence())
            },
            Bench(
                "gpsd reports", measures: "gpsd report instructions, a TPV and a SKY with 20 satellites (callgrind)",
                keys: ["reports.tpv.instructions", "reports.sky.instructions", "reports.note"]
            ) { _, _ in
                let cost = ReportCostBench.run()
                return BenchWriters.reports(tpv: cost.tpv, sky: cost.sky, note: cost.note)
            },
            Bench(
                "start-up", measures: "the first ATT from the start, the first TPV from the receiver's first sentence",
                keys: ["startup.firstATTms", "startup.firstTPVms"]
            ) { _, _ in
                BenchWriters.startup(StartupBench.run())
            },
            Bench(
                "runtime",
                measures:
                    "the whole runtime's instructions per second, per thread, in steady state over a minute of device time "
                    + "(callgrind, about eight minutes), then its resident memory, locked, with 4 clients (30 s)",
                keys: [
                    "instructionsPerSecond", "sampling", "output", "compassFit", "deviceSeconds", "outputAllocationSites", "outputAllocationsPerReport",
                    "rssKB", "rssPeakKB", "note"
                ].map { "runtime." + $0 }
            ) { _, _ in
                let cost = RuntimeCostBench.run()
                return BenchWriters.runtime(cost, memory: RuntimeMemoryBench.run())
            },
            Bench(
                "record", measures: "a recording of five minutes of the simulated walk, and its replay",
                keys: ["record.bytesPerHour", "record.rawBytesPerHour", "record.replayTimesRealTime", "record.deviceSeconds", "record.note"],
                budget: "at most 20 MB per hour on the card"
            ) { _, _ in
                let (figures, note) = RecordingBench.run()
                return BenchWriters.record(figures, note)
            },
            Bench(
                "track list", measures: "track list and search with 1,000 stored tracks",
                keys: ["trackList.tracks", "trackList.listMs", "trackList.searchMs"]
            ) { _, _ in BenchWriters.trackList(TrackListBench.run()) },
            Bench(
                "large track", measures: "one 30,000-point track listed, shown, plotted and exported",
                keys: ["largePoints", "largePhotos", "largeListMs", "largeShowMs", "largePlotMs", "largeExportMs"].map { "tracks." + $0 },
                budget: "1000 ms each"
            ) { _, _ in BenchWriters.largeTrack(LargeTrackBench.run()) },
            Bench(
                "timetable", measures: "import a national feed (10,000 stops, 1,000,000 stop times), then answer departures",
                keys: [
                    "stops", "trips", "stopTimes", "importMs", "importPeakMB", "indexBytes", "busyStopMs", "searchMs", "nearestMs", "feedOnlyMs",
                    "busyStopCalls", "busyStopInstructions", "note"
                ].map { "timetable." + $0 },
                budget: "importPeakMB at most 64, busyStopMs at most 5, busyStopInstructions at most 15 M"
            ) { _, _ in BenchWriters.timetable(TimetableBench.run()) },
            Bench(
                "backup", measures: "import-all --replace of an archive of 10,000 stored files",
                keys: ["backup.importSecondsPer10k", "backup.files", "backup.archiveEntries"], budget: BenchWriters.backupBudget
            ) { _, _ in BenchWriters.backup(BackupBench.run()) },
            Bench(
                "socket clients", measures: "the sampling loop with no socket clients, then with 100 at 50 Hz (10 s each)",
                keys: ["idle", "loaded"].flatMap { run in
                    ["clients", "latenessP99us", "latenessMaxus", "overruns", "reportsPerClientPerSecond", "droppedClients"].map { "clientLoad.\(run).\($0)" }
                }
            ) { _, _ in BenchWriters.clientLoad(ClientLoadBench.run()) },
            Bench(
                "web app", measures: "the web app's files gzipped as the server sends them", keys: ["web.appBytes", "web.files", "web.plainBytes"],
                budget: "150 KB gzipped"
            ) { _, _ in
                let app = WebBench.appBytes()
                return BenchWriters.webApp(compressed: app.compressed, files: app.files, plain: app.plain)
            },
            Bench(
                "web browsers", measures: "the web server's instructions per browser and second, ATT at 10 Hz (callgrind)",
                keys: ["instructionsPerClientSecond", "serverInstructionsPerSecondIdle", "serverInstructionsPerSecond20Clients"].map { "web." + $0 },
                budget: "200,000 instructions per browser and second"
            ) { _, _ in
                let (browsers, note) = WebClientBench.run()
                return BenchWriters.webBrowsers(browsers, note)
            },
            Bench(
                "web attacks", measures: "the web server under attack: the gpsd socket's longest gap and the resident memory (8 s an attack)",
                keys: ["web.attackSocketGapMs", "web.attackPeakRSSKB", "web.quietSocketGapMs", "web.quietRSSKB"]
                    + (["quiet"] + WebAttackBench.attackNames).flatMap { ["web.attacks.\($0).socketGapMs", "web.attacks.\($0).peakRSSKB"] },
                budget: BenchWriters.webAttackBudget
            ) { _, _ in BenchWriters.webAttacks(WebAttackBench.run()) },
            Bench(
                "display", measures: "the compass page turning at 480x320, instructions per pixel and frame (callgrind)",
                keys: ["display.compassInstructionsPerPixel", "display.note"], budget: "40 instructions per pixel and frame"
            ) { _, _ in
                let display = DisplayBench.run()
                return BenchWriters.display(display.perPixel, display.note)
            },
            Bench(
                "peers", measures: "with --peers DIR: minmea, Fusion and gpsdecode over the same inputs, compiled at -O2 (callgrind)",
                keys: [
                    "minmea.instructionsPerSentence", "minmea.ratio", "minmea.logsInstructionsPerSentence", "minmea.logsRatio", "minmea.note",
                    "minmea.logsNote",
                    "fusion.instructionsPerUpdate", "fusion.ratio", "fusion.note", "gpsdecode.instructionsPerSentence",
                    "gpsdecode.lodestoneInstructionsPerSentence", "gpsdecode.ratio", "gpsdecode.input", "gpsdecode.sentences", "gpsdecode.note"
                ].map { "peers." + $0 },
                isRun: { $0.peers != nil }
            ) { options, shared in
                let ours = PeerBench.Ours(nmea: shared.nmeaInstructions, nmeaLogs: shared.nmeaLogsInstructions, attitude: shared.attitudeInstructions)
                return BenchWriters.peers(PeerBench.run(peers: options.peers ?? "", logs: options.logsFolder, ours: ours))
            }
        ]
    }

    /// Runs every row this run measures, in order: `starting(row)` before each, `finished(row,
    /// output)` after. Returns the JSON object of `lodestone bench --json`.
    public static func run(
        _ options: BenchOptions, rows: [Bench] = rows, starting: (Bench) -> Void = { _ in }, finished: (Bench, BenchOutput) -> Void = { _, _ in }
    ) -> String {
        var shared = BenchShared()
        var members: [(key: String, value: String)] = []
        for row in rows where row.isRun(options) {
            starting(row)
            let output = row.run(options, &shared)
            members += output.json
            finished(row, output)
        }
        return object(members)
    }

    /// One JSON object of `members`, in order; members under one key that are objects are
    /// written as one object (several rows write `web`).
    public static func object(_ members: [(key: String, value: String)]) -> String {
        var merged: [(key: String, value: String)] = []
        for member in members {
            if let at = merged.firstIndex(where: { $0.key == member.key }) {
                merged[at].value = joined(merged[at].value, member.value)
            } else {
                merged.append(member)
            }
        }
        var writer = JSONObjectWriter()
        for member in merged { writer.raw(member.key, member.value) }
        return writer.finished
    }

    /// Two JSON objects' members as one object (`{"a":1}` and `{"b":2}` give `{"a":1,"b":2}`);
    /// the second alone when either is not an object.
    static func joined(_ first: String, _ second: String) -> String {
        guard first.hasPrefix("{"), first.hasSuffix("}"), second.hasPrefix("{"), second.hasSuffix("}") else { return second }
        if first == "{}" { return second }
        if second == "{}" { return first }
        return String(first.dropLast()) + "," + String(second.dropFirst())
    }
}
