import LodestoneDomain
import Testing

/// The change of ground speed from the receiver's fixes: quiet enough at 10 Hz to correct the
/// level with, unknown when the fixes are too far apart.
@Suite struct GroundAccelerationTests {
    /// Fixes every `interval` s for `seconds`, speed `speed(t)` plus up to 5 cm/s of noise;
    /// the estimate after each.
    static func estimates(interval: Double, seconds: Double, _ speed: (Double) -> Double) -> [(t: Double, value: Double)] {
        var estimator = GroundAcceleration()
        var seed: UInt64 = 3
        var out: [(t: Double, value: Double)] = []
        var t = 100.0
        while t < 100 + seconds {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            let noise = (Double(seed >> 11) / Double(1 << 53) - 0.5) * 0.1
            estimator.add(speed: max(0, speed(t - 100) + noise), time: t)
            out.append((t - 100, estimator.value))
            t += interval
        }
        return out
    }

    @Test func aCarPullingOutIsMeasuredAndCruisingIsQuiet() {
        let ramp = Self.estimates(interval: 0.1, seconds: 20) { t in t < 5 ? 0 : min(15, 1.5 * (t - 5)) }
        let accelerating = ramp.filter { $0.t >= 7.5 && $0.t <= 14.5 }.map(\.value)
        let cruising = ramp.filter { $0.t >= 17 }.map(\.value)
        #expect(!accelerating.isEmpty && accelerating.allSatisfy { abs($0 - 1.5) < 0.1 }, "\(accelerating)")
        // Differencing two fixes 0.1 s apart would give up to 1 m/s^2 of noise here.
        #expect(!cruising.isEmpty && cruising.allSatisfy { abs($0) < 0.1 }, "\(cruising)")
    }

    @Test func fixesFarApartTellNothing() {
        let sparse = Self.estimates(interval: 5, seconds: 30) { t in 1.5 * t }
        #expect(sparse.allSatisfy { $0.value == 0 })
        let seconds = Self.estimates(interval: 1, seconds: 10) { t in 1.5 * t }
        #expect(seconds.filter { $0.t >= 2 }.allSatisfy { abs($0.value - 1.5) < 0.1 })
    }

    @Test func repeatedAndBackwardFixesAreHandled() {
        var estimator = GroundAcceleration()
        for step in 0...20 { estimator.add(speed: Double(step) * 0.1, time: Double(step) * 0.1) }
        #expect(abs(estimator.value - 1) < 1e-6)
        estimator.add(speed: 9, time: 2.0)  // another sentence of the same fix
        #expect(abs(estimator.value - 1) < 1e-6)
        estimator.add(speed: 2, time: 1.0)  // the clock went back
        #expect(estimator.value == 0)
        estimator.add(speed: .nan, time: 3.0)
        #expect(estimator.value == 0)
        estimator.add(speed: 1e300, time: 3.1)
        estimator.add(speed: 0, time: 4.1)
        #expect(estimator.value == 0, "a glitch beyond 1 g is not a vehicle")
    }
}
