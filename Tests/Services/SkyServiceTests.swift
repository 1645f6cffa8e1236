import LodestoneCore
import LodestoneDomain
import LodestoneOutputs
import Testing
@testable import LodestoneServices
import LodestoneReports

/// The running device's sky: one EVENT per sun event as the time passes it, a SUN report a
/// minute, and the configured place when there is no fix.
@Suite struct SkyServiceTests {
    @Test func sunsetIsAnnouncedOnceAndSunReportsComeEachMinute() throws {
        let sky = SkyService(zone: try TimeZoneRules("+01:00"), observer: (46.55, 7.98))
        let state = NavigationState()  // no fix: the configured place
        let start = CivilTime(year: 2026, month: 11, day: 23, hour: 15).unixSeconds
        var reports: [String] = []
        for second in stride(from: 0.0, to: 3 * 3600, by: 1) { reports += sky.tick(state, time: start + second).map(GPSDReports.line) }
        let events = reports.filter { $0.contains("\"event\":\"sky\"") }
        #expect(events.filter { $0.contains("\"kind\":\"sunset\"") }.count == 1)
        #expect(events.contains { $0.contains("\"kind\":\"blueHourEveningStart\"") })
        let sunset = try #require(
            SunEvents.of(
                dayFrom: CivilTime(year: 2026, month: 11, day: 22, hour: 23).unixSeconds,
                to: CivilTime(year: 2026, month: 11, day: 23, hour: 23).unixSeconds,
                latitude: 46.55, longitude: 7.98
            ).sunset)
        let zone = try TimeZoneRules("+01:00")
        #expect(events.contains { $0.contains("\"at\":\"" + zone.iso8601(sunset) + "\"") })
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

    /// After the day's last event the countdown runs to tomorrow's first, never to nothing:
    /// at 23:30 the page's next is tomorrow morning's, and SUN names tomorrow's blue hour.
    @Test func afterTheLastEventTheCountdownRunsToTomorrow() throws {
        let sky = SkyService(zone: try TimeZoneRules("+01:00"), observer: (46.55, 7.98))
        let state = NavigationState()
        let night = CivilTime(year: 2026, month: 11, day: 23, hour: 22, minute: 30).unixSeconds  // 23:30 local
        let next = try #require(sky.panel(state, time: night)?.next)
        #expect(next.seconds > 6 * 3600 && next.seconds < 9 * 3600 && (next.name == "civilDawn" || next.name == "blueHourMorningStart"), "\(next)")
        let reports = sky.tick(state, time: night).map(GPSDReports.line)
        let sun = try #require(reports.first { $0.contains("\"class\":\"SUN\"") })
        #expect(sun.contains("\"event\":\"blueHourMorningStart\"") && sun.contains("2026-11-24T07:"), "\(sun)")
    }

    /// In the polar night of Svalbard the Sun does not reach -6° (the blue hour) until late
    /// January, when its noon altitude, 11.8° + the declination, rises past -6°: SUN's next
    /// event is that first morning, found by looking ahead, not "none".
    @Test func aPolarNightCountsDownToTheSunsReturn() throws {
        let sky = SkyService(zone: try TimeZoneRules("+01:00"), observer: (78.22, 15.65))
        let solstice = CivilTime(year: 2026, month: 12, day: 21, hour: 12).unixSeconds
        let sun = try #require(sky.tick(NavigationState(), time: solstice).map(GPSDReports.line).first { $0.contains("\"class\":\"SUN\"") })
        #expect(sun.contains("\"event\":\"blueHourMorningStart\"") && sun.contains("\"time\":\"2027-01-"), "\(sun)")
        // The page counts down to noon meanwhile: a daily event even in the polar night.
        #expect(sky.nextEvent(time: solstice - 3600, state: NavigationState())?.name == "solarNoon")
    }

    /// Without a fix and without a configured place the sky is the last fix's, and says so;
    /// the configured place is said too; a fix is the place itself.
    @Test func theLastFixStandsInAndSaysSo() throws {
        let zone = try TimeZoneRules("+01:00")
        let time = CivilTime(year: 2026, month: 11, day: 23, hour: 12).unixSeconds
        let sky = SkyService(zone: zone, observer: nil)
        // No place at all: nothing made up, the Moon and the season (which need none), and how
        // to give a place.
        let placeless = try #require(sky.panel(NavigationState(), time: time))
        #expect(!placeless.located && placeless.events.isEmpty && placeless.next == nil && placeless.placeNote == .unknown)
        #expect(!placeless.moonPhase.isEmpty && placeless.season == "autumn" && placeless.nextSeason == "winter")
        var model = DisplayModel()
        model.sky = placeless
        let page = DisplayPage.sky.draw(model, columns: 80, rows: 24).text
        #expect(page.contains("no place yet") && page.contains("Moon") && page.contains("Winter in"), "\(page)")
        let small = DisplayPage.sky.draw(model, columns: 21, rows: 8).text
        #expect(small.contains("No place yet") && small.contains("Moon"), "\(small)")
        sky.lastKnown = (46.55, 7.98, time - 86_400)
        let panel = try #require(sky.panel(NavigationState(), time: time))
        #expect(panel.placeNote == .lastFix(date: "2026-11-22"), "\(String(describing: panel.placeNote))")
        let sun = try #require(sky.tick(NavigationState(), time: time).map(GPSDReports.line).first { $0.contains("SUN") })
        #expect(sun.contains("\"place\":\"lastFix\"") && sun.contains("\"lat\":46.55"), "\(sun)")
        var fixed = NavigationState()
        (fixed.fix.mode, fixed.fix.latitude, fixed.fix.longitude) = (.threeD, 47.0, 8.0)
        #expect(sky.place(fixed)?.source == .fix && sky.panel(fixed, time: time + 60)?.placeNote == nil)
        let configured = SkyService(zone: zone, observer: (46.0, 7.0))
        #expect(configured.panel(NavigationState(), time: time)?.placeNote == .configured)
        // The last fix before the configured place.
        configured.lastKnown = (46.55, 7.98, time - 86_400)
        #expect(configured.place(NavigationState())?.source == .lastFix)
    }
}
