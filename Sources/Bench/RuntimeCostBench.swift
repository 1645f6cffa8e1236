import Glibc
import LodestoneCore
import LodestoneOutputs
import LodestoneEncoding
import LodestoneRuntime
import LodestoneStorage

/// What the whole runtime costs, in machine instructions per second of the device's time:
/// `lodestone run` on the simulated board at the default rates with 4 socket clients, under
/// callgrind with one profile per thread, counted over a window of the run switched on and off
/// from outside, in steady state (past start-up and the walk's figure-8 calibration, which
/// happen once). The simulator is taken out: its GPS thread entirely, and on the sampling
/// thread everything below the simulated I2C bus (the chips' emulators and the world model),
/// which a real board's kernel and chips do instead, and the trip's own clock (the bench runs
/// the trip slower than real time, so the loop keeps its rates under callgrind; a board's
/// loop sleeps on the system's clock).
public enum RuntimeCostBench {
    public struct Figures: Sendable {
        public var sampling: Double
        public var output: Double
        /// The compass's background fits, on their own thread (counted in the total).
        public var compassFit: Double
        public var total: Double { sampling + output + compassFit }
        /// Seconds of the device's time the window covered.
        public var deviceSeconds: Double
        /// Heap allocations on the output thread per report it broadcast, in the same window.
        public var outputAllocationsPerReport: Double?
        /// Where those allocations come from: the program's first function above each, with
        /// the count (mangled names: `swift demangle` reads them), most first.
        public var outputAllocationSites: [(function: String, calls: Double)] = []
    }

    /// The C library's allocation entry points, as callgrind names them.
    static let allocators: Set<Substring> = ["malloc", "calloc", "realloc", "posix_memalign", "aligned_alloc", "memalign"]

    /// `speed` slows the simulated world so the loop keeps its rates under callgrind.
    /// The window is a minute of the device's time (4 minutes at a quarter of real time), so
    /// every task the device does once a minute (saving the history and the day's activity, the
    /// compass's background fit, the SUN report) falls in it once, as it does in an hour.
    public static func run(windowSeconds: Double = 240, speed: Double = 0.25) -> (Figures?, String?) {
        guard let executable = Callgrind.currentExecutable() else { return (nil, "cannot find this program's path") }
        let stripped = "/tmp/lodestone-runtime-\(getpid())"
        let profile = "/tmp/lodestone-runtime-\(getpid()).out"
        let directory = "/tmp/lodestone-bench-runtime-\(getpid())"
        let socket = directory + ".sock"
        defer {
            unlink(stripped)
            removeTree(directory)
            for thread in 0..<10 { unlink(profile + "-0\(thread)"); unlink(profile + ".1-0\(thread)") }
            unlink(profile)
        }
        guard runProgram(["strip", "--strip-debug", "-o", stripped, executable])?.status == 0 else { return (nil, "strip failed") }
        guard
            let pid = startProgram([
                "valgrind", "--tool=callgrind", "--separate-threads=yes", "--instr-atstart=no",
                "--callgrind-out-file=" + profile, stripped, "run", "--speed", String(speed),
                "--display", "none", "--socket", socket, "--data-dir", directory, "--duration", "600"
            ])
        else {
            return (nil, "valgrind not found: install valgrind to count instructions")
        }
        var stopped = false
        defer { if !stopped { stopProgram(pid) } }
        var probe: ReportClient?
        for _ in 0..<600 where probe == nil {
            probe = try? ReportClient(path: socket)
            if probe == nil { usleep(100_000) }
        }
        guard let probe else { return (nil, "lodestone did not open its socket under valgrind") }
        let clients = (0..<4).compactMap { _ in try? ReportClient(path: socket) }
        for client in clients { client.send(#"?WATCH={"enable":true,"json":true};"#) }
        func ticks() -> Double? {
            probe.send("?STATUS;")
            while let line = probe.readLine(timeoutMilliseconds: 10_000) {
                if line.contains(#""class":"HEALTH""#) { return (try? JSONValue.parse(line))?["loop"]?["ticks"]?.numberValue }
            }
            return nil
        }
        let clock = SystemMonotonicClock()
        func drain(for seconds: Double) {
            let start = clock.now()
            while Double(clock.now() &- start) / 1e9 < seconds {
                for client in clients { _ = client.countArrivedLines() }
                usleep(20_000)
            }
        }
        // Past the start and the walk's figure-8 calibration (its fits allocate and compute,
        // once): the steady state a logger spends its hours in.
        var warm = 0.0
        let patience = clock.now() &+ 600_000_000_000
        while warm < steadyTicks, clock.now() < patience {
            drain(for: 2)
            guard let now = ticks() else { return (nil, "no HEALTH report from the running device") }
            warm = now
        }
        guard warm >= steadyTicks else { return (nil, "the device did not reach its steady state under valgrind within 10 minutes") }
        guard let before = ticks(), runProgram(["callgrind_control", "--instr=on", String(pid)])?.status == 0 else {
            return (nil, "callgrind_control could not switch instrumentation on")
        }
        drain(for: windowSeconds)
        _ = runProgram(["callgrind_control", "--instr=off", String(pid)])
        guard let after = ticks() else { return (nil, "no HEALTH report after the window") }
        _ = runProgram(["callgrind_control", "--dump=window", String(pid)])
        stopProgram(pid)
        stopped = true
        // The loop runs at 200 Hz of the device's time.
        let deviceSeconds = (after - before) / 200
        guard deviceSeconds > 0 else { return (nil, "the loop did not run in the window") }
        var sampling = 0.0, output = 0.0, compassFit = 0.0
        var allocationsPerReport: Double?
        var allocationSites: [(function: String, calls: Double)] = []
        for thread in 1..<10 {
            let path = profile + ".1-0\(thread)"
            guard fileExists(path), let total = Callgrind.summary(path),
                let annotated = runProgram(["callgrind_annotate", "--inclusive=yes", "--threshold=100", path])?.output
            else { continue }
            if annotated.contains("OutputLoop") {
                output += total
                allocationsPerReport = allocations(perReportIn: path)
                allocationSites = Callgrind.origins(in: path, of: { allocators.contains($0) }, ownedBy: { $0.contains("Lodestone") })
            } else if annotated.contains("BackgroundWorker") {
                compassFit += total
            } else if annotated.contains("FixedRateScheduler") && annotated.contains("runTick") {
                sampling += total - inclusive(of: "SimulatedI2CBusC0A3HAL0dE0AadEP8transfer", in: annotated) - simulationClock(in: annotated)
            }
        }
        return (
            Figures(
                sampling: sampling / deviceSeconds, output: output / deviceSeconds, compassFit: compassFit / deviceSeconds,
                deviceSeconds: deviceSeconds,
                outputAllocationsPerReport: allocationsPerReport, outputAllocationSites: allocationSites), nil
        )
    }

    /// The trip's clock as the sampling thread calls it (its `MonotonicClock` conformance:
    /// reading it and sleeping on it), inclusive.
    static func simulationClock(in annotated: String) -> Double {
        ["SimulationClockCAA09MonotonicD0A2aDP5sleep5until", "SimulationClockCAA09MonotonicD0A2aDP3now"].reduce(0) {
            $0 + inclusive(of: $1, in: annotated)
        }
    }

    /// The device's time (loop ticks at 200 Hz) past which the walk is in steady state: its
    /// figure-8 calibration (30 s of turns and 5 s still) is over and saved.
    static let steadyTicks = 45.0 * 200

    /// Heap allocations per broadcast report in the output thread's profile at `path`. An
    /// interposed malloc calling the C library's is one allocation, not two.
    static func allocations(perReportIn path: String) -> Double? {
        guard let allocations = Callgrind.calls(in: path, to: { allocators.contains($0) }, from: { !allocators.contains($0) }),
            let reports = Callgrind.calls(in: path, to: { $0.contains("ReportServerC9broadcast") && !$0.contains("Sentence") }),
            reports > 0
        else { return nil }
        return allocations / reports
    }

    /// The inclusive instruction count callgrind_annotate gives a function whose name holds `name`.
    static func inclusive(of name: String, in annotated: String) -> Double {
        for line in annotated.split(separator: "\n") where line.contains(name) {
            let digits = line.prefix { $0 == " " || $0.isNumber || $0 == "," }.filter(\.isNumber)
            if let value = Double(String(digits)) { return value }
        }
        return 0
    }
}
