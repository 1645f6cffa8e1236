@testable import LodestoneBench
import LodestoneCore
import LodestoneEncoding
import Testing
@testable import lodestone

/// `lodestone bench` runs its benches from a table, and each row declares the keys it writes
/// into `lodestone bench --json`. Those keys are a contract (scripts/bench-figures and checks
/// outside read them), so the table is checked against a fixed list of them, and each row's
/// writer, given figures made here, writes exactly the keys its row declares.
@Suite struct BenchTableTests {
    /// Every key path of `lodestone bench --json` (with --peers), as scripts/bench-figures walks
    /// it: nested objects by their keys, arrays as one figure. Notes are written only when
    /// there is something to say. Change a key here only with the scripts and checks that read it.
    static let contract: Set<String> = [
        "scheduler.rateHz", "scheduler.policy", "scheduler.p50us", "scheduler.p99us", "scheduler.maxus", "scheduler.cyclictest.p50us",
        "scheduler.cyclictest.p99us", "scheduler.cyclictest.maxus", "scheduler.cyclictest.samples", "scheduler.cyclictestNote",
        "ring.mopsPerSec.best", "ring.mopsPerSec.median", "ring.trials", "ring.itemsPerTrial",
        "allocationsPerTick", "allocations.ticksN", "allocations.allocationsOverN", "allocations.allocationsOver2N", "allocations.note",
        "attitudeFilter.instructionsPerUpdate", "attitudeFilter.gyroBiasInstructionsPerUpdate", "attitudeFilter.note",
        "nmea.instructionsPerSentence", "nmea.nsPerSentence", "nmea.logsInstructionsPerSentence",
        "reports.tpv.instructions", "reports.sky.instructions", "reports.note",
        "startup.firstATTms", "startup.firstTPVms",
        "runtime.instructionsPerSecond", "runtime.sampling", "runtime.output", "runtime.compassFit", "runtime.deviceSeconds",
        "runtime.outputAllocationSites", "runtime.outputAllocationsPerReport", "runtime.rssKB", "runtime.rssPeakKB", "runtime.note",
        "record.bytesPerHour", "record.rawBytesPerHour", "record.replayTimesRealTime", "record.deviceSeconds", "record.note",
        "trackList.tracks", "trackList.listMs", "trackList.searchMs",
        "tracks.largePoints", "tracks.largePhotos", "tracks.largeListMs", "tracks.largeShowMs", "tracks.largePlotMs", "tracks.largeExportMs",
        "timetable.stops", "timetable.trips", "timetable.stopTimes", "timetable.importMs", "timetable.importPeakMB", "timetable.indexBytes",
        "timetable.busyStopMs", "timetable.searchMs", "timetable.nearestMs", "timetable.feedOnlyMs", "timetable.busyStopCalls",
        "timetable.busyStopInstructions", "timetable.note",
        "backup.importSecondsPer10k", "backup.files", "backup.archiveEntries",
        "clientLoad.idle.clients", "clientLoad.idle.latenessP99us", "clientLoad.idle.latenessMaxus", "clientLoad.idle.overruns",
        "clientLoad.idle.reportsPerClientPerSecond", "clientLoad.idle.droppedClients",
        "clientLoad.loaded.clients", "clientLoad.loaded.latenessP99us", "clientLoad.loaded.latenessMaxus", "clientLoad.loaded.overruns",
        "clientLoad.loaded.reportsPerClientPerSecond", "clientLoad.loaded.droppedClients",
        "web.appBytes", "web.files", "web.plainBytes",
        "web.instructionsPerClientSecond", "web.serverInstructionsPerSecondIdle", "web.serverInstructionsPerSecond20Clients",
        "web.attackSocketGapMs", "web.attackPeakRSSKB", "web.quietSocketGapMs", "web.quietRSSKB",
        "web.attacks.quiet.socketGapMs", "web.attacks.quiet.peakRSSKB", "web.attacks.pipelining.socketGapMs", "web.attacks.pipelining.peakRSSKB",
        "web.attacks.eventStreams.socketGapMs", "web.attacks.eventStreams.peakRSSKB", "web.attacks.idleConnections.socketGapMs",
        "web.attacks.idleConnections.peakRSSKB", "web.attacks.pairingGuesses.socketGapMs", "web.attacks.pairingGuesses.peakRSSKB",
        "display.compassInstructionsPerPixel", "display.note",
        "peers.minmea.instructionsPerSentence", "peers.minmea.ratio", "peers.minmea.logsInstructionsPerSentence", "peers.minmea.logsRatio",
        "peers.minmea.note", "peers.minmea.logsNote", "peers.fusion.instructionsPerUpdate", "peers.fusion.ratio", "peers.fusion.note",
        "peers.gpsdecode.instructionsPerSentence", "peers.gpsdecode.lodestoneInstructionsPerSentence", "peers.gpsdecode.ratio",
        "peers.gpsdecode.input", "peers.gpsdecode.sentences", "peers.gpsdecode.note"
    ]

    /// The single benches and kernels `--kernel` takes (the benches' callgrind runs name some).
    static let kernels = [
        "attitude", "nmea", "tpv", "sky", "display", "web", "web-attack", "startup", "runtime", "memory", "record", "timetable", "timetable-answer",
        "tracks", "backup-import", "clients"
    ]

    /// Each row's writer with figures made here: every figure measured, then none (or the
    /// bench's own failure). A row added to the table needs its figures here.
    static let written: [String: (measured: BenchOutput, missing: BenchOutput)] = {
        let latency = LatencyFigures(p50Microseconds: 16, p99Microseconds: 45, maxMicroseconds: 900, samples: 5000)
        let run = WebAttackBench.Run(
            quiet: .init(name: "quiet", socketGapMs: 110, peakRSSKB: 14_000),
            attacks: WebAttackBench.attackNames.map { .init(name: $0, socketGapMs: 120, peakRSSKB: 15_000) })
        let comparison = PeerBench.Comparison(peer: 4000, ours: 2000, note: nil)
        let peers = PeerBench.Figures(
            minmea: comparison, minmeaLogs: comparison, fusion: comparison, gpsdecode: comparison, gpsdecodeInput: "logs", gpsdecodeSentences: 17_900)
        let noPeer = PeerBench.Comparison(peer: nil, ours: nil, note: "no cc")
        let noPeers = PeerBench.Figures(minmea: noPeer, minmeaLogs: noPeer, fusion: noPeer, gpsdecode: noPeer, gpsdecodeInput: nil, gpsdecodeSentences: nil)
        var cost = RuntimeCostBench.Figures(sampling: 480_000, output: 1_000_000, compassFit: 0, deviceSeconds: 60, outputAllocationsPerReport: 0)
        cost.outputAllocationSites = [("$s9lodestone4mainyyF", 1.5)]
        let timetable = TimetableBenchTests.figures(instructions: 10_708_170, note: nil)
        let load = ClientLoadBench.Run(clients: 100, latenessP99: 95, latenessMax: 128, overruns: 0, reportsPerClientPerSecond: 63, droppedClients: 0)
        return [
            "scheduler": (
                BenchWriters.scheduler(SchedulerLatencyResult(rateHz: 1000, fifo: true, scheduler: latency, cyclictest: latency, cyclictestNote: nil)),
                BenchWriters.scheduler(SchedulerLatencyResult(rateHz: 1000, fifo: false, scheduler: latency, cyclictest: nil, cyclictestNote: "not installed"))
            ),
            "ring": (
                BenchWriters.ring(RingThroughputBench.Result(bestMops: 120, medianMops: 118, trials: [118, 120], itemsPerTrial: 50_000_000)),
                BenchWriters.ring(RingThroughputBench.Result(bestMops: 0, medianMops: 0, trials: [], itemsPerTrial: 0))
            ),
            "allocations": (
                BenchWriters.allocations(AllocationBench.Result(ticks: 1000, overN: 0, over2N: 0, perTick: 0, note: nil)),
                BenchWriters.allocations(AllocationBench.Result(ticks: 1000, overN: 0, over2N: 0, perTick: nil, note: "no counter"))
            ),
            "attitude filter": (
                BenchWriters.attitude(AttitudeCostBench.Figures(update: 349, gyroBias: 19), nil), BenchWriters.attitude(nil, "valgrind not found")
            ),
            "NMEA parser": (
                BenchWriters.nmea(instructions: 2020, logsInstructions: 1704, nanoseconds: 163),
                BenchWriters.nmea(instructions: nil, logsInstructions: nil, nanoseconds: 163)
            ),
            "gpsd reports": (BenchWriters.reports(tpv: 2796, sky: 15_498, note: nil), BenchWriters.reports(tpv: nil, sky: nil, note: "valgrind not found")),
            "start-up": (BenchWriters.startup(StartupBench.Figures(firstATTms: 29, firstTPVms: 101)), BenchWriters.startup(nil)),
            "runtime": (
                BenchWriters.runtime((cost, nil), memory: (RuntimeMemoryBench.Figures(residentKB: 7932, peakKB: 16_140), nil)),
                BenchWriters.runtime((nil, "valgrind not found"), memory: (nil, "could not start"))
            ),
            "record": (
                BenchWriters.record(RecordingBench.Figures(bytesPerHour: 5.7e6, rawBytesPerHour: 1.7e7, replayTimesRealTime: 870, deviceSeconds: 300), nil),
                BenchWriters.record(nil, "could not record")
            ),
            "track list": (
                BenchWriters.trackList(TrackListBench.Result(tracks: 1000, listMilliseconds: 12.7, searchMilliseconds: 13.2, found: 3)),
                BenchWriters.trackList(nil)
            ),
            "large track": (
                BenchWriters.largeTrack(
                    LargeTrackBench.Result(
                        points: 30_000, listMilliseconds: 4, showMilliseconds: 148, plotMilliseconds: 203, exportMilliseconds: 196, photos: 50)),
                BenchWriters.largeTrack(nil)
            ),
            "timetable": (BenchWriters.timetable(timetable), BenchWriters.timetable(nil)),
            "backup": (BenchWriters.backup(BackupBench.Result(files: 10_000, archiveEntries: 13_001, importSeconds: 3.2)), BenchWriters.backup(nil)),
            "socket clients": (BenchWriters.clientLoad((load, load)), BenchWriters.clientLoad(nil)),
            "web app": (BenchWriters.webApp(compressed: 28_636, files: 11, plain: 70_850), BenchWriters.webApp(compressed: 0, files: 0, plain: 0)),
            "web browsers": (
                BenchWriters.webBrowsers(WebClientBench.Figures(instructionsPerClientSecond: 11_796, idlePerSecond: 92_439, twentyPerSecond: 328_359), nil),
                BenchWriters.webBrowsers(nil, "valgrind not found")
            ),
            "web attacks": (BenchWriters.webAttacks(run), BenchWriters.webAttacks(nil)),
            "display": (BenchWriters.display(29.7, nil), BenchWriters.display(nil, "valgrind not found")),
            "peers": (BenchWriters.peers(peers), BenchWriters.peers(noPeers))
        ]
    }()

    /// The key paths of a JSON value as scripts/bench-figures walks it, each with its value.
    static func paths(_ value: JSONValue, _ prefix: String = "") -> [(String, JSONValue)] {
        guard case .object(let members) = value else { return [(prefix, value)] }
        return members.flatMap { paths($0.1, prefix.isEmpty ? $0.0 : prefix + "." + $0.0) }
    }

    static func paths(of output: BenchOutput) throws -> [String] {
        try paths(JSONValue.parse(BenchTable.object(output.json))).map(\.0)
    }

    @Test func theTableDeclaresEveryKeyOfTheContractOnce() {
        let declared = BenchTable.rows.flatMap(\.keys)
        #expect(
            Set(declared) == Self.contract,
            "missing: \(Self.contract.subtracting(declared).sorted()); not in the contract: \(Set(declared).subtracting(Self.contract).sorted())")
        #expect(declared.count == Set(declared).count, "a key declared twice")
        #expect(Set(BenchTable.rows.map(\.name)).count == BenchTable.rows.count, "a bench named twice")
    }

    @Test func eachRowWritesTheKeysItDeclares() throws {
        #expect(Set(Self.written.keys) == Set(BenchTable.rows.map(\.name)), "the rows without figures here, or figures of no row")
        for row in BenchTable.rows {
            guard let (measured, missing) = Self.written[row.name] else { continue }
            let declared = Set(row.keys)
            // Measured: every key that is not a note, and nothing undeclared.
            let written = try Self.paths(of: measured)
            #expect(written.count == Set(written).count, "\(row.name) writes a key twice: \(written)")
            #expect(Set(written).subtracting(declared).isEmpty, "\(row.name) writes undeclared \(Set(written).subtracting(declared).sorted())")
            let needed = declared.filter { !Bench.isNote($0) }
            #expect(needed.isSubset(of: written), "\(row.name) does not write \(needed.subtracting(written).sorted())")
            // Not measured: nulls where figures were (a whole object, or its first figure), never another key.
            for path in try Self.paths(of: missing) {
                #expect(declared.contains(path) || declared.contains { $0.hasPrefix(path + ".") }, "\(row.name) without figures writes \(path)")
            }
            #expect(!measured.text.isEmpty && !missing.text.isEmpty, "\(row.name) has a line either way")
        }
    }

    /// The rows' members are one object: `web` is three rows' figures, in one object.
    @Test func theWholeOutputIsTheContract() throws {
        let members = BenchTable.rows.flatMap { Self.written[$0.name]?.measured.json ?? [] }
        let json = try JSONValue.parse(BenchTable.object(members))
        let written = Self.paths(json).map(\.0)
        #expect(written.count == Set(written).count, "a key written twice")
        #expect(
            Set(written) == Self.contract.filter { !Bench.isNote($0) },
            "\(Set(written).symmetricDifference(Self.contract.filter { !Bench.isNote($0) }).sorted())")
        guard case .object(let top) = json else { return }
        #expect(
            top.map(\.0) == [
                "scheduler", "ring", "allocationsPerTick", "allocations", "attitudeFilter", "nmea", "reports", "startup", "runtime", "record", "trackList",
                "tracks", "timetable", "backup", "clientLoad", "web", "display", "peers"
            ])
        // Units as before: the values of a few figures the docs quote.
        let values = Dictionary(Self.paths(json).map { ($0.0, $0.1) }, uniquingKeysWith: { first, _ in first })
        #expect(values["web.attackSocketGapMs"]?.numberValue == 120 && values["web.attackPeakRSSKB"]?.numberValue == 15_000)
        #expect(values["backup.importSecondsPer10k"]?.numberValue == 3.2 && values["runtime.instructionsPerSecond"]?.numberValue == 1_480_000)
        #expect(values["timetable.importPeakMB"]?.numberValue.map { abs($0 - 58.6) < 0.01 } == true)
    }

    @Test func theKernelsAreThoseTheBenchesName() {
        #expect(BenchKernels.all.map(\.name) == Self.kernels)
        #expect(BenchKernels.names.hasSuffix("backup-import or clients"))
        #expect(BenchKernels.named("timetable-answer")?.run(BenchOptions(), { _ in }) == .usage("--kernel timetable-answer needs --data-dir DIR"))
    }

    @Test func theHelpListsTheTable() {
        let help = BenchCommand.help
        for row in BenchTable.rows { #expect(help.contains("  " + row.name + " ") && help.contains(String(row.measures.prefix(30))), "\(row.name)") }
        for kernel in BenchKernels.all { #expect(help.contains("  " + kernel.name + " "), "\(kernel.name)") }
    }

    @Test func aLineEndsWithItsBudget() throws {
        let row = try #require(BenchTable.rows.first { $0.name == "display" })
        let line = row.line(BenchWriters.display(29.7, nil))
        #expect(line == "display: the turning compass at 480x320 costs 29.7 instructions per pixel and frame (budget: 40 instructions per pixel and frame)")
    }

    /// The runner measures the rows in order, skips those this run does not ask for, passes
    /// figures on to later rows, and writes one object.
    @Test func theRunnerRunsTheRowsInOrder() {
        let rows = [
            Bench("first", measures: "one", keys: ["a.x"]) { _, shared in
                shared.nmeaInstructions = 2
                return BenchOutput(json: [("a", #"{"x":1}"#)], text: "1")
            },
            Bench("skipped", measures: "never", keys: ["b"], isRun: { $0.peers != nil }) { _, _ in BenchOutput(json: [("b", "1")], text: "") },
            Bench("second", measures: "two", keys: ["a.y"], budget: "3") { _, shared in
                BenchOutput(json: [("a", #"{"y":\#(Int(shared.nmeaInstructions ?? 0))}"#)], text: "2")
            }
        ]
        var started: [String] = [], lines: [String] = []
        let json = BenchTable.run(BenchOptions(), rows: rows, starting: { started.append($0.name) }, finished: { lines.append($0.line($1)) })
        #expect(started == ["first", "second"])
        #expect(lines == ["first: 1", "second: 2 (budget: 3)"])
        #expect(json == #"{"a":{"x":1,"y":2}}"#)
    }
}
