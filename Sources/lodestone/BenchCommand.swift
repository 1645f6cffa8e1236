import Glibc
import LodestoneCore
import LodestoneOutputs
import LodestoneRuntime
import LodestoneBench
import LodestoneDevices
import LodestoneEncoding

enum BenchCommand {
    static func main(_ arguments: ArraySlice<String>) throws(UsageError) -> Int32 {
        let options = try Options(
            arguments, spec: OptionSpec(valued: ["seconds", "trials", "kernel", "updates", "logs", "clients", "peers", "data-dir"], flags: ["json"]),
            command: "bench")
        // `lodestone bench timetable` names one bench as --kernel does.
        if let kernel = options.values["kernel"] ?? options.positional.first {
            // The measured work alone, for the bench's own callgrind runs.
            let updates = try options.integer("updates", in: 1...100_000_000) ?? 10_000
            switch kernel {
            case "attitude": return AttitudeCostBench.kernel(updates: updates).isFinite ? 0 : 1
            case "nmea": return NMEACostBench.kernel(sentences: updates, logs: options.values["logs"]) > 0 ? 0 : 1
            case "tpv", "sky": return ReportCostBench.kernel(kernel, reports: updates) > 0 ? 0 : 1
            case "display": return DisplayBench.kernel(frames: updates) > 0 ? 0 : 1
            case "web":
                // Every browser must have had every ATT, or the figure would flatter.
                let clients = try options.integer("clients", in: 0...64) ?? 20
                let least = WebClientBench.kernel(ticks: updates, clients: clients)
                if least < updates { Log.error("a browser received \(least) of \(updates) ATT events") }
                return least >= updates ? 0 : 1
            case "web-attack":
                guard let attacks = WebAttackBench.run() else {
                    Log.error("the device could not be started with its web app on a loopback port")
                    return 1
                }
                writeOut((options.flags.contains("json") ? webAttackJSON(attacks) : webAttackLines(attacks)) + "\n")
                return 0
            case "runtime": return printed(RuntimeCostBench.run(), "the runtime", runtimeLine)
            case "record": return printed(RecordingBench.run(), "the recording", recordingLine)
            case "memory": return printed(RuntimeMemoryBench.run(), "the resident memory", memoryLine)
            case "startup":
                guard let figures = StartupBench.run() else { return 1 }
                writeOut("first ATT \(fixed(figures.firstATTms, 1)) ms, first TPV \(fixed(figures.firstTPVms, 1)) ms\n")
                return 0
            case "timetable":
                guard let figures = TimetableBench.run() else {
                    Log.error("the synthetic timetable could not be written or imported in /tmp")
                    return 1
                }
                writeOut((options.flags.contains("json") ? figures.json : figures.lines) + "\n")
                return 0
            case "timetable-answer":
                // Cold busy-stop answers from the data directory the timetable bench imported.
                guard let data = options.values["data-dir"] else { throw UsageError(message: "--kernel timetable-answer needs --data-dir DIR") }
                return TimetableBench.kernel(answers: updates, dataDirectory: data) == 5 * updates ? 0 : 1
            case "tracks":
                guard let figures = LargeTrackBench.run() else {
                    Log.error("the 30,000-point track could not be made or read in /tmp")
                    return 1
                }
                writeOut(
                    "a 30,000-point track with \(figures.photos) photos: list \(fixed(figures.listMilliseconds, 1)) ms, show \(fixed(figures.showMilliseconds, 1)) ms, "
                        + "plot \(fixed(figures.plotMilliseconds, 1)) ms, export with the photos \(fixed(figures.exportMilliseconds, 1)) ms\n")
                return 0
            case "backup-import":
                // --updates: the stored files in the archive (10,000 unless given).
                let files = options.values["updates"] == nil ? 10_000 : updates
                guard let figures = BackupBench.run(tracks: files * 3 / 10, snapshots: files - files * 3 / 10 * 2) else {
                    Log.error("the 10,000-file backup could not be made or imported in /tmp")
                    return 1
                }
                writeOut(options.flags.contains("json") ? "{\"backup\":\(figures.json)}\n" : backupLine(figures) + "\n")
                return 0
            case "clients":
                // The socket-load comparison alone, with and without the sampling thread pinned.
                for pin in [false, true] {
                    guard let load = ClientLoadBench.run(pin: pin) else { return 1 }
                    for run in [load.idle, load.loaded] {
                        writeOut(
                            "pinned \(pin) clients \(run.clients): p99 \(fixed(run.latenessP99, 1)) us, max \(fixed(run.latenessMax, 1)) us, \(run.overruns) overruns, \(fixed(run.reportsPerClientPerSecond, 1)) reports/client/s\n"
                        )
                    }
                }
                return 0
            default:
                throw UsageError(
                    message:
                        "--kernel takes attitude, nmea, tpv, sky, display, web, web-attack, startup, runtime, memory, record, timetable, timetable-answer, tracks, backup-import or clients"
                )
            }
        }
        let seconds = try options.number("seconds", in: 0.5...600) ?? 5
        let trials = try options.integer("trials", in: 1...100) ?? 7
        let json = options.flags.contains("json")
        if !json { writeOut("scheduler wake-up lateness at 1 kHz for \(fixed(seconds, 1)) s, then cyclictest...\n") }
        let latency = SchedulerLatencyBench.run(rateHz: 1000, seconds: seconds)
        if !json { writeOut("ring throughput, \(trials) trials...\n") }
        let ring = RingThroughputBench.run(trials: trials)
        if !json { writeOut("allocations per tick of the sampling loop...\n") }
        let allocations = AllocationBench.run()
        if !json { writeOut("attitude filter instructions per update (callgrind)...\n") }
        let attitude = AttitudeCostBench.run()
        if !json { writeOut("NMEA parser instructions and nanoseconds per sentence...\n") }
        let nmeaInstructions = Callgrind.count(kernel: "nmea", functions: ["*NMEAParser*parse*"], count: 7000).0?.first
        // Real receivers' mixes too, when the logs are beside the project.
        let logs = options.values["logs"] ?? NMEACostBench.sharedLogs
        let logInstructions =
            access(logs, F_OK) == 0
            ? Callgrind.count(kernel: "nmea", functions: ["*NMEAParser*parse*"], count: 50_000, arguments: ["--logs", logs]).0?.first : nil
        let nmeaNanoseconds = NMEACostBench.nanosecondsPerSentence()
        if !json { writeOut("gpsd report instructions, TPV and SKY with 20 satellites (callgrind)...\n") }
        let reportCost = ReportCostBench.run()
        if !json { writeOut("start-up: the first ATT and the first TPV...\n") }
        let startup = StartupBench.run()
        if !json {
            writeOut(
                "the whole runtime's instructions per second, per thread, in steady state over a minute of device time (callgrind, about eight minutes)...\n")
        }
        let runtime = RuntimeCostBench.run()
        if !json { writeOut("the running device's resident memory, locked, with 4 clients (30 s)...\n") }
        let memory = RuntimeMemoryBench.run()
        if !json { writeOut("track list and search with 1,000 stored tracks...\n") }
        let trackList = TrackListBench.run()
        if !json { writeOut("one 30,000-point track listed, shown, plotted and exported...\n") }
        let largeTrack = LargeTrackBench.run()
        if !json { writeOut("timetable: import a national feed (10,000 stops, 1,000,000 stop times), then answer departures...\n") }
        let timetable = TimetableBench.run()
        if !json { writeOut("backup: import-all --replace of an archive of 10,000 stored files...\n") }
        let backup = BackupBench.run()
        if !json { writeOut("the sampling loop with no socket clients, then with 100 at 50 Hz (10 s each)...\n") }
        let clientLoad = ClientLoadBench.run()
        if !json { writeOut("a recording of five minutes of the simulated walk, and its replay...\n") }
        let recording = RecordingBench.run()

        var report = JSONObjectWriter()
        report.raw("scheduler", schedulerJSON(latency))
        var mops = JSONObjectWriter()
        mops.number("best", ring.bestMops, decimals: 1)
        mops.number("median", ring.medianMops, decimals: 1)
        var ringJSON = JSONObjectWriter()
        ringJSON.raw("mopsPerSec", mops.finished)
        ringJSON.raw("trials", "[" + ring.trials.map { JSONObjectWriter.format($0, decimals: 1) }.joined(separator: ",") + "]")
        ringJSON.integer("itemsPerTrial", ring.itemsPerTrial)
        report.raw("ring", ringJSON.finished)
        if let perTick = allocations.perTick {
            report.number("allocationsPerTick", perTick, decimals: 3)
        } else {
            report.null("allocationsPerTick")
        }
        var detail = JSONObjectWriter()
        detail.integer("ticksN", allocations.ticks)
        detail.integer("allocationsOverN", allocations.overN)
        detail.integer("allocationsOver2N", allocations.over2N)
        if let note = allocations.note { detail.string("note", note) }
        report.raw("allocations", detail.finished)
        var cost = JSONObjectWriter()
        if let figures = attitude.0 {
            cost.number("instructionsPerUpdate", figures.update, decimals: 0)
            cost.number("gyroBiasInstructionsPerUpdate", figures.gyroBias, decimals: 0)
        } else {
            cost.null("instructionsPerUpdate")
        }
        if let note = attitude.1 { cost.string("note", note) }
        report.raw("attitudeFilter", cost.finished)
        var nmea = JSONObjectWriter()
        if let nmeaInstructions { nmea.number("instructionsPerSentence", nmeaInstructions, decimals: 0) } else { nmea.null("instructionsPerSentence") }
        nmea.number("nsPerSentence", nmeaNanoseconds, decimals: 1)
        if let logInstructions { nmea.number("logsInstructionsPerSentence", logInstructions, decimals: 0) } else { nmea.null("logsInstructionsPerSentence") }
        report.raw("nmea", nmea.finished)
        var reports = JSONObjectWriter()
        for (name, figure) in [("tpv", reportCost.tpv), ("sky", reportCost.sky)] {
            var one = JSONObjectWriter()
            if let figure { one.number("instructions", figure, decimals: 0) } else { one.null("instructions") }
            reports.raw(name, one.finished)
        }
        if let note = reportCost.note { reports.string("note", note) }
        report.raw("reports", reports.finished)
        var start = JSONObjectWriter()
        if let startup {
            start.number("firstATTms", startup.firstATTms, decimals: 1)
            start.number("firstTPVms", startup.firstTPVms, decimals: 1)
        } else {
            start.null("firstATTms")
            start.null("firstTPVms")
        }
        report.raw("startup", start.finished)
        var whole = JSONObjectWriter()
        if let figures = runtime.0 {
            whole.number("instructionsPerSecond", figures.total, decimals: 0)
            whole.number("sampling", figures.sampling, decimals: 0)
            whole.number("output", figures.output, decimals: 0)
            whole.number("compassFit", figures.compassFit, decimals: 0)
            whole.number("deviceSeconds", figures.deviceSeconds, decimals: 1)
            whole.raw(
                "outputAllocationSites",
                "[" + figures.outputAllocationSites.prefix(8).map { JSONObjectWriter.quoted($0.function + " " + fixed($0.calls, 1)) }.joined(separator: ",")
                    + "]")
            if let perReport = figures.outputAllocationsPerReport {
                whole.number("outputAllocationsPerReport", perReport, decimals: 3)
            } else {
                whole.null("outputAllocationsPerReport")
            }
        } else {
            whole.null("instructionsPerSecond")
        }
        if let memory = memory.0 {
            whole.integer("rssKB", memory.residentKB)
            whole.integer("rssPeakKB", memory.peakKB)
        } else {
            whole.null("rssKB")
        }
        if let note = runtime.1 ?? memory.1 { whole.string("note", note) }
        report.raw("runtime", whole.finished)
        var record = JSONObjectWriter()
        if let figures = recording.0 {
            record.number("bytesPerHour", figures.bytesPerHour, decimals: 0)
            record.number("rawBytesPerHour", figures.rawBytesPerHour, decimals: 0)
            record.number("replayTimesRealTime", figures.replayTimesRealTime, decimals: 1)
            record.number("deviceSeconds", figures.deviceSeconds, decimals: 1)
        } else {
            record.null("bytesPerHour")
            if let note = recording.1 { record.string("note", note) }
        }
        report.raw("record", record.finished)
        if let trackList {
            var w = JSONObjectWriter()
            w.integer("tracks", trackList.tracks)
            w.number("listMs", trackList.listMilliseconds, decimals: 1)
            w.number("searchMs", trackList.searchMilliseconds, decimals: 1)
            report.raw("trackList", w.finished)
        } else {
            report.null("trackList")
        }
        if let largeTrack {
            var w = JSONObjectWriter()
            w.integer("largePoints", largeTrack.points)
            w.integer("largePhotos", largeTrack.photos)
            w.number("largeListMs", largeTrack.listMilliseconds, decimals: 1)
            w.number("largeShowMs", largeTrack.showMilliseconds, decimals: 1)
            w.number("largePlotMs", largeTrack.plotMilliseconds, decimals: 1)
            w.number("largeExportMs", largeTrack.exportMilliseconds, decimals: 1)
            report.raw("tracks", w.finished)
        } else {
            report.null("tracks")
        }
        if let timetable { report.raw("timetable", timetable.json) } else { report.null("timetable") }
        if let backup { report.raw("backup", backup.json) } else { report.null("backup") }
        if let clientLoad {
            func figures(_ run: ClientLoadBench.Run) -> String {
                var w = JSONObjectWriter()
                w.integer("clients", run.clients)
                w.number("latenessP99us", run.latenessP99, decimals: 1)
                w.number("latenessMaxus", run.latenessMax, decimals: 1)
                w.integer("overruns", run.overruns)
                w.number("reportsPerClientPerSecond", run.reportsPerClientPerSecond, decimals: 1)
                w.integer("droppedClients", run.droppedClients)
                return w.finished
            }
            report.raw("clientLoad", "{\"idle\":" + figures(clientLoad.idle) + ",\"loaded\":" + figures(clientLoad.loaded) + "}")
        } else {
            report.null("clientLoad")
        }
        let web = WebBench.appBytes()
        if !json { writeOut("web server instructions per browser and second, ATT at 10 Hz (callgrind)...\n") }
        let (browsers, browserNote) = WebClientBench.run()
        var webJSON = JSONObjectWriter()
        webJSON.integer("appBytes", web.compressed)
        webJSON.integer("files", web.files)
        webJSON.integer("plainBytes", web.plain)
        if let browsers {
            webJSON.number("instructionsPerClientSecond", browsers.instructionsPerClientSecond, decimals: 0)
            webJSON.number("serverInstructionsPerSecondIdle", browsers.idlePerSecond, decimals: 0)
            webJSON.number("serverInstructionsPerSecond20Clients", browsers.twentyPerSecond, decimals: 0)
        } else {
            webJSON.null("instructionsPerClientSecond")
        }
        if !json { writeOut("web server under attack: the gpsd socket's longest gap and the resident memory (8 s an attack)...\n") }
        let attacks = WebAttackBench.run()
        if let attacks {
            webJSON.number("attackSocketGapMs", attacks.pipelining?.socketGapMs ?? .nan, decimals: 1)
            webJSON.integer("attackPeakRSSKB", attacks.pipelining?.peakRSSKB ?? 0)
            webJSON.number("quietSocketGapMs", attacks.quiet.socketGapMs, decimals: 1)
            webJSON.integer("quietRSSKB", attacks.quiet.peakRSSKB)
            webJSON.raw("attacks", webAttackJSON(attacks))
        } else {
            webJSON.null("attackSocketGapMs")
            webJSON.null("attackPeakRSSKB")
        }
        report.raw("web", webJSON.finished)
        if !json { writeOut("display: the compass page turning at 480x320, instructions per pixel and frame (callgrind)...\n") }
        let display = DisplayBench.run()
        var displayJSON = JSONObjectWriter()
        if let perPixel = display.perPixel {
            displayJSON.number("compassInstructionsPerPixel", perPixel, decimals: 1)
        } else {
            displayJSON.null("compassInstructionsPerPixel")
        }
        if let note = display.note { displayJSON.string("note", note) }
        report.raw("display", displayJSON.finished)
        // The peers, compiled from --peers DIR for the comparison alone, over the inputs above.
        var peers: PeerBench.Figures?
        if let directory = options.values["peers"] {
            if !json { writeOut("peers: minmea, Fusion and gpsdecode over the same inputs, compiled from \(directory) at -O2 (callgrind)...\n") }
            let ours = PeerBench.Ours(nmea: nmeaInstructions, nmeaLogs: logInstructions, attitude: attitude.0?.update)
            let figures = PeerBench.run(peers: directory, logs: logs, ours: ours)
            report.raw("peers", PeerBench.json(figures))
            peers = figures
        }
        if json {
            writeOut(report.finished + "\n")
        } else {
            writeOut(human(latency, ring, allocations))
            let cost = attitude.0.map { "\(fixed($0.update, 0)) instructions per update, plus \(fixed($0.gyroBias, 0)) for the gyro bias (callgrind)" }
            writeOut("attitude filter: \(cost ?? attitude.1 ?? "not measured")\n")
            writeOut(
                "NMEA parser: \(nmeaInstructions.map { fixed($0, 0) + " instructions, " } ?? "")\(fixed(nmeaNanoseconds, 1)) ns per sentence"
                    + (logInstructions.map { "; \(fixed($0, 0)) instructions per sentence on the receiver logs" } ?? "") + "\n")
            writeOut("runtime: " + (runtime.0.map(runtimeLine) ?? runtime.1 ?? "not measured") + "\n")
            writeOut("memory: " + (memory.0.map(memoryLine) ?? memory.1 ?? "not measured") + "\n")
            writeOut(
                "start-up: "
                    + (startup.map {
                        "first ATT \(fixed($0.firstATTms, 0)) ms after the start, first TPV \(fixed($0.firstTPVms, 0)) ms after the receiver's first sentence"
                    } ?? "not measured") + "\n")
            writeOut(
                "gpsd reports: " + (reportCost.tpv.map { "TPV \(fixed($0, 0)) instructions, " } ?? "")
                    + (reportCost.sky.map { "SKY (20 satellites) \(fixed($0, 0)) instructions" } ?? reportCost.note ?? "not measured") + "\n")
            writeOut(
                "a 30,000-point track: "
                    + (largeTrack.map {
                        "list \(fixed($0.listMilliseconds, 0)) ms, show \(fixed($0.showMilliseconds, 0)) ms, "
                            + "plot \(fixed($0.plotMilliseconds, 0)) ms, export \(fixed($0.exportMilliseconds, 0)) ms (the budget is 1000 each)"
                    } ?? "could not be made in /tmp") + "\n")
            writeOut(
                "track list: "
                    + (trackList.map { "\(fixed($0.listMilliseconds, 1)) ms to list, \(fixed($0.searchMilliseconds, 1)) ms to search \($0.tracks) tracks" }
                        ?? "could not create the tracks in /tmp") + "\n")
            writeOut("timetable: " + (timetable.map(\.lines) ?? "could not create the feed in /tmp") + "\n")
            writeOut("backup: " + (backup.map(backupLine) ?? "could not make or import the archive in /tmp") + "\n")
            writeOut("web app: \(web.compressed) bytes gzipped (\(web.files) files, \(web.plain) bytes plain; the budget is 150 KB)\n")
            writeOut(
                "web browsers: "
                    + (browsers.map {
                        "\(fixed($0.instructionsPerClientSecond, 0)) instructions per browser and second "
                            + "(the budget is 200,000); the server \(fixed($0.idlePerSecond, 0))/s with none, \(fixed($0.twentyPerSecond, 0))/s with 20"
                    }
                        ?? browserNote ?? "not measured") + "\n")
            writeOut("web attacks: " + (attacks.map(webAttackLines) ?? "could not run lodestone") + "\n")
            writeOut(
                "display: "
                    + (display.perPixel.map { "the turning compass at 480x320 costs \(fixed($0, 1)) instructions per pixel and frame (the budget is 40)" }
                        ?? display.note ?? "not measured") + "\n")
            if let clientLoad {
                for run in [clientLoad.idle, clientLoad.loaded] {
                    writeOut(
                        "socket clients \(run.clients): loop wake-up lateness p99 \(fixed(run.latenessP99, 1)) us, max \(fixed(run.latenessMax, 1)) us, "
                            + "\(run.overruns) overruns; \(fixed(run.reportsPerClientPerSecond, 1)) reports per client per second, \(run.droppedClients) dropped\n"
                    )
                }
            } else {
                writeOut("socket clients: could not run lodestone\n")
            }
            if let peers { writeOut(PeerBench.lines(peers)) }
        }
        return 0
    }

    static func figures(_ f: LatencyFigures) -> String {
        var w = JSONObjectWriter()
        w.number("p50us", f.p50Microseconds, decimals: 1)
        w.number("p99us", f.p99Microseconds, decimals: 1)
        w.number("maxus", f.maxMicroseconds, decimals: 1)
        w.integer("samples", f.samples)
        return w.finished
    }

    static func schedulerJSON(_ r: SchedulerLatencyResult) -> String {
        var w = JSONObjectWriter()
        w.number("rateHz", r.rateHz, decimals: 0)
        w.string("policy", r.fifo ? "SCHED_FIFO 50" : "SCHED_OTHER")
        w.number("p50us", r.scheduler.p50Microseconds, decimals: 1)
        w.number("p99us", r.scheduler.p99Microseconds, decimals: 1)
        w.number("maxus", r.scheduler.maxMicroseconds, decimals: 1)
        if let cyclic = r.cyclictest { w.raw("cyclictest", figures(cyclic)) } else { w.null("cyclictest") }
        if let note = r.cyclictestNote { w.string("cyclictestNote", note) }
        return w.finished
    }

    static func human(_ l: SchedulerLatencyResult, _ r: RingThroughputBench.Result, _ a: AllocationBench.Result) -> String {
        var out = "\nwake-up lateness at \(fixed(l.rateHz, 0)) Hz (\(l.fifo ? "SCHED_FIFO 50" : "SCHED_OTHER")), microseconds:\n"
        out +=
            "  lodestone   p50 \(fixed(l.scheduler.p50Microseconds, 1))  p99 \(fixed(l.scheduler.p99Microseconds, 1))  max \(fixed(l.scheduler.maxMicroseconds, 1))\n"
        if let c = l.cyclictest {
            out += "  cyclictest  p50 \(fixed(c.p50Microseconds, 1))  p99 \(fixed(c.p99Microseconds, 1))  max \(fixed(c.maxMicroseconds, 1))\n"
        } else {
            out += "  cyclictest  \(l.cyclictestNote ?? "not run")\n"
        }
        out += "ring throughput, million items/s: best \(fixed(r.bestMops, 1)), median \(fixed(r.medianMops, 1))\n"
        out += "allocations per tick: \(a.perTick.map { fixed($0, 3) } ?? "not measured (\(a.note ?? ""))")"
        out += " (\(a.overN) over \(a.ticks) ticks, \(a.over2N) over \(2 * a.ticks))\n"
        return out
    }

    /// The whole runtime's figures as a line a person reads.
    /// One bench's figures as a line, or why they could not be measured (exit status 1).
    static func printed<Figures>(_ result: (Figures?, String?), _ what: String, _ line: (Figures) -> String) -> Int32 {
        guard let figures = result.0 else {
            Log.error(result.1 ?? "\(what) could not be measured")
            return 1
        }
        writeOut(line(figures) + "\n")
        return 0
    }

    static func backupLine(_ figures: BackupBench.Result) -> String {
        "import-all --replace of \(figures.files) stored files (\(figures.archiveEntries) archive entries): "
            + "\(fixed(figures.importSeconds, 2)) s of CPU (the budget is 5 s per 10,000)"
    }

    static func memoryLine(_ figures: RuntimeMemoryBench.Figures) -> String {
        "\(fixed(Double(figures.residentKB) / 1024, 1)) MB resident with the memory locked and 4 clients (at most \(fixed(Double(figures.peakKB) / 1024, 1)) MB)"
    }

    static func recordingLine(_ figures: RecordingBench.Figures) -> String {
        "a recording takes \(fixed(figures.bytesPerHour / 1e6, 2)) MB per hour on the card (\(fixed(figures.rawBytesPerHour / 1e6, 2)) MB "
            + "before deflating); its replay ran \(fixed(figures.replayTimesRealTime, 1)) times real time "
            + "(\(fixed(figures.deviceSeconds, 1)) s of the simulated walk)"
    }

    static func runtimeLine(_ figures: RuntimeCostBench.Figures) -> String {
        "\(fixed(figures.total / 1e6, 2)) million instructions per second of the device's time (sampling thread "
            + "\(fixed(figures.sampling / 1e6, 2)), output thread \(fixed(figures.output / 1e6, 2)), compass fits "
            + "\(fixed(figures.compassFit / 1e6, 2)); simulator excluded, "
            + "\(fixed(figures.deviceSeconds, 1)) s measured)"
            + (figures.outputAllocationsPerReport.map { "; \(fixed($0, 3)) heap allocations per report on the output thread" } ?? "")
            + (figures.outputAllocationSites.isEmpty
                ? "" : ", from " + figures.outputAllocationSites.prefix(5).map { "\($0.function) (\(fixed($0.calls, 1)))" }.joined(separator: ", "))
    }
}
