import LodestoneCore
import Testing

@Suite struct CivilTimeTests {
    @Test func knownDates() {
        #expect(CivilTime.days(year: 1970, month: 1, day: 1) == 0)
        #expect(CivilTime.days(year: 2000, month: 1, day: 1) == 10_957)
        #expect(CivilTime.days(year: 2000, month: 3, day: 1) == 11_017)  // 2000 is a leap year
        #expect(CivilTime.days(year: 1900, month: 3, day: 1) == -25_508)  // 1900 is not
        #expect(CivilTime(unixSeconds: 1_782_028_800).iso8601 == "2026-06-21T08:00:00.000Z")
        #expect(CivilTime(unixSeconds: -1).iso8601 == "1969-12-31T23:59:59.000Z")
    }

    @Test func roundTripsEveryDayFor400Years() {
        var mismatches = 0
        for days in stride(from: -25_000, to: 121_000, by: 1) {
            let (y, m, d) = CivilTime.civil(fromDays: days)
            if CivilTime.days(year: y, month: m, day: d) != days { mismatches += 1 }
        }
        #expect(mismatches == 0)
    }

    @Test func headingWraps() {
        #expect(Angle.heading(-10) == 350)
        #expect(Angle.heading(720.5) == 0.5)
        #expect(Angle.signed(350) == -10)
        #expect(Angle.signed(190) == -170)
        #expect(Angle.heading(.nan) == 0)
    }
}
