import Glibc
import LodestoneCore

/// The rate of turn: how fast the heading changes, degrees per second, positive to starboard
/// (clockwise seen from above). It is the gyro's rate turned into north-east-down axes by the
/// attitude filter's orientation, its vertical part: a body rolling or pitching on a swell
/// turns about axes that are not vertical, and none of that is a turn. From the gyro alone, so
/// it needs no magnetometer and cannot jump when a heading becomes valid; smoothed over a
/// fifth of a second, as a rate gyro for an autopilot is.
public struct TurnRate: Sendable {
    /// Degrees per second; nil before the first sample.
    public private(set) var degreesPerSecond: Double?
    /// The smoothing's time constant, seconds.
    public static let timeConstant = 0.2

    public init() {}

    /// One gyro sample: `bodyRate` in rad/s (bias removed), `orientation` body to earth (NED).
    public mutating func update(bodyRate: Vector3, orientation: Quaternion, interval: Double) {
        let vertical = Angle.degrees(orientation.rotate(bodyRate).z)
        guard vertical.isFinite, interval > 0 else { return }
        guard let previous = degreesPerSecond else { degreesPerSecond = vertical; return }
        let weight = min(1, interval / Self.timeConstant)
        degreesPerSecond = previous + weight * (vertical - previous)
    }

    /// After a gap in the samples nothing is known of the turn in between.
    public mutating func reset() { degreesPerSecond = nil }
}
