import LodestoneCore

/// Wake-up lateness of the scheduler at a fixed rate, and of cyclictest (rt-tests) at the same
/// interval and policy in the same run, so the two are compared on equal terms.
public struct LatencyFigures: Sendable, Equatable {
    public var p50Microseconds: Double
    public var p99Microseconds: Double
    public var maxMicroseconds: Double
    public var samples: Int
}

public struct SchedulerLatencyResult: Sendable {
    public var rateHz: Double
    public var fifo: Bool
    public var scheduler: LatencyFigures
    /// nil when cyclictest is not installed or could not run.
    public var cyclictest: LatencyFigures?
    public var cyclictestNote: String?
}

public enum SchedulerLatencyBench {
    public static func run(rateHz: Double = 1000, seconds: Double = 5) -> SchedulerLatencyResult {
        let clock = SystemMonotonicClock()
        let ticks = Int(rateHz * seconds)
        let figures = UnsafeMutablePointer<LatencyFigures>.allocate(capacity: 1)
        let fifo = UnsafeMutablePointer<Bool>.allocate(capacity: 1)
        defer { figures.deallocate(); fifo.deallocate() }
        let figuresAddress = Int(bitPattern: figures), fifoAddress = Int(bitPattern: fifo)
        let thread = LoopThread()
        thread.start(name: "bench-sched") {
            // cyclictest holds the CPU wake-up latency at 0 by default; so does this side.
            var outcome = RealTime.apply(
                RealTimeOptions(
                    fifoPriority: 50, cpu: nil, lockMemory: true,
                    timerSlackNanoseconds: 1, keepCPUAwake: true))
            defer { outcome.releaseWakeLatency() }
            let task = ScheduledTask(name: "noop", rateHz: rateHz, budgetMicroseconds: 1, priority: 0) {}
            guard let scheduler = try? FixedRateScheduler(loopRateHz: rateHz, tasks: [task], clock: clock) else { return }
            scheduler.run(ticks: ticks)
            let result = LatencyFigures(
                p50Microseconds: scheduler.latenessPercentile(0.5),
                p99Microseconds: scheduler.latenessPercentile(0.99),
                maxMicroseconds: scheduler.latenessMaximum,
                samples: ticks)
            UnsafeMutablePointer<LatencyFigures>(bitPattern: figuresAddress)?.initialize(to: result)
            UnsafeMutablePointer<Bool>(bitPattern: fifoAddress)?.initialize(to: outcome.fifo)
        }
        thread.join()
        // The scheduler's final statistics are read after the join, which orders them.
        _ = clock
        let ours = figures.pointee
        let usedFIFO = fifo.pointee
        let (cyclic, note) = cyclictest(intervalMicroseconds: Int(1e6 / rateHz), loops: ticks, fifo: usedFIFO)
        return SchedulerLatencyResult(rateHz: rateHz, fifo: usedFIFO, scheduler: ours, cyclictest: cyclic, cyclictestNote: note)
    }

    /// Runs cyclictest with one thread at the same interval, same policy and priority, and
    /// reads its latency histogram (1 us buckets).
    static func cyclictest(intervalMicroseconds: Int, loops: Int, fifo: Bool) -> (LatencyFigures?, String?) {
        var arguments = ["cyclictest", "-q", "-t1", "-i\(intervalMicroseconds)", "-l\(loops)", "-m", "-h10000"]
        arguments.append(fifo ? "-p50" : "-p0")
        guard let (status, output) = runProgram(arguments) else {
            return (nil, "cyclictest not found: install rt-tests to compare")
        }
        guard status == 0, let figures = parseHistogram(output) else {
            return (nil, "cyclictest failed (exit \(status))")
        }
        return (figures, nil)
    }

    /// Percentiles from cyclictest's `-h` output: lines "bucket count" then "# Max Latencies".
    static func parseHistogram(_ text: String) -> LatencyFigures? {
        var counts: [(Int, Int)] = []
        var maximum: Double?
        for line in text.split(separator: "\n") {
            if line.hasPrefix("# Max Latencies:") {
                maximum = line.split(separator: " ").last.flatMap { Double($0) }
                continue
            }
            guard !line.hasPrefix("#") else { continue }
            let parts = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            if parts.count >= 2, let bucket = Int(parts[0]), let count = Int(parts[1]) { counts.append((bucket, count)) }
        }
        let total = counts.reduce(0) { $0 + $1.1 }
        guard total > 0 else { return nil }
        func percentile(_ fraction: Double) -> Double {
            let wanted = Int((Double(total) * fraction).rounded(.up))
            var seen = 0
            for (bucket, count) in counts {
                seen += count
                if seen >= wanted { return Double(bucket + 1) }
            }
            return maximum ?? Double(counts.last?.0 ?? 0)
        }
        return LatencyFigures(
            p50Microseconds: percentile(0.5), p99Microseconds: percentile(0.99),
            maxMicroseconds: maximum ?? percentile(1), samples: total)
    }
}
