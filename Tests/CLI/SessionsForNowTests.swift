import Glibc
import LodestoneCore
import LodestoneDomain
import LodestoneEncoding
import LodestoneOutputs
import LodestoneReports
@testable import LodestoneRuntime
@testable import LodestoneServices
import LodestoneStorage
import Testing

/// The best sessions as a client reads them at 13:05 on the lake of WavesTests, when the day's
/// best (about the 10:00 ten-pointer) is over: `?WAVES` lists the session under way or next
/// first, each saying when it is and which is the day's best; the display's waves page says
/// the one to go to first and the best after it, over.
@Suite struct SessionsForNowTests {
    @Test func theSessionUnderWayOrNextComesFirst() throws {
        let data = "/tmp/lodestone-sessions-\(getpid())"
        removeTree(data)
        defer { removeTree(data) }
        #expect(makeDirectories(data) && TimetableStore(dataDirectory: data).save(WavesTests.lake()))
        #expect(writeFileAtomically(data + "/timetable-marks.csv", Array("X600,Stadt Zürich,5,3\nX7*,Panta Rhei,4,2\n".utf8)))
        let transit = try #require(TransitService(dataDirectory: data))
        let now = CivilTime(year: 2026, month: 7, day: 4, hour: 11, minute: 5).unixSeconds  // 13:05 in Zurich
        let line = GPSDReports.line(WavesAnswer.report(WavesRequest(place: .stop("weststeg"), date: "2026-07-04"), transit: transit, now: now, outlook: nil))
        let answer = try JSONValue.parse(line)
        let sessions = answer["sessions"]?.arrayValue ?? []
        #expect(sessions.count >= 2, "\(line)")
        let first = try #require(sessions.first)
        #expect(["now", "later"].contains(first["when"]?.stringValue ?? ""), "the first one can still be gone to: \(first)")
        #expect(first["best"]?.boolValue == false, "the day's best is over at 13:05: \(line)")
        let best = try #require(sessions.first { $0["best"]?.boolValue == true })
        #expect(best["when"]?.stringValue == "over", "\(best)")
        // Independently of the order: the first one has not ended at 13:05, the best has.
        let zone = try TimeZoneRules("Europe/Zurich")
        func time(_ value: JSONValue?) -> Double { value?.stringValue.flatMap(CivilTime.parseISO8601) ?? .nan }
        #expect(time(first["end"]) >= now && time(best["end"]) < now, "\(zone.iso8601(now)): \(line)")

        // The display's page: the one to go to first, then the day's best, said to be over.
        let day = try #require(WavesAnswer.day(WavesTests.lake(), marks: transit.marks(now: now), place: .stop(0), date: WavesTests.date, now: now))
        var model = DisplayModel()
        model.waves = WavesAnswer.panel(day, stopName: "Weststeg", now: now)
        let screen = DisplayPage.waves.draw(model, columns: 80, rows: 24).text
        let lines = screen.split(separator: "\n").map(String.init)
        let soon = lines.firstIndex { $0.hasPrefix("Now ") || $0.hasPrefix("Next session ") }
        let over = lines.firstIndex { $0.hasPrefix("Best ") && $0.contains("(over)") }
        #expect(soon != nil && over != nil && (soon ?? 0) < (over ?? 0), "\(screen)")
    }
}
