import Glibc
import LodestoneCore
import Testing

/// The one table of words: each code once, every entry in German too (a visible English word
/// missing from the German fails here), the same figures in both, and the web app's copy
/// (`web/words.js`) written from it.
@Suite struct WordsTests {
    static var repository: String {
        var path = #filePath
        for _ in 0..<3 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
        return path
    }

    @Test func eachCodeOnce() {
        var seen: Set<String> = []
        let repeated = Words.table.map(\.key).filter { !seen.insert($0).inserted }
        #expect(repeated.isEmpty, "codes with two entries: \(repeated)")
    }

    @Test func everyEnglishEntryHasItsGerman() {
        let missing = Words.table.filter { ($0.de ?? "").isEmpty }.map(\.key)
        #expect(missing.isEmpty, "no German for: \(missing)")
    }

    @Test func bothLanguagesTakeTheSameFigures() {
        for entry in Words.table {
            let marks = { (text: String) -> [Int] in (1...9).filter { (number: Int) in text.contains("{\(number)}") } }
            #expect(marks(entry.en) == marks(entry.de ?? entry.en), "\(entry.key): the English and the German take different figures")
        }
    }

    @Test func codesReadAsWords() {
        #expect(Words.trend("fallingFast", arrow: "⇊", rate: "1.2 hPa") == "⇊ falling fast, 1.2 hPa an hour")
        #expect(Words.trend("fallingFast", arrow: "⇊", rate: "1.2 hPa", .de) == "⇊ fällt schnell, 1.2 hPa pro Stunde")
        #expect(Words.text("alertRule", "pressureHigh", .en, "1040 hPa") == "Pressure above 1040 hPa")
        #expect(Words.text("zambretti", "R") == "Unsettled, rain later")
        #expect(Words.text("sky", "astronomicalDawn", .de) == "astronomische Morgendämmerung")
        #expect(Words.profile("walking/lowPower+shed") == "walking, saving power, shedding load")
        // A code the table does not know is spelled out, never shown as it is.
        #expect(Words.text("motion", "cableCar") == "cable car")
    }

    @Test func durationsAsPeopleWriteThem() {
        #expect(Words.duration(5820) == "1 h 37 min")
        #expect(Words.duration(2400) == "40 min")
        #expect(Words.duration(3600) == "1 h")
        #expect(Words.duration(183_600) == "2 d 3 h")
        #expect(Words.duration(45) == "45 s")
        #expect(Words.duration(.nan) == "--")
    }

    @Test func theSeasonOnItsFirstDay() {
        #expect(Words.seasonCountdown("summer", days: 0) == "Summer begins today")
        #expect(Words.seasonCountdown("winter", days: 12) == "Winter in 12 days")
        #expect(Words.seasonCountdown("winter", days: 12, .de) == "Winter in 12 Tagen")
    }

    /// `web/words.js` is the table as the browser reads it; LODESTONE_WRITE_WORDS=1 rewrites it.
    @Test func theWebAppReadsTheSameTable() throws {
        let path = Self.repository + "/web/words.js"
        let expected = Words.javascript()
        if getenv("LODESTONE_WRITE_WORDS") != nil {
            let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            try #require(fd >= 0, "cannot write \(path)")
            let bytes = Array(expected.utf8)
            let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            close(fd)
            try #require(written == bytes.count)
        }
        let text = try readTextFile(path)
        #expect(text == expected, "web/words.js differs from the table: LODESTONE_WRITE_WORDS=1 swift test --filter WordsTests")
    }
}
