import Glibc

/// A unit quaternion for an orientation: it turns body-frame vectors into the earth frame
/// (north, east, down). Plain value, no allocation.
public struct Quaternion: Sendable, Equatable {
    public var w: Double
    public var x: Double
    public var y: Double
    public var z: Double

    @inlinable
    public init(w: Double, x: Double, y: Double, z: Double) {
        self.w = w
        self.x = x
        self.y = y
        self.z = z
    }

    public static let identity = Quaternion(w: 1, x: 0, y: 0, z: 0)

    /// From roll, pitch and yaw in radians (rotations about x, then y, then z: aerospace order).
    public init(roll: Double, pitch: Double, yaw: Double) {
        let (sr, cr) = (sin(roll / 2), cos(roll / 2))
        let (sp, cp) = (sin(pitch / 2), cos(pitch / 2))
        let (sy, cy) = (sin(yaw / 2), cos(yaw / 2))
        w = cr * cp * cy + sr * sp * sy
        x = sr * cp * cy - cr * sp * sy
        y = cr * sp * cy + sr * cp * sy
        z = cr * cp * sy - sr * sp * cy
    }

    /// A turn of `angle` radians about `axis` (any length), right-handed.
    public init(axis: Vector3, angle: Double) {
        let length = axis.length
        guard length > 0, length.isFinite, angle.isFinite else {
            self.init(w: 1, x: 0, y: 0, z: 0)
            return
        }
        let s = sin(angle / 2) / length
        self.init(w: cos(angle / 2), x: axis.x * s, y: axis.y * s, z: axis.z * s)
    }

    @inlinable
    public static func * (a: Quaternion, b: Quaternion) -> Quaternion {
        Quaternion(
            w: a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
            x: a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
            y: a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
            z: a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w)
    }

    @inlinable
    public var conjugate: Quaternion { Quaternion(w: w, x: -x, y: -y, z: -z) }

    @inlinable @inline(__always)
    public var normalized: Quaternion {
        let n = (w * w + x * x + y * y + z * z).squareRoot()
        guard n > 0, n.isFinite else { return .identity }
        let inverse = 1 / n
        return Quaternion(w: w * inverse, x: x * inverse, y: y * inverse, z: z * inverse)
    }

    /// A body-frame vector in the earth frame.
    @inlinable
    public func rotate(_ v: Vector3) -> Vector3 {
        // v + 2w (u x v) + 2 u x (u x v), with u the vector part: fewer operations than q v q*.
        let u = Vector3(x, y, z)
        let t = u.cross(v) * 2
        return v + t * w + u.cross(t)
    }

    /// An earth-frame vector in the body frame.
    @inlinable
    public func rotateInverse(_ v: Vector3) -> Vector3 { conjugate.rotate(v) }

    /// Roll (about x, right side down positive), radians.
    public var roll: Double { atan2(2 * (w * x + y * z), 1 - 2 * (x * x + y * y)) }
    /// Pitch (about y, nose up positive), radians; clamped at the poles.
    public var pitch: Double { asin(max(-1, min(1, 2 * (w * y - z * x)))) }
    /// Yaw (about z, clockwise from north seen from above), radians.
    public var yaw: Double { atan2(2 * (w * z + x * y), 1 - 2 * (y * y + z * z)) }
}
