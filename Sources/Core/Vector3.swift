/// A 3-axis quantity in the sensor's or the body's frame (x forward, y right, z down unless a
/// type says otherwise). Plain value, no allocation.
public struct Vector3: Sendable, Equatable, BitwiseCopyable {
    public var x: Double
    public var y: Double
    public var z: Double

    @inlinable
    public init(_ x: Double, _ y: Double, _ z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }

    public static let zero = Vector3(0, 0, 0)

    /// Component by axis number: 0 x, 1 y, 2 z.
    @inlinable @inline(__always)
    public subscript(axis: Int) -> Double {
        switch axis {
        case 0: return x
        case 1: return y
        default: return z
        }
    }

    @inlinable
    public var length: Double { (x * x + y * y + z * z).squareRoot() }

    @inlinable
    public func dot(_ other: Vector3) -> Double { x * other.x + y * other.y + z * other.z }

    @inlinable
    public func cross(_ other: Vector3) -> Vector3 {
        Vector3(y * other.z - z * other.y, z * other.x - x * other.z, x * other.y - y * other.x)
    }

    @inlinable
    public var normalized: Vector3 {
        let l = length
        return l > 0 ? self / l : .zero
    }

    @inlinable
    public static func + (a: Vector3, b: Vector3) -> Vector3 { Vector3(a.x + b.x, a.y + b.y, a.z + b.z) }
    @inlinable
    public static func - (a: Vector3, b: Vector3) -> Vector3 { Vector3(a.x - b.x, a.y - b.y, a.z - b.z) }
    @inlinable
    public static func * (a: Vector3, s: Double) -> Vector3 { Vector3(a.x * s, a.y * s, a.z * s) }
    @inlinable
    public static func / (a: Vector3, s: Double) -> Vector3 { Vector3(a.x / s, a.y / s, a.z / s) }
}
