import Glibc
import LodestoneCore

/// Steadies a compass heading without the wrap-around error of averaging angles.
///
/// Averaging 359 and 1 as numbers gives 180; averaging them as directions gives 0. So the
/// smoother low-passes the unit vector (cos, sin) of the heading with a time constant, and
/// reads the heading back from the vector. A reversal (a jump of 180 degrees) passes through
/// the shorter vector in between rather than swinging round one side.
///
/// The length of the smoothed vector is a free measure of how steady the input has been
/// (`steadiness`: 1 for a constant heading, towards 0 for one spinning or jumping about).
///
/// Allocation-free. `update(heading:)` takes one sine and cosine; `update(north:east:)` takes
/// the horizontal direction as a vector and needs none; the heading's arctangent is computed
/// only when it is read (a display reads it a few times a second, the IMU updates at 100 Hz).
public struct HeadingSmoother: Sendable {
    /// Seconds; about the time the output takes to cover 63 % of a step in the input.
    public let timeConstant: Double
    private var north = 0.0
    private var east = 0.0
    public private(set) var hasHeading = false

    public init(timeConstant: Double = 0.5) {
        self.timeConstant = timeConstant.isFinite ? max(timeConstant, 0) : 0
    }

    /// A new heading, degrees from north (any value), and the seconds since the previous one.
    public mutating func update(heading: Double, interval: Double) {
        guard heading.isFinite else { return }
        let radians = Angle.radians(heading)
        update(north: cos(radians), east: sin(radians), interval: interval)
    }

    /// A new horizontal direction as north and east components (any length; only the
    /// direction counts), and the seconds since the previous one.
    public mutating func update(north newNorth: Double, east newEast: Double, interval: Double) {
        let length = (newNorth * newNorth + newEast * newEast).squareRoot()
        guard length > 0, length.isFinite, interval.isFinite, interval >= 0 else { return }
        let n = newNorth / length, e = newEast / length
        guard hasHeading else {
            north = n
            east = e
            hasHeading = true
            return
        }
        // One-pole low pass. The exact gain 1 - exp(-dt/tau) by its bilinear approximation
        // x / (1 + x/2): no exponential, and the time constant holds from 25 to 200 Hz.
        let x = timeConstant > 0 ? interval / timeConstant : .infinity
        let gain = x.isFinite ? min(x / (1 + x / 2), 1) : 1
        north += gain * (n - north)
        east += gain * (e - east)
    }

    /// The smoothed heading, degrees 0..<360; nil before the first update.
    public var heading: Double? {
        guard hasHeading else { return nil }
        return Angle.heading(Angle.degrees(atan2(east, north)))
    }

    /// Length of the smoothed unit vector, 0...1: how consistent the recent headings were.
    public var steadiness: Double {
        (north * north + east * east).squareRoot()
    }

    public mutating func reset() {
        self = HeadingSmoother(timeConstant: timeConstant)
    }
}
