import Glibc
import LodestoneCore
@testable import LodestoneDomain
import Testing

/// The weather trend on synthetic pressure series: each band, the 30-minute rule, a climb in
/// steady weather, and the WMO 3-hour characteristic.
@Suite struct PressureTrendTests {
    static let start = 1_782_028_800.0

    /// Feeds a sea-level series sampled every 10 s for `minutes`; the pressure at minute m is
    /// `pressure(m)` plus 0.05 hPa of sensor noise.
    static func trend(minutes: Int, _ pressure: (Double) -> Double) -> PressureTrend {
        var trend = PressureTrend()
        var seed: UInt64 = 9
        for step in 0...(minutes * 6) {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            let noise = (Double(seed >> 11) / Double(1 << 53) - 0.5) * 0.1
            trend.add(seaLevelPressure: pressure(Double(step) / 6) + noise, time: start + Double(step) * 10)
        }
        return trend
    }

    @Test(arguments: [
        (1.5, PressureTrend.Band.risingFast, "Clearing, fair weather ahead"),
        (0.7, .rising, "Weather improving"), (0.1, .steady, "Stable conditions"),
        (-0.3, .steady, "Stable conditions"), (-0.8, .falling, "Weather deteriorating"),
        (-1.6, .fallingFast, "Storm approaching")
    ])
    func eachBandIsRecognised(rate: Double, band: PressureTrend.Band, forecast: String) throws {
        let trend = Self.trend(minutes: 120) { 1013 + rate * $0 / 60 }
        let reading = try #require(trend.reading)
        #expect(abs(reading.hPaPerHour - rate) < 0.05, "\(reading.hPaPerHour)")
        #expect(reading.band == band && band.forecast == forecast)
    }

    @Test func nothingIsSaidBeforeHalfAnHour() {
        #expect(Self.trend(minutes: 28) { 1013 - 3 * $0 / 60 }.reading == nil)
        #expect(Self.trend(minutes: 31) { 1013 - 3 * $0 / 60 }.reading?.band == .fallingFast)
    }

    @Test func aFewWildMinutesDoNotSwingTheFit() throws {
        // Steady weather, with a 10-minute spell of 4 hPa error (a door, a gust, a bad altitude).
        let trend = Self.trend(minutes: 120) { 1010 + ((60..<70).contains($0) ? 4 : 0) }
        #expect(try #require(trend.reading).band == .steady)
    }

    /// Walking 300 m up a hill in 40 minutes while the weather holds: the station pressure
    /// falls 35 hPa, but reduced to sea level with the fused altitude it stays put.
    @Test func aClimbInSteadyWeatherIsNotAStorm() throws {
        var trend = PressureTrend()
        var fusion = AltitudeFusion()
        let seaLevel = 1015.0
        for step in 0...(90 * 6) {
            let minute = Double(step) / 6
            let altitude = 400 + 300 * min(1, max(0, (minute - 20) / 40))
            // The standard atmosphere's station pressure at that height (hPa).
            let station = seaLevel * pow(1 - altitude / 44_330.77, 5.255_88)
            let baro = BarometricAltitude.altitude(pressure: station * 100, reference: 101_325)
            let fused = fusion.update(barometric: baro, gps: altitude + (step % 2 == 0 ? 4 : -4), interval: 10)
            trend.add(
                seaLevelPressure: BarometricAltitude.seaLevelPressure(pressure: station * 100, altitude: fused) / 100,
                time: Self.start + Double(step) * 10)
        }
        let reading = try #require(trend.reading)
        #expect(reading.band == .steady, "\(reading.hPaPerHour) hPa/h")
    }

    /// A trip as the device lives it, one sample every 10 s for `minutes`: the true altitude
    /// and sea-level pressure at minute m, a barometer whose 10 s means are good to 0.3 Pa (a
    /// BMP280 read at 10 Hz), and a GPS whose
    /// vertical error wanders by 2.5 m over minutes (as receivers' do) plus 1.5 m of noise,
    /// fused as the device fuses them. Returns the trend and the true rate at the end (hPa/h).
    static func trip(
        minutes: Int, altitude: (Double) -> Double, seaLevel: (Double) -> Double,
        seed: UInt64
    ) -> (trend: PressureTrend, trueRate: Double) {
        var trend = PressureTrend(), fusion = AltitudeFusion()
        var state = seed, bias = 0.0
        func gaussian(_ sigma: Double) -> Double {
            var total = 0.0
            for _ in 0..<12 {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                total += Double(state >> 11) / Double(1 << 53)
            }
            return (total - 6) * sigma
        }
        for step in 0...(minutes * 6) {
            let minute = Double(step) / 6
            let height = altitude(minute)
            let station = seaLevel(minute) * pow(1 - height / 44_330.77, 5.255_88) + gaussian(0.003)
            bias = 0.95 * bias + gaussian(2.5 * (1 - 0.95 * 0.95).squareRoot())
            let baro = BarometricAltitude.altitude(pressure: station * 100, reference: 101_325)
            let fused = fusion.update(barometric: baro, gps: height + bias + gaussian(1.5), interval: 10)
            trend.add(
                seaLevelPressure: BarometricAltitude.seaLevelPressure(pressure: station * 100, altitude: fused) / 100,
                stationPressure: station, time: Self.start + Double(step) * 10)
        }
        let end = Double(minutes), window = Double(min(minutes, PressureTrend.fitMinutes))
        return (trend, (seaLevel(end) - seaLevel(end - window)) / (window / 60))
    }

    /// A hike: 90 m up in 5 minutes, 3 minutes on the flat, down, on the flat, over and
    /// over, while a front comes in at -1.2 hPa/h. GPS alone cannot level that to better than
    /// about 1 hPa/h; the flat stretches between the climbs give the weather's own rate.
    @Test(arguments: [UInt64(1), 2, 3, 4])
    func aHikeInFallingWeatherReadsTheWeather(seed: UInt64) throws {
        let hills = { (m: Double) -> Double in
            let phase = m.truncatingRemainder(dividingBy: 16)
            return phase < 5 ? 18 * phase : (phase < 8 ? 90 : (phase < 13 ? 90 - 18 * (phase - 8) : 0))
        }
        for minutes in [35, 50, 90] {
            let (trend, truth) = Self.trip(minutes: minutes, altitude: hills, seaLevel: { 1015.25 - 1.2 * $0 / 60 }, seed: seed)
            let reading = try #require(trend.reading)
            #expect(abs(reading.hPaPerHour - truth) <= 0.2, "\(minutes) min: \(reading.hPaPerHour) against \(truth) hPa/h")
        }
    }

    /// A boat never climbs: its swell averages out within a minute, and every minute is level.
    @Test(arguments: [UInt64(5), 6, 7])
    func aBoatReadsTheWeatherToATenth(seed: UInt64) throws {
        let swell = { (m: Double) -> Double in 0.3 * sin(2 * Double.pi * m * 60 / 8) }
        for minutes in [35, 45, 60] {
            let (trend, truth) = Self.trip(
                minutes: minutes, altitude: swell,
                seaLevel: { 1016 + 0.3 * sin(2 * Double.pi * $0 / 120) }, seed: seed)
            let reading = try #require(trend.reading)
            #expect(abs(reading.hPaPerHour - truth) <= 0.2, "\(minutes) min: \(reading.hPaPerHour) against \(truth) hPa/h")
        }
    }

    /// A path rising 0.6 m a minute for an hour looks level to the barometer (0.07 hPa a
    /// minute) and would read as -4 hPa/h; GPS knows better, and the sea-level series decides.
    @Test func aLongGentleSlopeIsNotAStorm() throws {
        let (trend, _) = Self.trip(minutes: 60, altitude: { 200 + 0.6 * $0 }, seaLevel: { _ in 1013 }, seed: 8)
        let reading = try #require(trend.reading)
        #expect(reading.band == .steady, "\(reading.hPaPerHour) hPa/h")
    }

    @Test func theWMOCharacteristicFollowsTheShape() throws {
        func code(_ pressure: @escaping (Double) -> Double) -> Int? { Self.trend(minutes: 200, pressure).reading?.characteristic }
        #expect(code { 1010 + 2 * $0 / 180 } == 2, "rising steadily")
        #expect(code { 1010 - 2 * $0 / 180 } == 7, "falling steadily")
        #expect(code { _ in 1010 } == 4, "steady")
        #expect(code { 1010 + ($0 < 110 ? 2 * $0 / 90 : 2.4) } == 1, "up, then steady")
        #expect(code { 1010 - ($0 < 110 ? 2 * $0 / 90 : 2.4) } == 6, "down, then steady")
        #expect(code { $0 < 110 ? 1010 : 1010 - 2 * ($0 - 110) / 90 } == 8, "steady, then down")
        #expect(code { $0 < 110 ? 1010 - 2 * ($0 - 20) / 90 : 1008 + 3 * ($0 - 110) / 90 } == 3, "down, then up: higher")
        let reading = try #require(Self.trend(minutes: 370) { 1010 - 3 * $0 / 180 }.reading)
        #expect(abs((reading.threeHourChange ?? 0) + 3) < 0.1 && abs((reading.sixHourChange ?? 0) + 6) < 0.1)
    }

    /// The slopes' median found in place equals the median of the sorted slopes, for odd and
    /// even numbers of slopes, ties, and groups whose pairs are never mixed.
    @Test func theSlopesMedianMatchesSortingThem() {
        var seed: UInt64 = 21
        func random() -> Double {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Double(seed >> 40) / Double(1 << 24)
        }
        for count in [2, 3, 4, 7, 30, 181] {
            let points = (0..<count).map { (x: Double($0 % 17), y: (random() * 8).rounded() / 4, starts: $0 == count / 3) }
            var slopes: [Double] = []
            for i in points.indices {
                for j in points.indices.dropFirst(i + 1) where points[j].x != points[i].x {
                    let sameGroup = (i < count / 3) == (j < count / 3)
                    if sameGroup { slopes.append((points[j].y - points[i].y) / (points[j].x - points[i].x)) }
                }
            }
            slopes.sort()
            let middle = slopes.count / 2
            let upper = slopes.dropFirst(middle).first ?? 0, lower = slopes.dropFirst(max(0, middle - 1)).first ?? 0
            let expected = slopes.isEmpty ? 0 : slopes.count % 2 == 1 ? upper : (lower + upper) / 2
            let found = PressureTrend.theilSen(count: count) { add in for p in points { add(p.x, p.y, p.starts) } }
            #expect(found == expected, "\(count) points")
        }
    }
}
