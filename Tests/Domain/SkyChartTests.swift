import LodestoneCore
import LodestoneDomain
import Testing

/// The sky chart's positions: the Sun as the solar position gives it, Polaris over the pole,
/// Vega culminating at 90° minus (latitude - declination), and the dome's orientation.
@Suite struct SkyChartTests {
    static let bern = (latitude: 46.95, longitude: 7.45)

    @Test func theSunAndPolarisWhereTheyShouldBe() throws {
        let noon = CivilTime(year: 2026, month: 6, day: 21, hour: 11).unixSeconds
        let chart = SkyChart.at(noon, latitude: Self.bern.latitude, longitude: Self.bern.longitude)
        let sun = try #require(chart.objects.first { $0.kind == .sun })
        let reference = SolarPosition.at(noon, latitude: Self.bern.latitude, longitude: Self.bern.longitude)
        #expect(abs(sun.altitude - reference.apparentAltitude) < 1e-9 && abs(sun.azimuth - reference.azimuth) < 1e-9)
        let midnight = CivilTime(year: 2026, month: 1, day: 15, hour: 23).unixSeconds
        let night = SkyChart.at(midnight, latitude: Self.bern.latitude, longitude: Self.bern.longitude)
        let polaris = try #require(night.objects.first { $0.name == "Polaris" })
        #expect(abs(polaris.altitude - Self.bern.latitude) < 0.8, "\(polaris.altitude)")
        #expect(min(polaris.azimuth, 360 - polaris.azimuth) < 1.5, "\(polaris.azimuth)")
        #expect(night.objects.allSatisfy { $0.altitude > -1 }, "nothing below the horizon")
        #expect(night.objects.filter { if case .star = $0.kind { return true } else { return false } }.count > 150)
    }

    /// Vega (J2000 declination 38.78°, precessed a few arcminutes by 2026) culminates at
    /// 90 - (46.95 - 38.8) ≈ 81.8° over Bern.
    @Test func vegaCulminatesAtTheRightAltitude() {
        let start = CivilTime(year: 2026, month: 8, day: 1, hour: 12).unixSeconds
        var highest = -90.0
        for minute in stride(from: 0.0, to: 1440, by: 4) {
            let chart = SkyChart.at(start + minute * 60, latitude: Self.bern.latitude, longitude: Self.bern.longitude)
            if let vega = chart.objects.first(where: { $0.name == "Vega" }) { highest = max(highest, vega.altitude) }
        }
        #expect(abs(highest - 81.8) < 0.4, "\(highest)")
    }

    /// North up, east to the left (the sky seen from below), the zenith in the middle.
    @Test func theDomeIsSeenFromBelow() {
        let north = SkyChart.position(altitude: 0, azimuth: 0), east = SkyChart.position(altitude: 0, azimuth: 90)
        let zenith = SkyChart.position(altitude: 90, azimuth: 123)
        #expect(abs(north.x) < 1e-12 && abs(north.y + 1) < 1e-12 && abs(east.x + 1) < 1e-12 && abs(east.y) < 1e-12)
        #expect(abs(zenith.x) < 1e-12 && abs(zenith.y) < 1e-12)
        let half = SkyChart.position(altitude: 45, azimuth: 180)
        #expect(abs(half.y - 0.5) < 1e-12)
    }
}
