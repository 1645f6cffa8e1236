import Glibc
@testable import LodestoneBench
import LodestoneCore
import Testing

/// The benches measure what they say: the receiver's logs split into sentences whatever their
/// line ends, and the start-up's first TPV counted from the receiver's first fix sentence, not
/// from the device's own.
struct BenchMeasuresTests {
    @Test func aLogSplitsIntoSentencesWhateverItsLineEnds() {
        let lines = ["$GPGGA,1*00", "$GPRMC,2*00", "not a sentence", "!AIVDM,3*00", "$GPGSA,4*00"]
        for end in ["\n", "\r\n", "\r", "\n\r"] {
            let sentences = NMEACostBench.sentences(inLog: Array(lines.joined(separator: end).utf8) + Array(end.utf8))
            #expect(sentences.count == 4, "line end \(Array(end.utf8)): \(sentences.count) sentences")
            #expect(sentences.allSatisfy { !$0.contains(0x0A) && !$0.contains(0x0D) })
            #expect(sentences.first == Array("$GPGGA,1*00".utf8))
        }
    }

    @Test func theSharedLogsAreAllTheirSentences() {
        let logs = NMEACostBench.sharedLogs
        let sentences = NMEACostBench.logSentences(logs)
        guard !sentences.isEmpty else {
            print("skipped: no receiver logs at \(logs) (../shared is absent)")
            return
        }
        // 80 logs, 43 of them with CRLF line ends: each line one sentence, none a whole file.
        #expect(sentences.count > 17_000, "\(sentences.count) sentences")
        #expect(sentences.allSatisfy { $0.count <= 200 }, "the longest is \(sentences.map(\.count).max() ?? 0) bytes")
    }

    @Test func theFirstTPVIsCountedFromTheReceiversFix() {
        #expect(StartupBench.isReceiversFix("$GPGGA,123519.00,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47"))
        #expect(StartupBench.isReceiversFix("$GNRMC,123519.00,A,4807.038,N,01131.000,E,0.0,84.4,230394,,,A*6A"))
        // What the device sends of its own from its first milliseconds.
        #expect(!StartupBench.isReceiversFix("$IIXDR,P,1.01325,B,Barometer*29"))
        #expect(!StartupBench.isReceiversFix("$HCHDG,101.1,,,3.1,E*1B"))
        #expect(!StartupBench.isReceiversFix("$GPGSV,3,1,11*00"))
        #expect(!StartupBench.isReceiversFix(#"{"class":"TPV"}"#))
        #expect(!StartupBench.isReceiversFix("$GP"))
    }

    /// The README's table against the peers and docs/benchmarks.md are written from one bench
    /// run by scripts/bench-figures: every figure in the table is the page's, none typed by hand.
    @Test func theReadmeTableIsTheBenchmarksPages() throws {
        var root = #filePath
        for _ in 0..<3 { root = String(root[..<(root.lastIndex(of: "/") ?? root.startIndex)]) }
        let readme = try readTextFile(root + "/README.md", limit: 1 << 20)
        let page = try readTextFile(root + "/docs/benchmarks.md", limit: 1 << 20)
        var figures: [String: Double] = [:]
        for line in page.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|").map { Self.trimmed($0, " `") }
            if cells.count >= 2, let value = Double(cells[1]) { figures[cells[0]] = value }
        }
        let rows = readme.split(separator: "\n").filter { $0.hasPrefix("| ") && !$0.hasPrefix("| figure") }
        let table = rows.drop { !$0.contains("NMEA parse, bench mix") }.prefix(6)
        try #require(table.count == 6, "the README's table against the peers")
        let keys: [(ours: String, theirs: String?)] = [
            ("nmea.instructionsPerSentence", "peers.minmea.instructionsPerSentence"),
            ("nmea.logsInstructionsPerSentence", "peers.minmea.logsInstructionsPerSentence"),
            ("peers.gpsdecode.lodestoneInstructionsPerSentence", "peers.gpsdecode.instructionsPerSentence"),
            ("attitudeFilter.instructionsPerUpdate", "peers.fusion.instructionsPerUpdate"),
            ("runtime.instructionsPerSecond", nil), ("runtime.rssKB", nil)
        ]
        for (row, key) in zip(table, keys) {
            let cells = row.split(separator: "|", omittingEmptySubsequences: false).map { Self.trimmed($0, " ") }
            func number(_ index: Int) -> Double? { cells.indices.contains(index) ? Double(String(cells[index].filter { $0 != "," })) : nil }
            #expect(number(2) == figures[key.ours].map { $0.rounded() }, "\(key.ours): \(row)")
            if let theirs = key.theirs { #expect(number(4) == figures[theirs].map { $0.rounded() }, "\(theirs): \(row)") }
        }
    }

    static func trimmed(_ text: Substring, _ characters: String) -> String {
        String(text.drop { characters.contains($0) }.reversed().drop { characters.contains($0) }.reversed())
    }

    /// The runtime bench says where the output thread's allocations come from: each call to
    /// the allocator followed up the profile's calls to the program's own function, shared
    /// among callers by their counts.
    @Test func allocationsAreTracedToTheProgramsOwnFunctions() throws {
        let path = "/tmp/lodestone-origins-\(getpid()).out"
        defer { unlink(path) }
        let profile = """
            events: Ir
            fn=(1) $s16LodestoneRuntime4SkyA4tickyyF
            cfn=(2) swift_allocObject
            calls=3 0
            0 10
            cfn=(3) $sSS6appendyySSF
            calls=1 0
            0 5
            fn=(4) $s16LodestoneRuntime3LogA5writeyyF
            cfn=(3)
            calls=1 0
            0 5
            fn=(3)
            cfn=(2)
            calls=4 0
            0 20
            fn=(2)
            cfn=(5) malloc
            calls=7 0
            0 7
            fn=(5)
            cfn=(5)
            calls=7 0
            0 7
            """
        #expect(writeFileAtomically(path, Array(profile.utf8)))
        let origins = Callgrind.origins(in: path, of: { $0 == "malloc" }, ownedBy: { $0.contains("Lodestone") })
        let byName = Dictionary(origins.map { ($0.function, $0.calls) }, uniquingKeysWith: +)
        // The tick's own 3 and half of the string's 4; the log line's other half.
        #expect(byName["$s16LodestoneRuntime4SkyA4tickyyF"] == 5)
        #expect(byName["$s16LodestoneRuntime3LogA5writeyyF"] == 2)
        #expect(origins.first?.function == "$s16LodestoneRuntime4SkyA4tickyyF")
    }
}
