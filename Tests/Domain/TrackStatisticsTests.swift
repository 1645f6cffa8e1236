import LodestoneCore
import LodestoneDomain
import Testing

@Suite struct TrackStatisticsTests {
    /// Geoscience Australia's worked example for Vincenty's inverse formula: Flinders Peak to
    /// Buninyong, 54,972.271 m at an initial azimuth of 306°52'05.37".
    @Test func vincentyMatchesThePublishedExample() {
        let flinders = (-(37 + 57 / 60.0 + 3.72030 / 3600), 144 + 25 / 60.0 + 29.52440 / 3600)
        let buninyong = (-(37 + 39 / 60.0 + 10.15610 / 3600), 143 + 55 / 60.0 + 35.38390 / 3600)
        let result = Geodesy.inverse(latitude1: flinders.0, longitude1: flinders.1, latitude2: buninyong.0, longitude2: buninyong.1)
        #expect(abs(result.distance - 54_972.271) < 0.001, "\(result.distance)")
        #expect(abs(result.bearing - (306 + 52 / 60.0 + 5.37 / 3600)) < 0.0001, "\(result.bearing)")
        #expect(Geodesy.distance(latitude1: 10, longitude1: 20, latitude2: 10, longitude2: 20) == 0)
        let antipodal = Geodesy.distance(latitude1: 0, longitude1: 0, latitude2: 0.5, longitude2: 179.7)
        #expect(antipodal.isFinite && antipodal > 19_900_000)
    }

    func walk(seconds: Int, speed: Double, climb: Double, noise: Double) -> [TrackPoint] {
        var seed: UInt64 = 11
        func random() -> Double {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Double(seed >> 11) / Double(1 << 53) - 0.5
        }
        return (0..<seconds).map { t in
            let metres = Double(t) * speed
            return TrackPoint(
                time: 1_782_028_800 + Double(t), latitude: 47 + metres / 111_200, longitude: 8,
                baroAltitude: 400 + climb * Double(t) + 2 * noise * random(), speed: speed)
        }
    }

    @Test func flatNoisyWalkingGainsNoHeight() {
        let s = TrackStatistics.of(walk(seconds: 1800, speed: 1.4, climb: 0, noise: 1))
        #expect(s.elevationGain < 5 && s.elevationLoss < 5, "gain \(s.elevationGain) loss \(s.elevationLoss)")
        #expect(abs(s.distance - 1.4 * 1799) < 0.01 * 1.4 * 1799)
        #expect(s.splits.count == 2)
        #expect(abs(s.movingTime - 1799) < 1)
    }

    @Test func aClimbIsCountedOnce() {
        let s = TrackStatistics.of(walk(seconds: 1000, speed: 1, climb: 0.1, noise: 0.5))
        #expect(abs(s.elevationGain - 100) < 4, "\(s.elevationGain)")
        #expect(s.elevationLoss < 4)
    }

    /// Three hours on the flat while the pressure falls 1 hPa an hour: the barometer alone would
    /// climb 25 m; GPS (with 5 m of noise) holds the level, the barometer keeps the fine shape.
    @Test func aChangeInTheWeatherIsNotAClimb() {
        var seed: UInt64 = 3
        func noise() -> Double {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return (Double(seed >> 11) / Double(1 << 53) - 0.5) * 10
        }
        let points = (0..<2160).map { i -> TrackPoint in
            let t = Double(i) * 5
            return TrackPoint(
                time: 1_782_028_800 + t, latitude: 47 + t * 1.2 / 111_200, longitude: 8,
                gpsAltitude: 400 + noise(), baroAltitude: 400 + 8.3 * t / 3600, speed: 1.2)
        }
        let barometerOnly = TrackStatistics.of(
            points.map {
                var p = $0; p.gpsAltitude = .nan; return p
            })
        #expect(barometerOnly.elevationGain > 20, "the drift the fusion must remove: \(barometerOnly.elevationGain)")
        let fused = TrackStatistics.of(points)
        #expect(fused.elevationGain < 8, "gain \(fused.elevationGain) m")
        #expect(fused.profile.count <= TrackStatistics.profileLength + 1)
        #expect(fused.profile.last?.distance == fused.distance)
        #expect(fused.profile.allSatisfy { abs($0.altitude - 400) < 8 })
    }

    /// A real climb seen by both the barometer and GPS counts in full.
    @Test func aClimbSeenByBothIsKept() {
        let points = (0..<600).map { i -> TrackPoint in
            let t = Double(i) * 5
            return TrackPoint(
                time: 1_782_028_800 + t, latitude: 47 + t / 111_200, longitude: 8,
                gpsAltitude: 500 + t / 10 + (i % 2 == 0 ? 3 : -3), baroAltitude: 480 + t / 10, speed: 1)
        }
        let s = TrackStatistics.of(points)
        #expect(abs(s.elevationGain - 299.5) < 6, "\(s.elevationGain)")
        // The level is GPS's (500 m at the start), not the barometer's 480.
        #expect(abs((s.profile.last?.altitude ?? 0) - 799.5) < 5, "\(s.profile.last?.altitude ?? .nan)")
    }
}
