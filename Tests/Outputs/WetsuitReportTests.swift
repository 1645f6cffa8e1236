import LodestoneCore
import LodestoneDomain
import LodestoneOutputs
import LodestoneReports
import Testing

/// What to wear, where the water is measured: in ENV (as `lodestone wetsuit --json` prints
/// it), on the display's station lines; the air from a probe named "air", else the barometer's.
@Suite struct WetsuitReportTests {
    static func environment(probes: [(name: String, celsius: Double)], wind: Double?, barometer: Double = 20) -> EnvironmentReport {
        var station = StationFigures()
        station.temperatures = probes
        station.wind = wind.map { StationFigures.Wind(speed: $0, gust: nil, lull: nil, now: $0, direction: 270, seconds: 600) }
        return EnvironmentReport(
            pressure: PressureSample(time: 0, pressure: 96_000, temperature: barometer), barometricAltitude: 400, qnh: 1013.25,
            weather: nil, device: "/dev/i2c-1", time: 1_782_028_800, station: station)
    }

    @Test func envCarriesTheWetsuitWhenTheWaterIsMeasured() {
        // Water 18 °C (3/2 mm), air 10 °C from its probe (together below 30: one thicker), wind 9 m/s (one more).
        let cold = Self.environment(probes: [("water", 18), ("air", 10)], wind: 9)
        #expect(cold.wetsuit == 4)
        #expect(GPSDReports.line(.environment(cold)).contains(#""wetsuit":{"step":4,"text":"5/4 mm with boots"}"#), "\(GPSDReports.line(.environment(cold)))")
        // No air probe: the barometer's 15 °C; calm.
        #expect(Self.environment(probes: [("water", 18)], wind: nil, barometer: 15).wetsuit == 2)
        #expect(Self.environment(probes: [("water", 18)], wind: nil, barometer: 11).wetsuit == 3)
        // No water probe: nothing said.
        let dry = Self.environment(probes: [("air", 10)], wind: 3)
        #expect(dry.wetsuit == nil && !GPSDReports.line(.environment(dry)).contains("wetsuit"))
    }

    @Test func theStationLinesSayWhatToWear() {
        let feed = DisplayFeed(title: "lake")
        feed.take(.environment(Self.environment(probes: [("water", 25)], wind: 2, barometer: 26)))
        let model = feed.model()
        #expect(model.station?.wetsuit == 0)
        #expect(
            DisplayPage.barometer.draw(model, columns: 80, rows: 24).text.contains("Wear    none"),
            "\(DisplayPage.barometer.draw(model, columns: 80, rows: 24).text)")
    }
}
