import Glibc
import LodestoneCore
import LodestoneDomain
import Testing

/// The rate of turn: the gyro's rate in north-east-down axes, its vertical part.
@Suite struct TurnRateTests {
    /// Level, the body's z rate itself; rolled 30° with the turn split between the body's y and
    /// z axes, the same vertical rate; a pure roll or pitch is no turn at all.
    @Test func theVerticalPartOfTheGyrosRate() {
        var level = TurnRate()
        level.update(bodyRate: Vector3(0, 0, 0.2), orientation: .identity, interval: 0.01)
        #expect(abs((level.degreesPerSecond ?? .nan) - Angle.degrees(0.2)) < 1e-9)

        let roll = Angle.radians(30)
        let rolled = Quaternion(roll: roll, pitch: 0, yaw: Angle.radians(123))
        var turning = TurnRate()
        turning.update(bodyRate: Vector3(0, 0.1 * sin(roll), 0.1 * cos(roll)), orientation: rolled, interval: 0.01)
        #expect(abs((turning.degreesPerSecond ?? .nan) - Angle.degrees(0.1)) < 1e-9, "\(turning.degreesPerSecond ?? .nan)")

        var rolling = TurnRate()
        rolling.update(bodyRate: Vector3(0.5, 0, 0), orientation: Quaternion(roll: 0, pitch: 0, yaw: 1), interval: 0.01)
        #expect(abs(rolling.degreesPerSecond ?? .nan) < 1e-9)
    }

    /// Smoothed with a fifth of a second's time constant: a step is mostly followed within a
    /// second and never overshot; a gap forgets.
    @Test func smoothedAndForgottenAfterAGap() {
        var rate = TurnRate()
        rate.update(bodyRate: .zero, orientation: .identity, interval: 0.01)
        var seen: [Double] = []
        for _ in 0..<100 {
            rate.update(bodyRate: Vector3(0, 0, Angle.radians(10)), orientation: .identity, interval: 0.01)
            seen.append(rate.degreesPerSecond ?? .nan)
        }
        #expect(seen.allSatisfy { $0 <= 10 + 1e-9 })
        #expect(abs((seen.last ?? .nan) - 10) < 0.1, "\(seen.last ?? .nan)")
        #expect((seen.first ?? .nan) < 1)
        rate.reset()
        #expect(rate.degreesPerSecond == nil)
    }
}
