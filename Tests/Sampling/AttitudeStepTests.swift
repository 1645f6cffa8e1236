import Glibc
import LodestoneCore
import LodestoneDomain
import Testing
@testable import LodestoneSampling

/// The attitude half of the sampling thread on its own: IMU samples and a field in, the
/// attitude, the heading and the rate of turn out.
@Suite struct AttitudeStepTests {
    static let standardGravity = 9.80665
    /// Earth's field at mid-latitudes, microtesla: 20 horizontal (north), 45 down.
    static let horizontal = 20.0, vertical = 45.0

    /// The field a level device heading `degrees` from magnetic north feels in its own axes
    /// (x forward, y right, z down): north turned back by the heading.
    static func field(heading degrees: Double) -> Vector3 {
        let radians = degrees * .pi / 180
        return Vector3(horizontal * cos(radians), -horizontal * sin(radians), vertical)
    }

    /// Runs `seconds` of level samples at 100 Hz turning at `turnRate` degrees per second,
    /// with `field` (nil: no magnetometer), and publishes.
    static func run(seconds: Double, turnRate: Double = 0, field: Vector3?) -> NavigationState {
        var step = AttitudeStep(imuRateHz: 100)
        var state = NavigationState()
        var time: MonotonicNanoseconds = 1_000_000_000
        if let field {
            step.noteField(calibratedWith: nil)
            state.magnetic = MagneticSample(time: time, field: field)
        }
        for _ in 0..<Int(seconds * 100) {
            time += 10_000_000
            let sample = ImuSample(
                time: time, acceleration: Vector3(0, 0, -standardGravity), rotationRate: Vector3(0, 0, turnRate * .pi / 180),
                temperature: 20)
            state.imu = sample
            step.update(sample, in: state, alongAcceleration: 0)
        }
        step.publish(into: &state, expected: nil, at: time)
        return state
    }

    @Test func aLevelDeviceFindsItsHeading() throws {
        for heading in [30.0, 135.0, 290.0] {
            let state = Self.run(seconds: 6, field: Self.field(heading: heading))
            let attitude = try #require(state.attitude)
            #expect(abs(attitude.roll) < 0.5 && abs(attitude.pitch) < 0.5, "level: \(attitude)")
            // The difference on the circle: 359 and 1 are two degrees apart.
            let error = abs((attitude.magneticHeading - heading + 540).truncatingRemainder(dividingBy: 360) - 180)
            #expect(error < 1, "heading \(attitude.magneticHeading) for \(heading)")
        }
    }

    @Test func withoutAMagnetometerNoHeadingIsPublished() throws {
        let state = Self.run(seconds: 2, field: nil)
        let attitude = try #require(state.attitude)
        #expect(attitude.magneticHeading.isNaN, "the gyro's drift is not a heading")
    }

    @Test func aSteadyTurnIsItsRateOfTurn() throws {
        let state = Self.run(seconds: 2, turnRate: 10, field: nil)
        let rate = try #require(state.rateOfTurn)
        #expect(abs(rate - 10) < 0.2, "\(rate) deg/s")
    }

    @Test func aGapInTheSamplesForgetsTheTurn() throws {
        var step = AttitudeStep(imuRateHz: 100)
        var state = NavigationState()
        let turning = Vector3(0, 0, 10 * Double.pi / 180)
        for tick in 1...50 {
            let sample = ImuSample(
                time: MonotonicNanoseconds(tick) * 10_000_000, acceleration: Vector3(0, 0, -Self.standardGravity), rotationRate: turning,
                temperature: 20)
            step.update(sample, in: state, alongAcceleration: 0)
        }
        // Half a second without a sample: longer than any sampling rate leaves between two.
        let late = ImuSample(
            time: 1_000_000_000, acceleration: Vector3(0, 0, -Self.standardGravity), rotationRate: turning, temperature: 20)
        state.imu = late
        step.update(late, in: state, alongAcceleration: 0)
        step.publish(into: &state, expected: nil, at: 1_000_000_000)
        #expect(state.rateOfTurn == nil)
    }
}
