import Glibc
import LodestoneCore
import LodestoneOutputs

/// What hostile web clients cost the device's other clients: `lodestone run` on the simulated
/// board with the web app on a loopback port, a gpsd client watching every report on the Unix
/// socket, and one attack at a time against the web server. The figures are the socket's
/// longest silence (milliseconds between two reports) and the process's peak resident memory
/// while each attack lasts, beside the quiet figures before them (bench keys
/// `web.attackSocketGapMs` and `web.attackPeakRSSKB` are the eight pipelining clients').
public enum WebAttackBench {
    public struct Figures {
        public var name: String
        public var socketGapMs: Double
        public var peakRSSKB: Int
    }

    public struct Run {
        /// The quiet figures: the socket's longest gap and the resident memory before any attack.
        public var quiet: Figures
        public var attacks: [Figures]
        public var pipelining: Figures? { attacks.first { $0.name == "pipelining" } }
    }

    /// The attacks, in order: eight connections each pipelining 20,000 requests without
    /// reading; 300 event streams opened and never read; 70 idle connections; pairing codes
    /// guessed as fast as the server answers.
    public static let attackNames = ["pipelining", "eventStreams", "idleConnections", "pairingGuesses"]

    public static func run(seconds: Double = 8, executable: String? = nil) -> Run? {
        guard let executable = executable ?? Callgrind.currentExecutable() else { return nil }
        let directory = "/tmp/lodestone-bench-attack-\(getpid())"
        let socketPath = directory + ".sock"
        defer { removeTree(directory) }
        guard let port = Loopback.freePort(),
            let pid = startProgram([
                executable, "run", "--display", "none", "--socket", socketPath, "--data-dir", directory, "--http", "127.0.0.1:\(port)",
                "--duration", String(Int(seconds * Double(attackNames.count + 1)) + 60)
            ])
        else { return nil }
        defer { stopProgram(pid) }
        var watcher: ReportClient?
        for _ in 0..<100 where watcher == nil {
            watcher = try? ReportClient(path: socketPath)
            if watcher == nil { usleep(100_000) }
        }
        guard let watcher, waitForHTTP(port: port) else { return nil }
        watcher.send(#"?WATCH={"enable":true,"json":true};"#)
        usleep(2_000_000)  // past the start: threads up, first fix
        _ = watcher.countArrivedLines()
        let quiet = measure("quiet", seconds: seconds / 2, pid: pid, watcher: watcher) { _ in }
        var attacks: [Figures] = []
        for name in attackNames {
            var attackers: [Int32] = []
            let flood = attackBytes(name, port: port)
            var offsets: [Int] = []
            let figures = measure(name, seconds: seconds, pid: pid, watcher: watcher) { step in
                if step == 0 {
                    let count = [8, 300, 70, 1][attackNames.firstIndex(of: name) ?? 0]
                    for _ in 0..<count { if let fd = Loopback.connect(port: port, waiting: false) { attackers.append(fd) } }
                    offsets = Array(repeating: 0, count: attackers.count)
                }
                if name == "pairingGuesses" {
                    // A guess every step on one kept-alive connection, the answers read.
                    for fd in attackers {
                        drainSocket(fd)
                        sendAll(flood, on: fd, from: 0)
                    }
                    return
                }
                for (index, fd) in attackers.enumerated() where offsets[index] < flood.count {
                    offsets[index] += sendAll(flood, on: fd, from: offsets[index])
                }
            }
            for fd in attackers { close(fd) }
            attacks.append(figures)
            usleep(1_500_000)  // the server lets the closed connections go
            _ = watcher.countArrivedLines()
        }
        return Run(quiet: quiet, attacks: attacks)
    }

    /// The bytes each attacker sends (all of them, as fast as the socket takes them).
    static func attackBytes(_ name: String, port: Int) -> [UInt8] {
        let host = "Host: 127.0.0.1:\(port)\r\n"
        switch name {
        case "pipelining": return Array(String(repeating: "GET /style.css HTTP/1.1\r\n\(host)\r\n", count: 20_000).utf8)
        case "eventStreams": return Array("GET /api/v1/events HTTP/1.1\r\n\(host)\r\n".utf8)
        case "pairingGuesses": return Array("GET /pair?code=guessguess HTTP/1.1\r\n\(host)\r\n".utf8)
        default: return []
        }
    }

    /// Runs `attack(step)` every 2 ms for `seconds`, timing the reports that reach `watcher`
    /// and sampling the process's resident memory.
    static func measure(_ name: String, seconds: Double, pid: pid_t, watcher: ReportClient, attack: (Int) -> Void) -> Figures {
        let clock = SystemMonotonicClock()
        let start = clock.now()
        var last = start
        var longest: MonotonicNanoseconds = 0
        var peak = residentKilobytes(pid) ?? 0
        var step = 0
        while Double(clock.now() &- start) / 1e9 < seconds {
            attack(step)
            step += 1
            if watcher.countArrivedLines() > 0 {
                let now = clock.now()
                longest = max(longest, now &- last)
                last = now
            }
            if step % 25 == 0 { peak = max(peak, residentKilobytes(pid) ?? 0) }
            usleep(2_000)
        }
        longest = max(longest, clock.now() &- last)
        return Figures(name: name, socketGapMs: Double(longest) / 1e6, peakRSSKB: peak)
    }

    /// The process's resident memory now (VmRSS, kB).
    static func residentKilobytes(_ pid: pid_t) -> Int? {
        guard let text = try? readTextFile("/proc/\(pid)/status", limit: 16_384) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
        }
        return nil
    }

    /// Whether the web app answers on `port` within ten seconds.
    static func waitForHTTP(port: Int) -> Bool {
        for _ in 0..<100 {
            if let fd = Loopback.connect(port: port, waiting: false) {
                var entry = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                var failure: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                let ready = poll(&entry, 1, 100) == 1 && getsockopt(fd, SOL_SOCKET, SO_ERROR, &failure, &length) == 0 && failure == 0
                close(fd)
                if ready { return true }
            }
            usleep(100_000)
        }
        return false
    }

    /// Sends what the socket takes of `bytes` from `offset`; how many it took.
    @discardableResult
    static func sendAll(_ bytes: [UInt8], on fd: Int32, from offset: Int) -> Int {
        guard offset < bytes.count else { return 0 }
        let count = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        return max(0, count)
    }

    /// Reads and drops what waits on `fd`.
    static func drainSocket(_ fd: Int32) {
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while buffer.withUnsafeMutableBytes({ recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }) > 0 {}
    }
}
