import Glibc
import LodestoneCore

/// Roll, pitch and magnetic heading from one accelerometer and one magnetometer reading.
///
/// Both vectors are in the body frame (x forward, y right, z down). The accelerometer gives
/// the direction of gravity when the device is not accelerating, which fixes roll and pitch;
/// the magnetometer reading is then rotated back into the horizontal plane so the heading
/// stays right while the device is tilted (a flat-only compass is off by tens of degrees at
/// a 20 degree tilt in mid-latitudes, where the field dips steeply).
public struct TiltCompensatedHeading: Sendable, Equatable {
    /// Degrees, right side down positive.
    public var roll: Double
    /// Degrees, nose up positive.
    public var pitch: Double
    /// Degrees from magnetic north, 0..<360.
    public var magneticHeading: Double

    public init(roll: Double, pitch: Double, magneticHeading: Double) {
        self.roll = roll
        self.pitch = pitch
        self.magneticHeading = magneticHeading
    }

    /// `specificForce` in m/s^2 (reads (0, 0, -g) level and still); `field` in any unit.
    /// Nil when either vector is zero or not finite (no heading can be trusted then).
    public init?(specificForce f: Vector3, field m: Vector3) {
        let g = f.length
        guard g > 1e-6, m.length > 1e-9, g.isFinite, m.length.isFinite else { return nil }
        let roll = atan2(-f.y, -f.z)
        let pitch = atan2(f.x, (f.y * f.y + f.z * f.z).squareRoot())
        let (sr, cr) = (sin(roll), cos(roll))
        let (sp, cp) = (sin(pitch), cos(pitch))
        let horizontalX = m.x * cp + m.y * sr * sp + m.z * cr * sp
        let horizontalY = m.y * cr - m.z * sr
        self.roll = Angle.degrees(roll)
        self.pitch = Angle.degrees(pitch)
        magneticHeading = Angle.heading(Angle.degrees(atan2(-horizontalY, horizontalX)))
    }
}
