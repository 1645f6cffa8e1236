import LodestoneCore
import LodestoneDomain
import Testing

/// The compass's use of Earth's field: where the model is evaluated again, what counts as
/// interference, and how the heading's accuracy is estimated.
@Suite struct CompassTests {
    let zurich = ExpectedField(declination: 3.6, inclination: 63.5, strength: 48.4, horizontalFraction: 0.446)

    @Test func theModelIsEvaluatedAgainOnlyAfterAMoveOrADay() throws {
        var environment = MagneticEnvironment()
        let noon = 1_782_043_200.0  // 2026-06-21T12:00Z
        let first = environment.update(latitude: 47.3769, longitude: 8.5417, altitude: 408, unixTime: noon)
        #expect(first)
        let field = try #require(environment.expected)
        #expect(abs(field.declination - 3.6) < 0.1)
        let nearby = environment.update(latitude: 47.38, longitude: 8.545, altitude: 408, unixTime: noon + 600)
        #expect(!nearby)
        let moved = environment.update(latitude: 47.5, longitude: 8.5417, altitude: 408, unixTime: noon + 600)
        #expect(moved)  // 13 km north
        let nextDays = environment.update(latitude: 47.5, longitude: 8.5417, altitude: 408, unixTime: noon + 2 * 86_400)
        #expect(nextDays)
        let noPosition = environment.update(latitude: .nan, longitude: 8.5, altitude: 0, unixTime: noon)
        #expect(!noPosition)
    }

    @Test func aCleanFieldIsNotInterference() {
        var monitor = InterferenceMonitor()
        for _ in 0..<100 { monitor.update(fieldStrength: 49, dip: 62, expected: zurich, interval: 0.02) }
        #expect(!monitor.interfered)
    }

    @Test func aStrongOrBentFieldIsFlaggedAndClearsWithHysteresis() {
        var monitor = InterferenceMonitor()
        monitor.update(fieldStrength: 60, dip: 63, expected: zurich, interval: 0.02)  // +24%
        #expect(monitor.interfered)
        // Back to 12%: inside the flag limit but outside the clear limit, so still flagged.
        for _ in 0..<100 { monitor.update(fieldStrength: 54.2, dip: 63, expected: zurich, interval: 0.02) }
        #expect(monitor.interfered)
        // Clean, but for less than a second: still flagged; then cleared.
        for _ in 0..<40 { monitor.update(fieldStrength: 48.5, dip: 63, expected: zurich, interval: 0.02) }
        #expect(monitor.interfered)
        for _ in 0..<20 { monitor.update(fieldStrength: 48.5, dip: 63, expected: zurich, interval: 0.02) }
        #expect(!monitor.interfered)
        // The dip alone can give it away (a field bent sideways keeps its strength).
        monitor.update(fieldStrength: 48.4, dip: 50, expected: zurich, interval: 0.02)
        #expect(monitor.interfered)
    }

    @Test func accuracyGrowsWithEachSourceOfError() {
        let calibrated = HeadingAccuracy.estimate(calibrationError: 0.5, strengthError: 0, horizontalFraction: 0.45, secondsOnGyro: 0)
        #expect(abs(calibrated - 0.5) < 1e-9)
        let uncalibrated = HeadingAccuracy.estimate(calibrationError: nil, strengthError: .nan, horizontalFraction: 0, secondsOnGyro: 0)
        #expect(uncalibrated == HeadingAccuracy.uncalibratedError)
        // 5% of the total field against a horizontal field of 45% of it: about 6.3 degrees.
        let distorted = HeadingAccuracy.estimate(calibrationError: 0.5, strengthError: 0.05, horizontalFraction: 0.45, secondsOnGyro: 0)
        #expect(abs(distorted - 6.36) < 0.2, "\(distorted)")
        let drifting = HeadingAccuracy.estimate(calibrationError: 0.5, strengthError: 0, horizontalFraction: 0.45, secondsOnGyro: 300)
        #expect(drifting > 6 && drifting < 6.1)
        // A filter still 14 degrees from the field it was just given is that far off.
        let following = HeadingAccuracy.estimate(
            calibrationError: 0.5, strengthError: 0, horizontalFraction: 0.45, secondsOnGyro: 0,
            disagreement: 14)
        #expect(following > 14 && following < 14.1)
    }
}
