import Glibc
import LodestoneDomain
import Testing

/// The altitude the weather is reduced with: levelled once by GPS, held while the device rests.
@Suite struct AltitudeFusionTests {
    /// GPS altitude with a wandering error of a few metres (as a receiver's vertical error does).
    static func gps(_ truth: Double, _ second: Int) -> Double {
        let t = Double(second)
        let wander: Double = 3 * sin(t / 97)
        let noise: Double = 1.5 * sin(t * 1.7)
        return truth + wander + noise
    }

    @Test func restingHoldsTheLevelledAltitudeSoTheWeatherIsSeen() {
        var fusion = AltitudeFusion()
        // On a table at 408 m while the pressure falls 1.2 hPa/h: the barometer alone climbs
        // about 10 m an hour.
        var first = Double.nan
        var last = Double.nan
        for second in 0..<7200 {
            let barometric = 400 + 10 * Double(second) / 3600
            last = fusion.update(barometric: barometric, gps: Self.gps(408, second), interval: 1, resting: true)
            if second == Int(AltitudeFusion.levellingPeriod) + 1 { first = last }
        }
        #expect(fusion.isLevelled)
        // Levelled to the mean of the first two minutes of GPS, then held to the millimetre.
        #expect(abs(first - 408) < 3, "levelled at \(first)")
        #expect(abs(last - first) < 0.001, "held \(first) -> \(last)")
    }

    @Test func settingOffContinuesFromTheHeldAltitude() {
        var fusion = AltitudeFusion()
        var held = Double.nan
        for second in 0..<600 { held = fusion.update(barometric: 400, gps: Self.gps(408, second), interval: 1, resting: true) }
        // The barometer reads 2 m higher by the time the walk starts (the weather); the first
        // moving altitude follows the barometer's change from the held one, not a jump.
        let moving = fusion.update(barometric: 402.5, gps: Self.gps(408, 600), interval: 1)
        #expect(abs(moving - (held + 2.5)) < 0.05, "held \(held), moving \(moving)")
    }

    @Test func movingFollowsTheBarometerAndLevelsToGPS() {
        var fusion = AltitudeFusion()
        var fused = Double.nan
        // A climb of 90 m in 300 s with the barometer 20 m off: GPS pulls the level over minutes.
        for second in 0..<1800 {
            let truth = 400 + 0.3 * Double(min(second, 300))
            fused = fusion.update(barometric: truth - 20, gps: Self.gps(truth, second), interval: 1)
        }
        #expect(abs(fused - 490) < 4, "\(fused)")
    }

    @Test func withoutGPSARestingDeviceStillSeesTheWeather() {
        var fusion = AltitudeFusion()
        var altitudes: [Double] = []
        for second in 0..<600 {
            altitudes.append(fusion.update(barometric: 400 + Double(second) / 360, gps: .nan, interval: 1, resting: true))
        }
        #expect(!fusion.isLevelled)
        #expect((altitudes.max() ?? 0) - (altitudes.min() ?? 0) < 1e-9, "held while resting, whatever the barometer drifts")
    }
}
