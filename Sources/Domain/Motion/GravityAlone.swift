import Glibc
import LodestoneCore

/// The accelerometer's reading with the turn's centripetal acceleration and the speeding up's
/// taken out, so that what is left points down: a car rounding a bend at 15 m/s and 15 deg/s
/// feels 4 m/s^2 sideways, a tilt of 22 degrees to a filter that took it for gravity. The
/// velocity is the receiver's, turned into the body by the current attitude.
///
/// Which way the body moves: with a calibrated compass, along the receiver's course seen from
/// the filter's heading; without one the heading can be tens of degrees off, and the force
/// taken out in the wrong direction tilts the level instead, so the body is taken to move the
/// way it points (a car's or a boat's mount, a handheld carried ahead).
public enum GravityAlone {
    /// - Parameters:
    ///   - acceleration: the accelerometer's specific force, body axes, m/s^2.
    ///   - rate: the gyro's rate, body axes, rad/s (bias removed).
    ///   - orientation: body to north-east-down, the attitude filter's.
    ///   - speed: over the ground, m/s; `alongAcceleration` its rate, m/s^2.
    ///   - magneticCourse: the course in the filter's frame (degrees from magnetic north) when
    ///     the compass is calibrated and trusted; nil: the body moves the way it points.
    public static func estimate(
        acceleration: Vector3, rate: Vector3, orientation: Quaternion, speed: Double,
        alongAcceleration: Double, magneticCourse: Double?
    ) -> Vector3 {
        let direction: Vector3
        if let magneticCourse {
            let course = Angle.radians(magneticCourse)
            direction = orientation.rotateInverse(Vector3(cos(course), sin(course), 0))
        } else {
            // The body's forward axis, levelled: forward less its share of the vertical.
            let down = orientation.rotateInverse(Vector3(0, 0, 1))
            let forward = Vector3(1, 0, 0) - down * down.x
            let length = forward.length
            guard length > 0.3 else { return acceleration }  // pointing nearly straight up or down
            direction = forward * (1 / length)
        }
        return acceleration - rate.cross(direction * speed) - direction * alongAcceleration
    }
}
