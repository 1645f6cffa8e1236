import LodestoneCore
import Testing

/// The device's one clock: times of day on a 24-hour or a 12-hour clock, and the zone's name
/// as people say it, from the system's zone files (the names the tz database gives, a POSIX
/// rule's beyond the file's table) and for offsets.
@Suite struct LocalClockTests {
    static func zone(_ name: String) -> TimeZoneRules? {
        let zone = try? TimeZoneRules(name)
        if zone == nil { print("skipped: /usr/share/zoneinfo has no \(name) (install tzdata)") }
        return zone
    }

    @Test func theZonesNameAsPeopleSayIt() throws {
        let summer = CivilTime(year: 2026, month: 6, day: 21, hour: 12).unixSeconds
        let winter = CivilTime(year: 2026, month: 12, day: 21, hour: 12).unixSeconds
        if let zurich = Self.zone("Europe/Zurich") {
            #expect(zurich.abbreviation(at: summer) == "CEST" && zurich.abbreviation(at: winter) == "CET")
            // Past the file's table (2037), from the footer's rule: CEST in summer 2045.
            #expect(zurich.abbreviation(at: CivilTime(year: 2045, month: 7, day: 1).unixSeconds) == "CEST")
            #expect(zurich.abbreviation(at: CivilTime(year: 2045, month: 1, day: 1).unixSeconds) == "CET")
        }
        if let newYork = Self.zone("America/New_York") {
            #expect(newYork.abbreviation(at: summer) == "EDT" && newYork.abbreviation(at: winter) == "EST")
        }
        // The database writes some zones' names as numbers ("-03"): said as an offset from UTC.
        if let saoPaulo = Self.zone("America/Sao_Paulo") { #expect(saoPaulo.abbreviation(at: summer) == "UTC-3") }
        #expect(try TimeZoneRules("+05:30").abbreviation(at: summer) == "UTC+5:30")
        #expect(try TimeZoneRules("-0800").abbreviation(at: summer) == "UTC-8")
        #expect(try TimeZoneRules("UTC").abbreviation(at: summer) == "UTC")
        #expect(TimeZoneRules.utc.abbreviation(at: .nan) == "UTC")
    }

    @Test func timesOfDayOnBothClocks() throws {
        let zone = try TimeZoneRules("+02:00")
        func at(_ hour: Int, _ minute: Int) -> Double { CivilTime(year: 2026, month: 6, day: 21, hour: hour - 2, minute: minute).unixSeconds }
        let clock = LocalClock(zone: zone)
        #expect(clock.timeOfDay(at(5, 7)) == "05:07" && clock.timeOfDay(at(23, 59)) == "23:59" && clock.timeOfDay(at(2, 0)) == "02:00")
        let twelve = LocalClock(zone: zone, twelveHour: true)
        #expect(twelve.timeOfDay(at(5, 7)) == "5:07 am")
        #expect(twelve.timeOfDay(at(2, 0) - 2 * 3600) == "12:00 am", "midnight is 12 am")
        #expect(twelve.timeOfDay(at(12, 30)) == "12:30 pm", "noon is 12 pm")
        #expect(twelve.timeOfDay(at(23, 59)) == "11:59 pm")
        #expect(clock.timeOfDayWithZone(at(14, 32)) == "14:32 UTC+2")
        #expect(clock.timeOfDay(.nan) == "--:--" && clock.timeOfDay(.infinity) == "--:--")
    }

    @Test func aChangeIsCountedOnlyWhenSomethingChanged() throws {
        let clock = LocalClock(zone: try TimeZoneRules("+01:00"))
        clock.set(zone: try TimeZoneRules("+01:00"), twelveHour: false)
        #expect(clock.generation == 0)
        clock.set(zone: try TimeZoneRules("-05:00"), twelveHour: false)
        #expect(clock.generation == 1 && clock.zone.name == "-05:00")
        clock.set(zone: try TimeZoneRules("-05:00"), twelveHour: true)
        #expect(clock.generation == 2 && clock.twelveHour)
    }
}
