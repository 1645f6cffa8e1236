import LodestoneCore
import LodestoneDomain
@testable import LodestoneRuntime
import LodestoneOutputs
import Testing

/// The running device's sky: one EVENT per sun event as the time passes it, a SUN report a
/// minute, and the configured place when there is no fix.
@Suite struct SkyServiceTests {
    @Test func sunsetIsAnnouncedOnceAndSunReportsComeEachMinute() throws {
        let sky = SkyService(zone: try TimeZoneRules("+01:00"), observer: (46.55, 7.98))
        let state = NavigationState()   // no fix: the configured place
        let start = CivilTime(year: 2026, month: 11, day: 23, hour: 15).unixSeconds
        var reports: [String] = []
        for second in stride(from: 0.0, to: 3 * 3600, by: 1) { reports += sky.tick(state, time: start + second).map(GPSDReports.line) }
        let events = reports.filter { $0.contains("\"event\":\"sky\"") }
        #expect(events.filter { $0.contains("\"kind\":\"sunset\"") }.count == 1)
        #expect(events.contains { $0.contains("\"kind\":\"blueHourEveningStart\"") })
        let sunset = try #require(SunEvents.of(dayFrom: CivilTime(year: 2026, month: 11, day: 22, hour: 23).unixSeconds,
                                               to: CivilTime(year: 2026, month: 11, day: 23, hour: 23).unixSeconds,
                                               latitude: 46.55, longitude: 7.98).sunset)
        #expect(events.contains { $0.contains("\"at\":\"" + (try! TimeZoneRules("+01:00")).iso8601(sunset) + "\"") })
        #expect(reports.filter { $0.contains("\"class\":\"SUN\"") }.count == 180)
        // The sky page's figures for that moment: sunset next, 28 local days to the December
        // solstice (2026-12-21), about 69% of the northern autumn gone.
        let panel = try #require(sky.panel(state, time: start))
        let next = try #require(panel.next)
        #expect(next.name == "sunset" && next.clock.hasPrefix("16:") && abs(start + next.seconds - sunset) < 1, "\(next)")
        #expect(panel.nextSeason == "winter" && panel.daysUntilSeason == 28 && panel.season == "autumn")
        #expect(panel.seasonProgress > 0.68 && panel.seasonProgress < 0.70, "\(panel.seasonProgress)")
        #expect(panel.events.count == 13 && panel.events.first { $0.name == "sunrise" }?.clock?.hasPrefix("07:") == true)
        #expect(panel.moonIllumination > 0.8 && panel.light == "day")
        // Ten seconds later (from the cache) the countdown is ten seconds shorter.
        let later = try #require(sky.panel(state, time: start + 10)?.next)
        #expect(abs(later.seconds - (next.seconds - 10)) < 1e-6 && later.name == "sunset")
    }
}
