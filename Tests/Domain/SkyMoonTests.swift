import Glibc
import LodestoneCore
import LodestoneDomain
import Testing

/// The Moon against Meeus' worked example and the DE421 phase times in ../shared/vectors.
@Suite struct SkyMoonTests {
    /// Meeus, Astronomical Algorithms, example 47.a: 1992 April 12, 0h TD.
    @Test func matchesMeeusExample47a() {
        let moon = MoonPosition.at(julianEphemerisDay: 2_448_724.5)
        #expect(abs(moon.longitude - 133.167_26) < 0.000_05, "\(moon.longitude)")
        #expect(abs(moon.latitude - -3.229_126) < 0.000_001, "\(moon.latitude)")
        #expect(abs(moon.distance - 368_409.7) < 0.1, "\(moon.distance)")
        #expect(abs(moon.parallax - 0.991_99) < 0.000_01, "\(moon.parallax)")
        #expect(abs(moon.rightAscension - 134.688_469) < 0.000_1, "\(moon.rightAscension)")
        #expect(abs(moon.declination - 13.768_367) < 0.000_1, "\(moon.declination)")
    }

    /// Every new moon, quarter and full moon 2025-2035 within the brief's 2 minutes of DE421.
    @Test func phasesMatchTheEphemeris() throws {
        guard let text = try? String(contentsOfFile: SkySunTests.vectors + "moon_phases_2025_2035.csv") else {
            print("skipped: ../shared/vectors/moon_phases_2025_2035.csv is not present")
            return
        }
        var worst = 0.0, count = 0
        for line in text.split(whereSeparator: \.isNewline).dropFirst() {
            let fields = line.split(separator: ",")
            guard fields.count >= 2, let reference = CivilTime.parseISO8601(String(fields[1])),
                let phase = MoonPhases.Phase.allCases.first(where: { $0.name == fields[0] })
            else { continue }
            let ours = MoonPhases.next(phase, after: reference - 5 * 86_400)
            worst = max(worst, abs(ours - reference))
            count += 1
        }
        print("moon phases: \(count) instants, worst difference from DE421 \(worst) s")
        #expect(count == 544 && worst < 120)
    }

    @Test func illuminationAgeAndNames() throws {
        // The full moon of 2025-01-13 22:26:54 UTC (DE421): fully lit, about 14.8 days old.
        let full = try #require(CivilTime.parseISO8601("2025-01-13T22:26:54Z"))
        #expect(MoonPhases.illumination(at: full) > 0.99)
        #expect(abs(MoonPhases.age(at: full) - 14.8) < 1)
        #expect(MoonPhases.name(elongation: MoonPhases.elongation(at: full)) == "Full Moon")
        #expect(MoonPhases.illumination(at: full + 7.4 * 86_400) < 0.6)
        #expect(MoonPhases.name(elongation: 45) == "Waxing Crescent" && MoonPhases.name(elongation: 300) == "Waning Crescent")
        let upcoming = MoonPhases.upcoming(after: full + 3600, count: 4).map(\.phase)
        #expect(upcoming == [.lastQuarter, .newMoon, .firstQuarter, .fullMoon])
    }

    /// At 46.5° N the Moon rises and sets about once a day, 50 minutes later each day.
    @Test func moonriseComesLaterEachDay() throws {
        let day = CivilTime(year: 2025, month: 3, day: 10).unixSeconds
        let first = MoonPhases.riseAndSet(from: day, to: day + 86_400, latitude: 46.5, longitude: 7.5)
        let second = MoonPhases.riseAndSet(from: day + 86_400, to: day + 2 * 86_400, latitude: 46.5, longitude: 7.5)
        let rise1 = try #require(first.rise), rise2 = try #require(second.rise)
        let delay = (rise2 - rise1 - 86_400) / 60
        #expect(delay > 20 && delay < 90, "\(delay) min")
    }
}
