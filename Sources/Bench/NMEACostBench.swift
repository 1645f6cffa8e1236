import Glibc
import LodestoneCore
import LodestoneDevices
import LodestoneStorage

/// What one NMEA sentence costs the parser: machine instructions (callgrind, switched on inside
/// `NMEAParser.parse` only) and wall-clock nanoseconds, over a typical receiver's mix of GGA,
/// RMC, GSA, three GSV and VTG.
public enum NMEACostBench {
    static let mix: [String] = [
        "$GPGGA,123519.00,4807.03812,N,01131.00046,E,1,08,0.9,545.4,M,46.9,M,,*6D",
        "$GPGSA,A,3,04,05,09,12,24,25,29,31,,,,,1.8,0.9,1.5*30",
        "$GPGSV,3,1,11,04,56,046,45,05,19,289,40,09,36,221,44,12,42,110,46*7B",
        "$GPGSV,3,2,11,24,66,193,47,25,33,058,42,29,13,322,36,31,09,037,33*70",
        "$GPGSV,3,3,11,02,05,144,,10,12,266,30,26,02,104,*4D",
        "$GPRMC,123519.00,A,4807.03812,N,01131.00046,E,0.022,84.4,230394,,,A*6B",
        "$GPVTG,84.4,T,,M,0.022,N,0.041,K,A*0F"
    ]

    /// 100 cycles of the mix, each a second later than the one before (so each is a fix), with
    /// their checksums computed.
    static func prepared() -> [[UInt8]] {
        var cycles: [String] = []
        for second in 0..<100 {
            let minute = second < 60 ? "1235" : "1236"
            let stamp = minute + (second % 60 < 10 ? "0" : "") + String(second % 60) + ".00"
            cycles += mix.map { text in
                var fields = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
                if fields.count > 1 && fields[1] == "123519.00" { fields[1] = stamp }
                return fields.joined(separator: ",")
            }
        }
        return cycles.map { text in
            var bytes = Array(text.utf8)
            guard let star = bytes.lastIndex(of: UInt8(ascii: "*")) else { return bytes }
            var sum: UInt8 = 0
            for byte in bytes[1..<star] { sum ^= byte }
            let digits = Array("0123456789ABCDEF".utf8)
            bytes = Array(bytes[...star]) + [digits[Int(sum >> 4)], digits[Int(sum & 15)]]
            return bytes
        }
    }

    /// The receiver logs beside the project (`../shared/data/nmea`, every `.log`), when present.
    public static let sharedLogs = "../shared/data/nmea"

    /// Every line of the `.log` files in `directory` that looks like a sentence ("$" or "!"
    /// and a "*"), in file-name order: real receivers' mixes, damaged lines included.
    package static func logSentences(_ directory: String) -> [[UInt8]] {
        var sentences: [[UInt8]] = []
        for name in directoryEntries(directory).filter({ $0.hasSuffix(".log") }).sorted() {
            guard let text = try? readTextFile(directory + "/" + name, limit: 16 << 20) else { continue }
            sentences += self.sentences(inLog: Array(text.utf8))
        }
        return sentences
    }

    /// A log's sentences, split at its line ends whatever they are (LF, CRLF, CR): on the
    /// bytes, since a Swift string holds CRLF as one character that is neither.
    package static func sentences(inLog bytes: [UInt8]) -> [[UInt8]] {
        bytes.split(whereSeparator: { $0 == 0x0A || $0 == 0x0D }).compactMap { line in
            guard let first = line.first, first == UInt8(ascii: "$") || first == UInt8(ascii: "!"), line.contains(UInt8(ascii: "*")) else { return nil }
            return Array(line)
        }
    }

    /// Parses `count` sentences, cycling through the mix (or the logs in `logs`, when given
    /// and not empty); returns how many fixes came out.
    public static func kernel(sentences count: Int, logs: String? = nil) -> Int {
        let fromLogs = logs.map(logSentences) ?? []
        let sentences = fromLogs.isEmpty ? prepared() : fromLogs
        var parser = NMEAParser()
        var fixes = 0
        for index in 0..<count {
            sentences[index % sentences.count].withUnsafeBufferPointer { if parser.parse($0, received: 0) != nil { fixes += 1 } }
        }
        return fixes
    }

    /// Nanoseconds per sentence, timed in this process (the best of three runs).
    public static func nanosecondsPerSentence(count: Int = 200_000) -> Double {
        let clock = SystemMonotonicClock()
        var best = Double.infinity
        for _ in 0..<3 {
            let start = clock.now()
            _ = kernel(sentences: count)
            best = min(best, Double(clock.now() - start) / Double(count))
        }
        return best
    }
}
