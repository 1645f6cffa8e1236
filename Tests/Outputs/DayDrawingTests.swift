import LodestoneCore
import LodestoneHAL
@testable import LodestoneOutputs
import LodestoneReports
import Testing

/// The day page on a panel: the steps large, and the day's hours as bars across the panel,
/// the hour now in the accent; a day with no steps yet still uses the panel with its chart.
@Suite struct DayDrawingTests {
    @Test func theHoursAreBarsAndAnEmptyDayStillFillsThePanel() throws {
        var model = DisplayFixtures.walk
        let frame = PageFitTests.frame(.day, model, width: 800, height: 480)
        #expect(frame.runs.contains { $0.key && $0.text == "12,345" })
        // One bar per hour with steps: 7 of the fixture's hours, the busiest one's count on the top line.
        let bars = frame.drawings.filter { $0.width > 4 && $0.height > 4 && $0.width < 60 }
        #expect(bars.count == 7, "\(bars)")
        #expect(frame.runs.contains { $0.text == "3,105" })
        // A new day: no steps, every hour empty; the chart's frame and hours are there.
        var day = try #require(model.day)
        (day.steps, day.distance, day.activeSeconds, day.cadence, day.state) = (0, 0, 0, 0, "still")
        day.stepsByHour = Array(repeating: 0, count: 24)
        model.day = day
        let empty = PageFitTests.frame(.day, model, width: 800, height: 480)
        #expect(empty.used >= 0.6, "used \(empty.used)")
        #expect(["00", "06", "12", "18"].allSatisfy { mark in empty.runs.contains { $0.text == mark } })
        // On a 12-hour clock the marks are the 12-hour clock's.
        day.twelveHour = true
        model.day = day
        let twelve = PageFitTests.frame(.day, model, width: 800, height: 480)
        #expect(["12a", "6a", "12p", "6p"].allSatisfy { mark in twelve.runs.contains { $0.text == mark } })
    }
}
