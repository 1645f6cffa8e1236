import Glibc
import LodestoneCore
import LodestoneOutputs
import LodestoneStorage

/// How soon a started device says something: `lodestone run` on the simulated board, a client
/// connecting as soon as the socket exists and watching JSON and the receiver's NMEA; the
/// milliseconds from the start of the process to the first ATT, and from the receiver's first
/// fix sentence (GGA or RMC) to the first TPV (the first burst's own length included).
public enum StartupBench {
    public struct Figures: Sendable {
        public var firstATTms: Double
        public var firstTPVms: Double
    }

    public static func run() -> Figures? {
        guard let executable = Callgrind.currentExecutable() else { return nil }
        let directory = "/tmp/lodestone-bench-startup-\(getpid())"
        let socket = directory + ".sock"
        defer { removeTree(directory) }
        let clock = SystemMonotonicClock()
        let started = clock.now()
        guard
            let pid = startProgram([
                executable, "run", "--display", "none", "--socket", socket, "--data-dir", directory,
                "--duration", "20"
            ])
        else { return nil }
        defer { stopProgram(pid) }
        var client: ReportClient?
        while client == nil && clock.now() &- started < 10_000_000_000 {
            client = try? ReportClient(path: socket)
            if client == nil { usleep(1_000) }
        }
        guard let client else { return nil }
        client.send(#"?WATCH={"enable":true,"json":true,"nmea":true};"#)
        var firstATT: MonotonicNanoseconds?, firstSentence: MonotonicNanoseconds?, firstTPV: MonotonicNanoseconds?
        while clock.now() &- started < 15_000_000_000, firstATT == nil || firstTPV == nil {
            guard let line = client.readLine(timeoutMilliseconds: 1000) else { continue }
            let now = clock.now()
            if firstSentence == nil, Self.isReceiversFix(line) { firstSentence = now }
            if firstATT == nil, line.contains(#""class":"ATT""#) { firstATT = now }
            if firstTPV == nil, line.contains(#""class":"TPV""#), line.contains(#""mode":3"#) || line.contains(#""mode":2"#) { firstTPV = now }
        }
        guard let firstATT, let firstTPV, let firstSentence else { return nil }
        return Figures(firstATTms: Double(firstATT &- started) / 1e6, firstTPVms: Double(firstTPV &- firstSentence) / 1e6)
    }

    /// Whether a line the watch gave is one of the receiver's fix sentences, not one the
    /// device makes itself from the start ($IIXDR, $HCHDG and the like come within
    /// milliseconds; the receiver's first burst some hundred milliseconds later).
    package static func isReceiversFix(_ line: String) -> Bool {
        let bytes = Array(line.utf8.prefix(6))
        guard bytes.count == 6, bytes[0] == UInt8(ascii: "$") else { return false }
        let type = String(decoding: bytes[3...], as: UTF8.self)
        return type == "GGA" || type == "RMC"
    }
}
