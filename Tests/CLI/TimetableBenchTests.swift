import Glibc
import LodestoneCore
import Testing
@testable import LodestoneBench
@testable import LodestoneStorage

/// The timetable bench measures a cold answer as `lodestone departures` gives one, and its
/// JSON carries the instruction count, or null with the reason where callgrind could not count.
@Suite struct TimetableBenchTests {
    static func figures(instructions: Double?, note: String?) -> TimetableBench.Result {
        TimetableBench.Result(
            stops: 10_000, trips: 20_000, stopTimes: 1_000_000, importMilliseconds: 2700, importPeakKilobytes: 60_000, indexBytes: 14_000_000,
            busyStopMilliseconds: 1.3, searchMilliseconds: 20, nearestMilliseconds: 8.3, feedMilliseconds: 1200, busyStopCalls: 20_000, departures: 5,
            busyStopInstructions: instructions, instructionsNote: note)
    }

    @Test func theJSONCarriesTheBusyStopsInstructions() {
        let counted = Self.figures(instructions: 10_708_170, note: nil)
        #expect(counted.json.contains(#""busyStopInstructions":10708170"#), "\(counted.json)")
        #expect(counted.lines.contains("10.7 M instructions"), "\(counted.lines)")
        let missing = Self.figures(instructions: nil, note: "valgrind not found: install valgrind to count instructions")
        #expect(missing.json.contains(#""busyStopInstructions":null"#) && missing.json.contains("valgrind not found"), "\(missing.json)")
        #expect(missing.lines.contains("instructions not counted (valgrind not found"), "\(missing.lines)")
    }

    /// What callgrind counts: one load of the kept timetable and the busiest stop's next five.
    @Test func theColdAnswerIsTheBusiestStopsNextFive() throws {
        let feed = SyntheticFeed(stops: 200, stopTimes: 20_000)
        let folder = "/tmp/lodestone-ttbench-\(getpid())", data = folder + "-data"
        removeTree(folder)
        removeTree(data)
        defer { removeTree(folder); removeTree(data) }
        #expect(feed.write(to: folder))
        let (imported, _) = try GTFSImport.read(folder)
        #expect(TimetableStore(dataDirectory: data).save(imported))
        #expect(TimetableBench.coldAnswer(dataDirectory: data) == 5)
        #expect(TimetableBench.kernel(answers: 2, dataDirectory: data) == 10)
        #expect(TimetableBench.coldAnswer(dataDirectory: data + "-none") == nil)
    }
}
