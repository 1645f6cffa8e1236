import LodestoneCore
import LodestoneDomain
import LodestoneOutputs
@testable import LodestoneRuntime
import LodestoneReports
import Testing

/// The display's waves page on the lake of WavesTests at 10:05 on 4 July: the best session and
/// the next wave in words, the timeline with the light, the waves, the sessions and the time
/// now where they fall, on a terminal, a medium panel and a small LCD.
@Suite struct WavesPageTests {
    static func model() throws -> DisplayModel {
        let now = CivilTime(year: 2026, month: 7, day: 4, hour: 8, minute: 5).unixSeconds  // 10:05 in Zurich
        let day = try #require(WavesAnswer.day(WavesTests.lake(), marks: WavesTests.marks, place: .stop(0), date: WavesTests.date, now: now))
        var model = DisplayModel()
        model.waves = WavesAnswer.panel(day, stopName: "Weststeg", now: now)
        return model
    }

    @Test func theTimelineAtEverySize() throws {
        let model = try Self.model()
        let panel = try #require(model.waves)
        // From 04:00 (the first boat at 05:00, civil dawn 04:56) to 23:00 (the last at 22:30, dusk 22:05).
        #expect(panel.weekday == 5 && panel.date == "07-04" && panel.end - panel.start == 19 * 3600, "\(panel.date) \(panel.start) \(panel.end)")
        let screen = DisplayPage.waves.draw(model, columns: 80, rows: 24).text
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first?.hasPrefix("WAVES  9/12") == true, "\(screen)")
        #expect(screen.contains("Weststeg  Sat 07-04") && screen.contains("Next wave: 10:30  1 wave  in 25 min"), "\(screen)")
        let best = try #require(panel.sessions.first)
        #expect(screen.contains("Best \(best.span)  \(best.waves) waves  \(best.points) pts"), "\(screen)")
        // The band, 80 cells for 19 hours: the time now (6 h 5 min in) in its cell, dark at the
        // ends, day at noon.
        func cell(_ t: Double) -> Int { Int((t - panel.start) / (panel.end - panel.start) * 80) }
        let noon = CivilTime(year: 2026, month: 7, day: 4, hour: 10).unixSeconds
        let band = try #require(lines.first { $0.contains("|") && $0.contains("=") })
        let cells = Array(band)
        #expect(
            cells.count == 80 && cells.indices.contains(cell(noon)) && cells[cell(panel.now)] == "|" && cells[0] == "." && cells[79] == "."
                && cells[cell(noon)] == "=", "\(band)")
        // The 10:00 ship makes 3 waves, the X7* trips (12:00, 12:30, 13:00) 2.
        let counts = Array(try #require(lines.first { $0.contains("3") && !$0.contains(":") }))
        let ten = cell(CivilTime(year: 2026, month: 7, day: 4, hour: 8).unixSeconds), twelve = cell(noon)
        #expect(counts.indices.contains(twelve) && counts[ten] == "3" && counts[twelve] == "2" && counts.filter { $0 == "2" }.count == 3, "\(String(counts))")
        // The best session bracketed with #, the others with +.
        let sessions = try #require(lines.first { $0.contains("#") })
        #expect(sessions.contains("[") && sessions.contains("]") && sessions.contains("+"), "\(sessions)")
        #expect(screen.contains("06") && screen.contains("12") && screen.contains("18"), "hour labels: \(screen)")
        #expect(screen.contains("lit waves, every 30 min") && screen.contains("sun 05:35-21:25"), "\(screen)")
        // A 128x64 LCD's 21 x 8 cells: the words that matter first, the band still there.
        let small = DisplayPage.waves.draw(model, columns: 21, rows: 8).text
        #expect(small.contains("BEST ") && small.contains("10:30") && small.contains("Next wave, in 25 min") && small.contains("|"), "\(small)")
        // No timetable: a page that says what to do.
        #expect(DisplayPage.waves.draw(DisplayModel(), columns: 80, rows: 24).text.contains("import one"))
    }

    /// On a 12-hour clock the timeline's hour marks are the 12-hour clock's ("6a", "12p"),
    /// placed where the 24-hour marks are.
    @Test func theHourMarksFollowTheClock() throws {
        let now = CivilTime(year: 2026, month: 7, day: 4, hour: 8, minute: 5).unixSeconds
        var day = try #require(WavesAnswer.day(WavesTests.lake(), marks: WavesTests.marks, place: .stop(0), date: WavesTests.date, now: now))
        let twentyFour = WavesAnswer.panel(day, stopName: "Weststeg", now: now)
        day.twelveHour = true
        let twelve = WavesAnswer.panel(day, stopName: "Weststeg", now: now)
        #expect(twentyFour.hours.map(\.time) == twelve.hours.map(\.time))
        #expect(twentyFour.hours.prefix(3).map(\.label) == ["04", "05", "06"], "\(twentyFour.hours.map(\.label))")
        #expect(twelve.hours.prefix(3).map(\.label) == ["4a", "5a", "6a"] && twelve.hours.contains { $0.label == "12p" }, "\(twelve.hours.map(\.label))")
        var model = DisplayModel()
        model.waves = twelve
        let screen = DisplayPage.waves.draw(model, columns: 80, rows: 24).text
        #expect(screen.contains("6a") && screen.contains("12p") && screen.contains("6p") && !screen.contains(" 18 "), "\(screen)")
    }
}
