import LodestoneCore
import LodestoneEncoding

/// Each bench's figures as `lodestone bench` writes them: its members of `--json` and its
/// line. Pure functions of the figures, so a test can write every row from figures of its own.
public enum BenchWriters {
    public static let backupBudget = "5 s per 10,000"
    public static let webAttackBudget = "a gap of at most 200 ms, at most 2 MB above quiet"

    static func latency(_ f: LatencyFigures) -> String {
        var w = JSONObjectWriter()
        w.number("p50us", f.p50Microseconds, decimals: 1)
        w.number("p99us", f.p99Microseconds, decimals: 1)
        w.number("maxus", f.maxMicroseconds, decimals: 1)
        w.integer("samples", f.samples)
        return w.finished
    }

    static func scheduler(_ r: SchedulerLatencyResult) -> BenchOutput {
        var w = JSONObjectWriter()
        w.number("rateHz", r.rateHz, decimals: 0)
        w.string("policy", r.fifo ? "SCHED_FIFO 50" : "SCHED_OTHER")
        w.number("p50us", r.scheduler.p50Microseconds, decimals: 1)
        w.number("p99us", r.scheduler.p99Microseconds, decimals: 1)
        w.number("maxus", r.scheduler.maxMicroseconds, decimals: 1)
        if let cyclic = r.cyclictest { w.raw("cyclictest", latency(cyclic)) } else { w.null("cyclictest") }
        if let note = r.cyclictestNote { w.string("cyclictestNote", note) }
        var text = "wake-up lateness at \(fixed(r.rateHz, 0)) Hz (\(r.fifo ? "SCHED_FIFO 50" : "SCHED_OTHER")), microseconds:\n"
        text +=
            "  lodestone   p50 \(fixed(r.scheduler.p50Microseconds, 1))  p99 \(fixed(r.scheduler.p99Microseconds, 1))  max \(fixed(r.scheduler.maxMicroseconds, 1))\n"
        if let c = r.cyclictest {
            text += "  cyclictest  p50 \(fixed(c.p50Microseconds, 1))  p99 \(fixed(c.p99Microseconds, 1))  max \(fixed(c.maxMicroseconds, 1))"
        } else {
            text += "  cyclictest  \(r.cyclictestNote ?? "not run")"
        }
        return BenchOutput(json: [("scheduler", w.finished)], text: text)
    }

    static func ring(_ ring: RingThroughputBench.Result) -> BenchOutput {
        var mops = JSONObjectWriter()
        mops.number("best", ring.bestMops, decimals: 1)
        mops.number("median", ring.medianMops, decimals: 1)
        var w = JSONObjectWriter()
        w.raw("mopsPerSec", mops.finished)
        w.raw("trials", "[" + ring.trials.map { JSONObjectWriter.format($0, decimals: 1) }.joined(separator: ",") + "]")
        w.integer("itemsPerTrial", ring.itemsPerTrial)
        return BenchOutput(json: [("ring", w.finished)], text: "million items/s: best \(fixed(ring.bestMops, 1)), median \(fixed(ring.medianMops, 1))")
    }

    static func allocations(_ a: AllocationBench.Result) -> BenchOutput {
        var detail = JSONObjectWriter()
        detail.integer("ticksN", a.ticks)
        detail.integer("allocationsOverN", a.overN)
        detail.integer("allocationsOver2N", a.over2N)
        if let note = a.note { detail.string("note", note) }
        // A figure that is not finite is left out, as the JSON writer leaves it out.
        let perTick: [(key: String, value: String)] =
            a.perTick.map { $0.isFinite ? [("allocationsPerTick", JSONObjectWriter.format($0, decimals: 3))] : [] } ?? [("allocationsPerTick", "null")]
        let text =
            "\(a.perTick.map { fixed($0, 3) } ?? "not measured (\(a.note ?? ""))") per tick (\(a.overN) over \(a.ticks) ticks, \(a.over2N) over \(2 * a.ticks))"
        return BenchOutput(json: perTick + [("allocations", detail.finished)], text: text)
    }

    static func attitude(_ figures: AttitudeCostBench.Figures?, _ note: String?) -> BenchOutput {
        var w = JSONObjectWriter()
        if let figures {
            w.number("instructionsPerUpdate", figures.update, decimals: 0)
            w.number("gyroBiasInstructionsPerUpdate", figures.gyroBias, decimals: 0)
        } else {
            w.null("instructionsPerUpdate")
        }
        if let note { w.string("note", note) }
        let text = figures.map { "\(fixed($0.update, 0)) instructions per update, plus \(fixed($0.gyroBias, 0)) for the gyro bias (callgrind)" }
        return BenchOutput(json: [("attitudeFilter", w.finished)], text: text ?? note ?? "not measured")
    }

    static func nmea(instructions: Double?, logsInstructions: Double?, nanoseconds: Double) -> BenchOutput {
        var w = JSONObjectWriter()
        if let instructions { w.number("instructionsPerSentence", instructions, decimals: 0) } else { w.null("instructionsPerSentence") }
        w.number("nsPerSentence", nanoseconds, decimals: 1)
        if let logsInstructions { w.number("logsInstructionsPerSentence", logsInstructions, decimals: 0) } else { w.null("logsInstructionsPerSentence") }
        let text =
            "\(instructions.map { fixed($0, 0) + " instructions, " } ?? "")\(fixed(nanoseconds, 1)) ns per sentence"
            + (logsInstructions.map { "; \(fixed($0, 0)) instructions per sentence on the receiver logs" } ?? "")
        return BenchOutput(json: [("nmea", w.finished)], text: text)
    }

    static func reports(tpv: Double?, sky: Double?, note: String?) -> BenchOutput {
        var reports = JSONObjectWriter()
        for (name, figure) in [("tpv", tpv), ("sky", sky)] {
            var one = JSONObjectWriter()
            if let figure { one.number("instructions", figure, decimals: 0) } else { one.null("instructions") }
            reports.raw(name, one.finished)
        }
        if let note { reports.string("note", note) }
        let text =
            (tpv.map { "TPV \(fixed($0, 0)) instructions, " } ?? "")
            + (sky.map { "SKY (20 satellites) \(fixed($0, 0)) instructions" } ?? note ?? "not measured")
        return BenchOutput(json: [("reports", reports.finished)], text: text)
    }

    static func startup(_ startup: StartupBench.Figures?) -> BenchOutput {
        var w = JSONObjectWriter()
        if let startup {
            w.number("firstATTms", startup.firstATTms, decimals: 1)
            w.number("firstTPVms", startup.firstTPVms, decimals: 1)
        } else {
            w.null("firstATTms")
            w.null("firstTPVms")
        }
        let text = startup.map {
            "first ATT \(fixed($0.firstATTms, 0)) ms after the start, first TPV \(fixed($0.firstTPVms, 0)) ms after the receiver's first sentence"
        }
        return BenchOutput(json: [("startup", w.finished)], text: text ?? "not measured")
    }

    /// The start-up figures as `lodestone bench startup` prints them.
    public static func startupLine(_ figures: StartupBench.Figures) -> String {
        "first ATT \(fixed(figures.firstATTms, 1)) ms, first TPV \(fixed(figures.firstTPVms, 1)) ms"
    }

    static func runtime(_ cost: (RuntimeCostBench.Figures?, String?), memory: (RuntimeMemoryBench.Figures?, String?)) -> BenchOutput {
        var w = JSONObjectWriter()
        if let figures = cost.0 {
            w.number("instructionsPerSecond", figures.total, decimals: 0)
            w.number("sampling", figures.sampling, decimals: 0)
            w.number("output", figures.output, decimals: 0)
            w.number("compassFit", figures.compassFit, decimals: 0)
            w.number("deviceSeconds", figures.deviceSeconds, decimals: 1)
            w.raw(
                "outputAllocationSites",
                "[" + figures.outputAllocationSites.prefix(8).map { JSONObjectWriter.quoted($0.function + " " + fixed($0.calls, 1)) }.joined(separator: ",")
                    + "]")
            if let perReport = figures.outputAllocationsPerReport {
                w.number("outputAllocationsPerReport", perReport, decimals: 3)
            } else {
                w.null("outputAllocationsPerReport")
            }
        } else {
            w.null("instructionsPerSecond")
        }
        if let figures = memory.0 {
            w.integer("rssKB", figures.residentKB)
            w.integer("rssPeakKB", figures.peakKB)
        } else {
            w.null("rssKB")
        }
        if let note = cost.1 ?? memory.1 { w.string("note", note) }
        let text = (cost.0.map(runtimeLine) ?? cost.1 ?? "not measured") + "\nmemory: " + (memory.0.map(memoryLine) ?? memory.1 ?? "not measured")
        return BenchOutput(json: [("runtime", w.finished)], text: text)
    }

    /// The whole runtime's figures as a line a person reads.
    public static func runtimeLine(_ figures: RuntimeCostBench.Figures) -> String {
        "\(fixed(figures.total / 1e6, 2)) million instructions per second of the device's time (sampling thread "
            + "\(fixed(figures.sampling / 1e6, 2)), output thread \(fixed(figures.output / 1e6, 2)), compass fits "
            + "\(fixed(figures.compassFit / 1e6, 2)); simulator excluded, "
            + "\(fixed(figures.deviceSeconds, 1)) s measured)"
            + (figures.outputAllocationsPerReport.map { "; \(fixed($0, 3)) heap allocations per report on the output thread" } ?? "")
            + (figures.outputAllocationSites.isEmpty
                ? "" : ", from " + figures.outputAllocationSites.prefix(5).map { "\($0.function) (\(fixed($0.calls, 1)))" }.joined(separator: ", "))
    }

    public static func memoryLine(_ figures: RuntimeMemoryBench.Figures) -> String {
        "\(fixed(Double(figures.residentKB) / 1024, 1)) MB resident with the memory locked and 4 clients (at most \(fixed(Double(figures.peakKB) / 1024, 1)) MB)"
    }

    static func record(_ figures: RecordingBench.Figures?, _ note: String?) -> BenchOutput {
        var w = JSONObjectWriter()
        if let figures {
            w.number("bytesPerHour", figures.bytesPerHour, decimals: 0)
            w.number("rawBytesPerHour", figures.rawBytesPerHour, decimals: 0)
            w.number("replayTimesRealTime", figures.replayTimesRealTime, decimals: 1)
            w.number("deviceSeconds", figures.deviceSeconds, decimals: 1)
        } else {
            w.null("bytesPerHour")
            if let note { w.string("note", note) }
        }
        return BenchOutput(json: [("record", w.finished)], text: figures.map(recordingLine) ?? note ?? "not measured")
    }

    public static func recordingLine(_ figures: RecordingBench.Figures) -> String {
        "a recording takes \(fixed(figures.bytesPerHour / 1e6, 2)) MB per hour on the card (\(fixed(figures.rawBytesPerHour / 1e6, 2)) MB "
            + "before deflating); its replay ran \(fixed(figures.replayTimesRealTime, 1)) times real time "
            + "(\(fixed(figures.deviceSeconds, 1)) s of the simulated walk)"
    }

    static func trackList(_ trackList: TrackListBench.Result?) -> BenchOutput {
        guard let trackList else { return BenchOutput(json: [("trackList", "null")], text: "could not create the tracks in /tmp") }
        var w = JSONObjectWriter()
        w.integer("tracks", trackList.tracks)
        w.number("listMs", trackList.listMilliseconds, decimals: 1)
        w.number("searchMs", trackList.searchMilliseconds, decimals: 1)
        let text = "\(fixed(trackList.listMilliseconds, 1)) ms to list, \(fixed(trackList.searchMilliseconds, 1)) ms to search \(trackList.tracks) tracks"
        return BenchOutput(json: [("trackList", w.finished)], text: text)
    }

    static func largeTrack(_ track: LargeTrackBench.Result?) -> BenchOutput {
        guard let track else { return BenchOutput(json: [("tracks", "null")], text: "could not be made in /tmp") }
        var w = JSONObjectWriter()
        w.integer("largePoints", track.points)
        w.integer("largePhotos", track.photos)
        w.number("largeListMs", track.listMilliseconds, decimals: 1)
        w.number("largeShowMs", track.showMilliseconds, decimals: 1)
        w.number("largePlotMs", track.plotMilliseconds, decimals: 1)
        w.number("largeExportMs", track.exportMilliseconds, decimals: 1)
        let text =
            "\(track.points) points, \(track.photos) photos: list \(fixed(track.listMilliseconds, 0)) ms, show \(fixed(track.showMilliseconds, 0)) ms, "
            + "plot \(fixed(track.plotMilliseconds, 0)) ms, export \(fixed(track.exportMilliseconds, 0)) ms"
        return BenchOutput(json: [("tracks", w.finished)], text: text)
    }

    /// The large track's figures as `lodestone bench tracks` prints them.
    public static func largeTrackLine(_ figures: LargeTrackBench.Result) -> String {
        "a 30,000-point track with \(figures.photos) photos: list \(fixed(figures.listMilliseconds, 1)) ms, show \(fixed(figures.showMilliseconds, 1)) ms, "
            + "plot \(fixed(figures.plotMilliseconds, 1)) ms, export with the photos \(fixed(figures.exportMilliseconds, 1)) ms"
    }

    static func timetable(_ timetable: TimetableBench.Result?) -> BenchOutput {
        BenchOutput(json: [("timetable", timetable?.json ?? "null")], text: timetable?.lines ?? "could not create the feed in /tmp")
    }

    static func backup(_ backup: BackupBench.Result?) -> BenchOutput {
        BenchOutput(json: [("backup", backup?.json ?? "null")], text: backup.map(backupFigures) ?? "could not make or import the archive in /tmp")
    }

    static func backupFigures(_ figures: BackupBench.Result) -> String {
        "import-all --replace of \(figures.files) stored files (\(figures.archiveEntries) archive entries): \(fixed(figures.importSeconds, 2)) s of CPU"
    }

    /// The backup's figures as `lodestone bench backup-import` prints them.
    public static func backupLine(_ figures: BackupBench.Result) -> String {
        backupFigures(figures) + " (the budget is \(backupBudget))"
    }

    static func clientLoad(_ load: (idle: ClientLoadBench.Run, loaded: ClientLoadBench.Run)?) -> BenchOutput {
        guard let load else { return BenchOutput(json: [("clientLoad", "null")], text: "could not run lodestone") }
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
        let text = [load.idle, load.loaded].map { run in
            "\(run.clients) clients, loop wake-up lateness p99 \(fixed(run.latenessP99, 1)) us, max \(fixed(run.latenessMax, 1)) us, "
                + "\(run.overruns) overruns; \(fixed(run.reportsPerClientPerSecond, 1)) reports per client per second, \(run.droppedClients) dropped"
        }.joined(separator: "\n  ")
        return BenchOutput(json: [("clientLoad", "{\"idle\":" + figures(load.idle) + ",\"loaded\":" + figures(load.loaded) + "}")], text: text)
    }

    /// One run of the socket-load comparison as `lodestone bench clients` prints it.
    public static func clientLoadLine(_ run: ClientLoadBench.Run, pinned: Bool) -> String {
        "pinned \(pinned) clients \(run.clients): p99 \(fixed(run.latenessP99, 1)) us, max \(fixed(run.latenessMax, 1)) us, \(run.overruns) overruns, \(fixed(run.reportsPerClientPerSecond, 1)) reports/client/s"
    }

    static func webApp(compressed: Int, files: Int, plain: Int) -> BenchOutput {
        var w = JSONObjectWriter()
        w.integer("appBytes", compressed)
        w.integer("files", files)
        w.integer("plainBytes", plain)
        return BenchOutput(json: [("web", w.finished)], text: "\(compressed) bytes gzipped (\(files) files, \(plain) bytes plain)")
    }

    static func webBrowsers(_ browsers: WebClientBench.Figures?, _ note: String?) -> BenchOutput {
        var w = JSONObjectWriter()
        if let browsers {
            w.number("instructionsPerClientSecond", browsers.instructionsPerClientSecond, decimals: 0)
            w.number("serverInstructionsPerSecondIdle", browsers.idlePerSecond, decimals: 0)
            w.number("serverInstructionsPerSecond20Clients", browsers.twentyPerSecond, decimals: 0)
        } else {
            w.null("instructionsPerClientSecond")
        }
        let text = browsers.map {
            "\(fixed($0.instructionsPerClientSecond, 0)) instructions per browser and second; "
                + "the server \(fixed($0.idlePerSecond, 0))/s with none, \(fixed($0.twentyPerSecond, 0))/s with 20"
        }
        return BenchOutput(json: [("web", w.finished)], text: text ?? note ?? "not measured")
    }

    static func webAttacks(_ attacks: WebAttackBench.Run?) -> BenchOutput {
        var w = JSONObjectWriter()
        if let attacks {
            w.number("attackSocketGapMs", attacks.pipelining?.socketGapMs ?? .nan, decimals: 1)
            w.integer("attackPeakRSSKB", attacks.pipelining?.peakRSSKB ?? 0)
            w.number("quietSocketGapMs", attacks.quiet.socketGapMs, decimals: 1)
            w.integer("quietRSSKB", attacks.quiet.peakRSSKB)
            w.raw("attacks", webAttackJSON(attacks))
        } else {
            w.null("attackSocketGapMs")
            w.null("attackPeakRSSKB")
        }
        return BenchOutput(json: [("web", w.finished)], text: attacks.map(webAttackFigures) ?? "could not run lodestone")
    }

    /// Each attack by name: the gpsd socket's longest gap (ms) and the peak resident memory (kB).
    public static func webAttackJSON(_ run: WebAttackBench.Run) -> String {
        var all = JSONObjectWriter()
        for figures in [run.quiet] + run.attacks {
            var w = JSONObjectWriter()
            w.number("socketGapMs", figures.socketGapMs, decimals: 1)
            w.integer("peakRSSKB", figures.peakRSSKB)
            all.raw(figures.name, w.finished)
        }
        return all.finished
    }

    static func webAttackFigures(_ run: WebAttackBench.Run) -> String {
        "quiet: the socket's longest gap \(fixed(run.quiet.socketGapMs, 0)) ms, \(run.quiet.peakRSSKB) kB resident; "
            + run.attacks.map {
                "\($0.name): \(fixed($0.socketGapMs, 0)) ms, \($0.peakRSSKB) kB (+\($0.peakRSSKB - run.quiet.peakRSSKB))"
            }.joined(separator: "; ")
    }

    /// The attacks' figures as `lodestone bench web-attack` prints them.
    public static func webAttackLines(_ run: WebAttackBench.Run) -> String {
        webAttackFigures(run) + " (budgets: \(webAttackBudget))"
    }

    static func display(_ perPixel: Double?, _ note: String?) -> BenchOutput {
        var w = JSONObjectWriter()
        if let perPixel { w.number("compassInstructionsPerPixel", perPixel, decimals: 1) } else { w.null("compassInstructionsPerPixel") }
        if let note { w.string("note", note) }
        let text = perPixel.map { "the turning compass at 480x320 costs \(fixed($0, 1)) instructions per pixel and frame" }
        return BenchOutput(json: [("display", w.finished)], text: text ?? note ?? "not measured")
    }

    static func peers(_ figures: PeerBench.Figures) -> BenchOutput {
        // PeerBench.lines ends each comparison with a line end; the table's line has none.
        var text = PeerBench.lines(figures)
        if text.hasSuffix("\n") { text.removeLast() }
        return BenchOutput(json: [("peers", PeerBench.json(figures))], text: text)
    }
}
