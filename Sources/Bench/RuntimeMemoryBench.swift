import Glibc
import LodestoneCore
import LodestoneOutputs

/// What the running device keeps resident: `lodestone run` (this very binary: the package's,
/// with the Swift runtime linked in) on the simulated board at the default rates, memory
/// locked as a service runs it, with 4 socket clients watching; its resident set (VmRSS) in
/// steady state (75 s in: past the walk's calibration and the minute's giving back of the
/// pages one-off work touched, see `ResidentPages`), and the most it reached (VmHWM).
public enum RuntimeMemoryBench {
    public struct Figures: Sendable {
        public var residentKB: Int
        public var peakKB: Int
    }

    public static func run(seconds: Double = 75) -> (Figures?, String?) {
        guard let executable = Callgrind.currentExecutable() else { return (nil, "cannot find this program's path") }
        let directory = "/tmp/lodestone-bench-memory-\(getpid())"
        let socket = directory + ".sock"
        defer { removeTree(directory) }
        guard
            let pid = startProgram([
                executable, "run", "--display", "none", "--socket", socket, "--data-dir", directory, "--duration", String(Int(seconds) + 30)
            ])
        else { return (nil, "could not start \(executable)") }
        defer { stopProgram(pid) }
        var clients: [ReportClient] = []
        let clock = SystemMonotonicClock()
        let started = clock.now()
        while clients.isEmpty && clock.now() &- started < 10_000_000_000 {
            if let client = try? ReportClient(path: socket) { clients.append(client) } else { usleep(20_000) }
        }
        guard !clients.isEmpty else { return (nil, "the device did not open its socket") }
        clients += (0..<3).compactMap { _ in try? ReportClient(path: socket) }
        for client in clients { client.send(#"?WATCH={"enable":true,"json":true};"#) }
        while Double(clock.now() &- started) / 1e9 < seconds {
            for client in clients { _ = client.countArrivedLines() }
            usleep(20_000)
        }
        guard let status = try? readTextFile("/proc/\(pid)/status") else { return (nil, "cannot read /proc/\(pid)/status") }
        func kilobytes(_ key: String) -> Int? {
            status.split(separator: "\n").first { $0.hasPrefix(key + ":") }
                .flatMap { Int($0.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") }
        }
        guard let resident = kilobytes("VmRSS"), let peak = kilobytes("VmHWM") else { return (nil, "no VmRSS in /proc/\(pid)/status") }
        return (Figures(residentKB: resident, peakKB: peak), nil)
    }
}
