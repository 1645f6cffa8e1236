import Glibc
import LodestoneCore
import LodestoneOutputs
import LodestoneEncoding
import LodestoneStorage

/// Whether socket clients can disturb the sampling loop: `lodestone run` on the simulated
/// board once with no clients and once with 100 clients each taking IMU and ATT reports at
/// 50 Hz; the loop's wake-up lateness and overruns from its HEALTH report, and what the
/// clients received. The output thread does all the socket work, so the figures should match.
public enum ClientLoadBench {
    public struct Run {
        public var clients: Int
        public var latenessP99: Double
        public var latenessMax: Double
        public var overruns: Int
        /// Reports each client received per second (0 without clients).
        public var reportsPerClientPerSecond: Double
        public var droppedClients: Int
    }

    public static func run(seconds: Double = 10, pin: Bool = false) -> (idle: Run, loaded: Run)? {
        guard let idle = measure(clients: 0, seconds: seconds, pin: pin), let loaded = measure(clients: 100, seconds: seconds, pin: pin) else { return nil }
        return (idle, loaded)
    }

    /// One run; `executable` is the lodestone binary (this one unless a test says otherwise).
    /// `pin`: the sampling thread on the last CPU (`--cpu`), away from the socket work.
    static func measure(clients count: Int, seconds: Double, pin: Bool = false, executable: String? = Callgrind.currentExecutable()) -> Run? {
        guard let executable else { return nil }
        let directory = "/tmp/lodestone-bench-clients-\(getpid())"
        let socket = directory + ".sock"
        defer { removeTree(directory) }
        guard
            let pid = startProgram(
                [
                    executable, "run", "--scenario", "still", "--no-adaptive", "--display", "none", "--socket", socket,
                    "--data-dir", directory, "--duration", String(Int(seconds) + 30)
                ]
                    + (pin ? ["--cpu", String(max(0, sysconf(Int32(_SC_NPROCESSORS_ONLN)) - 1))] : []))
        else { return nil }
        defer { stopProgram(pid) }
        var probe: ReportClient?
        for _ in 0..<100 where probe == nil {
            probe = try? ReportClient(path: socket)
            if probe == nil { usleep(100_000) }
        }
        guard let probe else { return nil }
        usleep(2_000_000)  // past the start: threads up, first fix
        var clients: [ReportClient] = []
        for _ in 0..<count {
            guard let client = try? ReportClient(path: socket) else { break }
            client.send(#"?WATCH={"enable":true,"json":true,"rates":{"IMU":50,"ATT":50}};"#)
            clients.append(client)
        }
        // Statistics restart from here: the HEALTH before and after give the window's figures.
        let clock = SystemMonotonicClock()
        let start = clock.now()
        var received = 0
        while Double(clock.now() &- start) / 1e9 < seconds {
            for client in clients { received += client.countArrivedLines() }
            usleep(2_000)
        }
        probe.send("?STATUS;")
        var health: JSONValue?
        while health == nil, let line = probe.readLine(timeoutMilliseconds: 3000) {
            if line.contains(#""class":"HEALTH""#) { health = try? JSONValue.parse(line) }
        }
        guard let loop = health?["loop"] else { return nil }
        return Run(
            clients: clients.count, latenessP99: loop["latenessP99us"]?.numberValue ?? .nan,
            latenessMax: loop["latenessMaxus"]?.numberValue ?? .nan, overruns: Int(whole: loop["overruns"]?.numberValue ?? -1) ?? -1,
            reportsPerClientPerSecond: clients.isEmpty ? 0 : Double(received) / Double(clients.count) / seconds,
            droppedClients: Int(whole: health?["droppedClients"]?.numberValue ?? 0) ?? 0)
    }
}
