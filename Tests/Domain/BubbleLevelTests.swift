import LodestoneCore
import LodestoneDomain
import LodestoneSim
import Testing

@Suite struct BubbleLevelTests {
    static func crisp() -> BubbleLevel {
        var settings = BubbleLevel.Settings()
        settings.smoothing = 0
        return BubbleLevel(settings: settings)
    }

    @Test func levelHasHysteresis() {
        var level = Self.crisp()
        #expect(level.update(roll: 1.0, pitch: 0, interval: 0.01) == nil)
        #expect(level.update(roll: 0.3, pitch: 0.45, interval: 0.01) == nil)  // tilt 0.54
        #expect(!level.isLevel)
        #expect(level.update(roll: 0.3, pitch: 0.39, interval: 0.01) == .becameLevel)  // tilt 0.49
        #expect(abs(level.tilt - (0.3 * 0.3 + 0.39 * 0.39).squareRoot()) < 1e-12)
        #expect(level.update(roll: 0.0, pitch: 0.1, interval: 0.01) == nil)
        #expect(level.update(roll: -0.7, pitch: 0.3, interval: 0.01) == nil)  // 0.76: still level
        #expect(level.isLevel)
        #expect(level.update(roll: -0.7, pitch: 0.4, interval: 0.01) == .leftLevel)  // 0.81
        #expect(level.update(roll: -0.6, pitch: 0.0, interval: 0.01) == nil)  // 0.6: not yet
        #expect(!level.isLevel)
    }

    @Test func aTremblingHandAtTheEdgeGivesOnePulse() {
        var level = BubbleLevel()
        var random = SeededRandom(seed: 3)
        var became = 0, left = 0
        // Settling from 2 degrees towards 0.55 (just outside), then wavering +-0.2 around it.
        for i in 0..<3000 {
            let t = Double(i) / 100
            let centre = t < 2 ? 2 - 0.725 * t : 0.55
            switch level.update(roll: centre + random.gaussian(0.2), pitch: random.gaussian(0.05), interval: 0.01) {
            case .becameLevel?: became += 1
            case .leftLevel?: left += 1
            case nil: break
            }
        }
        print("wavering at the edge: \(became) level pulses, \(left) left-level events in 30 s")
        #expect(became <= 1)
        #expect(left == 0)
    }

    @Test func zeroingOnASurfaceAndClearing() {
        var level = Self.crisp()
        // The reference surface is 3 degrees roll, -2 pitch off true level.
        #expect(level.update(roll: 3, pitch: -2, interval: 0.01) == nil)
        #expect(!level.isLevel)
        #expect(level.zero() == .becameLevel)
        #expect(level.roll == 0 && level.pitch == 0 && level.isLevel)
        #expect(level.rollOffset == 3 && level.pitchOffset == -2)
        // Relative to the surface now.
        _ = level.update(roll: 3.4, pitch: -2.2, interval: 0.01)
        #expect(abs(level.roll - 0.4) < 1e-9 && abs(level.pitch + 0.2) < 1e-9)
        #expect(level.isLevel)
        #expect(level.update(roll: 4, pitch: -2, interval: 0.01) == .leftLevel)
        #expect(level.clearOffset() == nil)
        #expect(level.roll == 4 && level.pitch == -2)
        _ = level.update(roll: 0.1, pitch: 0.1, interval: 0.01)
        #expect(level.isLevel)
        #expect(level.setOffset(roll: 3, pitch: -2) == .leftLevel)
        #expect(abs(level.roll + 2.9) < 1e-9)
    }

    @Test func smoothingSettlesAndKeepsUpsideDownUpsideDown() {
        var level = BubbleLevel()
        _ = level.update(roll: 0, pitch: 0, interval: 0.01)
        for _ in 0..<100 { _ = level.update(roll: 5, pitch: -3, interval: 0.01) }  // 1 s = 10 time constants
        #expect(abs(level.roll - 5) < 0.01 && abs(level.pitch + 3) < 0.01)
        var upsideDown = BubbleLevel()
        for i in 0..<200 { _ = upsideDown.update(roll: i % 2 == 0 ? 179.8 : -179.8, pitch: 0, interval: 0.01) }
        #expect(abs(upsideDown.roll) > 179)
        #expect(!upsideDown.isLevel)
        #expect(upsideDown.update(roll: .nan, pitch: 0, interval: 0.01) == nil)
    }
}
