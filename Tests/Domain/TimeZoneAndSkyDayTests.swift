import LodestoneCore
import LodestoneDomain
import Testing

/// Local days: zone offsets from the system's zone files and their POSIX rule, and the Sun's
/// events belonging to the local calendar day.
@Suite struct TimeZoneAndSkyDayTests {
    @Test func zurichChangesItsClocksOnTheLastSundays() throws {
        guard (try? TimeZoneRules("Europe/Zurich")) != nil else {
            print("skipped: /usr/share/zoneinfo has no Europe/Zurich (install tzdata)")
            return
        }
        let zurich = try TimeZoneRules("Europe/Zurich")
        // 2026: summer time from 29 March 01:00 UTC to 25 October 01:00 UTC.
        let change = CivilTime(year: 2026, month: 3, day: 29, hour: 1).unixSeconds
        #expect(zurich.offset(at: change - 1) == 3600 && zurich.offset(at: change) == 7200)
        let back = CivilTime(year: 2026, month: 10, day: 25, hour: 1).unixSeconds
        #expect(zurich.offset(at: back - 1) == 7200 && zurich.offset(at: back) == 3600)
        // Beyond the file's table (2037), the footer's rule: 2040 changes on 25 March.
        let later = CivilTime(year: 2040, month: 3, day: 25, hour: 1).unixSeconds
        #expect(zurich.offset(at: later - 1) == 3600 && zurich.offset(at: later) == 7200)
        #expect(zurich.iso8601(CivilTime(year: 2026, month: 6, day: 21, hour: 3, minute: 34, second: 55).unixSeconds) == "2026-06-21T05:34:55+02:00")
        #expect(zurich.midnight(year: 2026, month: 6, day: 21) == CivilTime(year: 2026, month: 6, day: 20, hour: 22).unixSeconds)
    }

    @Test func offsetsAndBadNames() throws {
        #expect(try TimeZoneRules("+05:30").offset(at: 0) == 19_800)
        #expect(try TimeZoneRules("-0800").offset(at: 0) == -28_800)
        #expect(try TimeZoneRules("UTC").iso8601(0) == "1970-01-01T00:00:00+00:00")
        // West of Greenwich, a half-hour offset, and a second that rounds up into the next minute.
        #expect(
            try TimeZoneRules("-0330").iso8601(CivilTime(year: 2026, month: 1, day: 1, hour: 2, minute: 59, second: 59.6).unixSeconds)
                == "2025-12-31T23:30:00-03:30")
        #expect(try TimeZoneRules("+05:45").iso8601(1_000_000_000) == "2001-09-09T07:31:40+05:45")
        #expect(throws: TimeZoneRules.Failure.self) { try TimeZoneRules("Mars/Olympus") }
        #expect(throws: TimeZoneRules.Failure.self) { try TimeZoneRules("../../etc/passwd") }
        #expect(throws: TimeZoneRules.Failure.self) { try TimeZoneRules("+25:00") }
    }

    /// At 46.5° N on the June solstice, astronomical dusk comes after midnight: it belongs to
    /// the next day, and this day's morning events are this day's.
    @Test func eveningEventsAfterMidnightBelongToTheNextDay() throws {
        let start = CivilTime(year: 2026, month: 6, day: 20, hour: 22).unixSeconds
        let events = SunEvents.of(dayFrom: start, to: start + 86_400, latitude: 46.55, longitude: 7.98)
        let dawn = try #require(events.astronomicalDawn), sunrise = try #require(events.sunrise), noon = try #require(events.solarNoon)
        #expect(dawn < sunrise && sunrise < noon)
        #expect(events.astronomicalDusk == nil)
        let dusk = try #require(events.nauticalDusk), sunset = try #require(events.sunset)
        #expect(noon < sunset && sunset < dusk && dusk < start + 86_400)
        #expect(abs(events.dayLength - (sunset - sunrise)) < 0.01)
    }
}
