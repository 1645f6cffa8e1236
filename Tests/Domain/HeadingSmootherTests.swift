import Glibc
import LodestoneCore
import LodestoneDomain
import LodestoneSim
import Testing

@Suite struct HeadingSmootherTests {
    @Test func averagesAcrossNorthAsDirections() {
        var smoother = HeadingSmoother(timeConstant: 0.5)
        for i in 0..<500 { smoother.update(heading: i % 2 == 0 ? 359 : 1, interval: 0.01) }
        let heading = smoother.heading ?? .nan
        #expect(abs(Angle.signed(heading)) < 0.1, "359 and 1 smoothed to \(heading)")
        #expect(smoother.steadiness > 0.99)
    }

    @Test func aStepAcrossNorthTakesTheShortWay() {
        var smoother = HeadingSmoother(timeConstant: 0.5)
        smoother.update(heading: 350, interval: 0.01)
        for _ in 0..<300 {
            smoother.update(heading: 10, interval: 0.01)
            let heading = smoother.heading ?? .nan
            #expect(heading >= 349.999 || heading <= 10.001, "went the long way: \(heading)")
        }
        #expect(abs(Angle.signed((smoother.heading ?? .nan) - 10)) < 0.1)
    }

    @Test func followsItsTimeConstantAtAnyRate() {
        // From 0 to 90: after one time constant the vector is 63 % of the way, which points at
        // atan2(0.632, 0.368) = 59.8 degrees.
        for rate in [25.0, 100, 200] {
            var smoother = HeadingSmoother(timeConstant: 0.5)
            smoother.update(heading: 0, interval: 1 / rate)
            for _ in 0..<Int(0.5 * rate) { smoother.update(heading: 90, interval: 1 / rate) }
            let heading = smoother.heading ?? .nan
            #expect(abs(heading - 59.8) < 2.5, "\(rate) Hz: \(heading)")
        }
    }

    @Test func steadiesANoisyHeadingAtNorth() {
        var random = SeededRandom(seed: 12)
        var smoother = HeadingSmoother(timeConstant: 1)
        var rawSquares = 0.0, smoothSquares = 0.0
        var count = 0.0
        for i in 0..<6000 {
            let raw = Angle.heading(random.gaussian(5))
            smoother.update(heading: raw, interval: 0.01)
            guard i > 500 else { continue }
            let error = Angle.signed(smoother.heading ?? .nan)
            rawSquares += Angle.signed(raw) * Angle.signed(raw)
            smoothSquares += error * error
            count += 1
        }
        let rawRMS = (rawSquares / count).squareRoot(), smoothRMS = (smoothSquares / count).squareRoot()
        print("heading noise across north: \(rawRMS) degrees RMS raw, \(smoothRMS) smoothed")
        #expect(smoothRMS < 0.2 * rawRMS)
    }

    @Test func vectorInputMatchesDegrees() {
        var byAngle = HeadingSmoother(), byVector = HeadingSmoother()
        #expect(byAngle.heading == nil)
        for i in 0..<400 {
            let heading = Angle.heading(Double(i) * 1.7 + 300)
            byAngle.update(heading: heading, interval: 0.01)
            byVector.update(north: 3 * cos(Angle.radians(heading)), east: 3 * sin(Angle.radians(heading)), interval: 0.01)
        }
        #expect(abs(Angle.signed((byAngle.heading ?? .nan) - (byVector.heading ?? .nan))) < 1e-9)
        // Spinning at 170 degrees per second the recent headings disagree: lower steadiness.
        #expect(byAngle.steadiness < 0.95)
        byAngle.update(north: 0, east: 0, interval: 0.01)
        byAngle.update(heading: .nan, interval: 0.01)
        #expect(byAngle.heading?.isFinite == true)
        byAngle.reset()
        #expect(byAngle.heading == nil)
    }
}

@Suite struct CompassPointTests {
    @Test func sixteenPointsWithBoundariesAtTheMidpoints() {
        let cases: [(Double, String)] = [
            (0, "N"), (11.24, "N"), (11.25, "NNE"), (22.5, "NNE"), (33.74, "NNE"), (33.75, "NE"),
            (45, "NE"), (90, "E"), (101.25, "ESE"), (180, "S"), (191.25, "SSW"), (270, "W"),
            (348.74, "NNW"), (348.75, "N"), (359.99, "N"), (360, "N"), (-10, "N"), (-11.26, "NNW"),
            (765, "NE")
        ]
        for (heading, name) in cases {
            #expect(CompassPoint.name(heading) == name, "\(heading)")
        }
        for i in 0..<16 {
            let centre = CompassPoint.heading(ofIndex: i)
            #expect(CompassPoint.index(centre) == i)
            #expect(CompassPoint.index(centre + 11.2) == i)
            #expect(CompassPoint.index(centre - 11.2) == i)
        }
        // A heading that is not a number names a sector instead of stopping the device.
        #expect(CompassPoint.index(.nan) == 0 && CompassPoint.index(.infinity) == 0)
        #expect(CompassPoint.fullName(22.5) == "north-northeast")
        #expect(CompassPoint.fullName(300) == "west-northwest")
    }

    @Test func eightAndFourPoints() {
        let eight: [(Double, String)] = [
            (0, "N"), (22.49, "N"), (22.5, "NE"), (67.49, "NE"), (67.5, "E"),
            (200, "S"), (247.5, "W"), (337.49, "NW"), (337.5, "N")
        ]
        for (heading, name) in eight { #expect(CompassPoint.name(heading, division: .eight) == name, "\(heading)") }
        #expect(CompassPoint.fullName(225, division: .eight) == "southwest")
        let four: [(Double, String)] = [(44.9, "N"), (45, "E"), (134.9, "E"), (135, "S"), (315, "N"), (314.9, "W")]
        for (heading, name) in four { #expect(CompassPoint.name(heading, division: .four) == name, "\(heading)") }
        #expect(CompassPoint.heading(ofIndex: -1, division: .eight) == 315)
        #expect(CompassPoint.name(.nan) == "N")
        #expect(CompassPoint.name(.infinity, division: .eight) == "N")
    }

    /// The 16-point names by the rule of rounding heading / 22.5 to the nearest point,
    /// everywhere round the circle and beyond it.
    @Test func agreesWithTheNearestPointRule() {
        let names = ["N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE", "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW"]
        var heading = -720.0
        while heading < 720 {
            let old = names[Int((Angle.heading(heading) / 22.5).rounded()) % 16]
            #expect(CompassPoint.name(heading) == old, "\(heading)")
            heading += 0.37
        }
    }
}
