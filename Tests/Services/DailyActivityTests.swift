import Glibc
import LodestoneCore
import LodestoneDomain
import LodestoneOutputs
import Testing
@testable import LodestoneServices
@testable import LodestoneStorage
import LodestoneReports

/// Steps per local day across restarts, and floors from the barometer's altitude.
@Suite struct DailyActivityTests {
    /// Up a 10 m stair: three floors; down 7 m: two; metre noise at a landing counts nothing;
    /// 20 m of the weather's drift while standing counts nothing either.
    @Test func floorsFromTheAltitudeWithAWholeFloorOfHysteresis() {
        var floors = FloorCounter()
        floors.update(altitude: 400, moving: true)
        for step in 0...100 { floors.update(altitude: 400 + Double(step) * 0.1, moving: true) }
        #expect(floors.up == 3 && floors.down == 0)
        for wobble in [408.9, 410.2, 408.8, 410.4, 409.1] { floors.update(altitude: wobble, moving: true) }
        #expect(floors.up == 3 && floors.down == 0, "noise at a landing")
        for step in 0...70 { floors.update(altitude: 410 - Double(step) * 0.1, moving: true) }
        #expect(floors.down == 2)
        for step in 0...200 { floors.update(altitude: 403 + Double(step) * 0.1, moving: false) }
        #expect(floors.up == 3 && floors.down == 2, "standing while the pressure falls")
        floors.startDay()
        #expect(floors.up == 0 && floors.down == 0)
    }

    /// A restart keeps the day's steps; local midnight starts a new count.
    @Test func theDaysStepsSurviveARestartAndStartAgainAtMidnight() throws {
        let directory = "/tmp/lodestone-activity-\(getpid())"
        defer { removeTree(directory) }
        #expect(makeDirectories(directory))
        let zone = try TimeZoneRules("+02:00")
        let morning = CivilTime(year: 2026, month: 6, day: 21, hour: 6).unixSeconds  // 08:00 local
        let first = DailyActivity(zone: zone, dataDirectory: directory, now: morning)
        first.update(stepsSinceStart: 1200, altitude: 400, moving: true, time: morning)
        first.update(stepsSinceStart: 1500, altitude: 407, moving: true, time: morning + 600)
        first.save(time: morning + 600)
        #expect(first.stepsToday == 1500 && first.floors.up == 2)
        let second = DailyActivity(zone: zone, dataDirectory: directory, now: morning + 3600)
        second.update(stepsSinceStart: 40, altitude: 407, moving: false, time: morning + 3600)
        #expect(second.stepsToday == 1540 && second.floors.up == 2, "the count goes on after a restart")
        // 23:59:59 local, then each second after: the new day counts what came after midnight.
        let lateEvening = CivilTime(year: 2026, month: 6, day: 21, hour: 21, minute: 59, second: 59).unixSeconds
        second.update(stepsSinceStart: 5000, altitude: 407, moving: false, time: lateEvening)
        #expect(second.stepsToday == 6500)
        second.update(stepsSinceStart: 5002, altitude: 407, moving: false, time: lateEvening + 1)
        second.update(stepsSinceStart: 5030, altitude: 407, moving: false, time: lateEvening + 30)
        #expect(second.stepsToday == 28 && second.floors.up == 0)
        // Yesterday's file is not today's.
        second.save(time: lateEvening + 120)
        let nextDay = DailyActivity(zone: zone, dataDirectory: directory, now: lateEvening + 7 * 86_400)
        #expect(nextDay.stepsToday == 0)
    }

    /// The distance on foot and the active time go on across a restart, start again at
    /// midnight, and count only time spent moving, a second at a time; the day page shows them.
    @Test func distanceAndActiveTimeLikeTheSteps() throws {
        let directory = "/tmp/lodestone-activity-distance-\(getpid())"
        defer { removeTree(directory) }
        #expect(makeDirectories(directory))
        let zone = try TimeZoneRules("+02:00")
        let morning = CivilTime(year: 2026, month: 6, day: 21, hour: 6).unixSeconds
        let first = DailyActivity(zone: zone, dataDirectory: directory, now: morning)
        for second in 0...600 {
            first.update(stepsSinceStart: second * 2, distanceSinceStart: Double(second) * 1.4, altitude: 400, moving: true, time: morning + Double(second))
        }
        // Ten minutes standing: no active time; a gap of an hour: none either.
        for second in 601...1200 { first.update(stepsSinceStart: 1200, distanceSinceStart: 840, altitude: 400, moving: false, time: morning + Double(second)) }
        first.update(stepsSinceStart: 1200, distanceSinceStart: 840, altitude: 400, moving: true, time: morning + 4800)
        #expect(abs(first.distanceToday - 840) < 0.01 && first.activeSecondsToday == 600, "\(first.distanceToday) m, \(first.activeSecondsToday) s")
        first.save(time: morning + 4800)
        let second = DailyActivity(zone: zone, dataDirectory: directory, now: morning + 5000)
        second.update(stepsSinceStart: 10, distanceSinceStart: 7, altitude: 400, moving: true, time: morning + 5000)
        second.update(stepsSinceStart: 12, distanceSinceStart: 8.4, altitude: 400, moving: true, time: morning + 5001)
        #expect(abs(second.distanceToday - 848.4) < 0.01 && second.activeSecondsToday == 601, "after a restart: \(second.distanceToday) m")
        let midnight = CivilTime(year: 2026, month: 6, day: 21, hour: 22).unixSeconds
        second.update(stepsSinceStart: 20, distanceSinceStart: 14, altitude: 400, moving: true, time: midnight + 1)
        second.update(stepsSinceStart: 22, distanceSinceStart: 15.4, altitude: 400, moving: true, time: midnight + 2)
        #expect(abs(second.distanceToday - 1.4) < 0.01 && second.activeSecondsToday == 1, "a new day: \(second.distanceToday) m")
        // The page.
        var model = DisplayModel()
        var day = DisplayModel.DayPanel()
        (day.steps, day.distance, day.floorsUp, day.floorsDown, day.activeSeconds, day.cadence, day.state) = (12_345, 8_420, 14, 3, 5_400, 112, "walking")
        model.day = day
        let wide = DisplayPage.day.draw(model, columns: 80, rows: 24).text
        #expect(
            wide.contains("12,345\nsteps today") && wide.contains("8.42 km") && wide.contains("14 up, 3 down") && wide.contains("1 h 30 min")
                && wide.contains("Walking, 112 steps/min"), "\(wide)")
        let small = DisplayPage.day.draw(model, columns: 21, rows: 8).text
        #expect(small.contains("12,345\nSTEPS TODAY") && small.contains("FLOORS +14 -3"), "\(small)")
        #expect(DisplayPage.day.draw(DisplayModel(), columns: 80, rows: 24).text.contains("No step counter"))
    }
}
