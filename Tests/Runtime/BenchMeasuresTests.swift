import LodestoneBench
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
}
