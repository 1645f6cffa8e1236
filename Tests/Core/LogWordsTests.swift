import Testing

@testable import LodestoneCore

/// A log line said again within the minute is counted, not written: lines that differ only
/// in their numbers share a key, lines with other words do not.
@Suite struct LogWordsTests {
    @Test func linesDifferingOnlyInNumbersShareAKey() {
        let a = Log.wordsKey("sampling profile still: IMU 25 Hz, GPS every 5.0 s")
        let b = Log.wordsKey("sampling profile still: IMU 100 Hz, GPS every 1.0 s")
        let c = Log.wordsKey("sampling profile walking: IMU 100 Hz, GPS every 1.0 s")
        #expect(a == b)
        #expect(a != c)
        #expect(Log.wordsKey("é") != Log.wordsKey("e"))
    }
}
