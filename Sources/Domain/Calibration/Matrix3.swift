import LodestoneCore

/// A 3x3 matrix stored as three rows, for the soft-iron correction and the ellipsoid's shape.
/// Plain value with no heap storage, so applying it in the sampling loop allocates nothing.
public struct Matrix3: Sendable, Equatable, BitwiseCopyable {
    public var row0: Vector3
    public var row1: Vector3
    public var row2: Vector3

    public init(_ row0: Vector3, _ row1: Vector3, _ row2: Vector3) {
        self.row0 = row0
        self.row1 = row1
        self.row2 = row2
    }

    /// From nine numbers in row order; nil unless there are exactly nine.
    public init?(rowMajor values: [Double]) {
        guard values.count == 9 else { return nil }
        self.init(
            Vector3(values[0], values[1], values[2]),
            Vector3(values[3], values[4], values[5]),
            Vector3(values[6], values[7], values[8]))
    }

    public static let identity = Matrix3(Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, 1))

    /// A diagonal matrix (independent axis scales).
    public static func diagonal(_ d: Vector3) -> Matrix3 {
        Matrix3(Vector3(d.x, 0, 0), Vector3(0, d.y, 0), Vector3(0, 0, d.z))
    }

    /// Element by row and column, both 0...2.
    public subscript(row: Int, column: Int) -> Double {
        get {
            switch row {
            case 0: return row0[column]
            case 1: return row1[column]
            default: return row2[column]
            }
        }
        set {
            switch row {
            case 0: row0.set(column, newValue)
            case 1: row1.set(column, newValue)
            default: row2.set(column, newValue)
            }
        }
    }

    public var transposed: Matrix3 {
        Matrix3(Vector3(row0.x, row1.x, row2.x), Vector3(row0.y, row1.y, row2.y), Vector3(row0.z, row1.z, row2.z))
    }

    public var determinant: Double { row0.dot(row1.cross(row2)) }

    public var isFinite: Bool {
        [row0, row1, row2].allSatisfy { $0.x.isFinite && $0.y.isFinite && $0.z.isFinite }
    }

    /// Largest difference between an element and its mirror: 0 for a symmetric matrix.
    public var asymmetry: Double {
        max(abs(row0.y - row1.x), abs(row0.z - row2.x), abs(row1.z - row2.y))
    }

    /// Nine numbers in row order (for files and JSON).
    public var rowMajor: [Double] { [row0.x, row0.y, row0.z, row1.x, row1.y, row1.z, row2.x, row2.y, row2.z] }

    /// Inverse by the adjugate; nil when the matrix is singular or nearly so.
    public var inverse: Matrix3? {
        let det = determinant
        let scale = max(row0.length, row1.length, row2.length)
        guard det.isFinite, scale > 0, abs(det) > 1e-12 * scale * scale * scale else { return nil }
        // Columns of the inverse are the cross products of the rows, divided by the determinant.
        let c0 = row1.cross(row2), c1 = row2.cross(row0), c2 = row0.cross(row1)
        return Matrix3(Vector3(c0.x, c1.x, c2.x), Vector3(c0.y, c1.y, c2.y), Vector3(c0.z, c1.z, c2.z)) * (1 / det)
    }

    @inline(__always)
    public static func * (m: Matrix3, v: Vector3) -> Vector3 {
        Vector3(m.row0.dot(v), m.row1.dot(v), m.row2.dot(v))
    }

    public static func * (a: Matrix3, b: Matrix3) -> Matrix3 {
        let t = b.transposed
        return Matrix3(
            Vector3(a.row0.dot(t.row0), a.row0.dot(t.row1), a.row0.dot(t.row2)),
            Vector3(a.row1.dot(t.row0), a.row1.dot(t.row1), a.row1.dot(t.row2)),
            Vector3(a.row2.dot(t.row0), a.row2.dot(t.row1), a.row2.dot(t.row2)))
    }

    public static func * (m: Matrix3, s: Double) -> Matrix3 { Matrix3(m.row0 * s, m.row1 * s, m.row2 * s) }
    public static func + (a: Matrix3, b: Matrix3) -> Matrix3 { Matrix3(a.row0 + b.row0, a.row1 + b.row1, a.row2 + b.row2) }
    public static func - (a: Matrix3, b: Matrix3) -> Matrix3 { Matrix3(a.row0 - b.row0, a.row1 - b.row1, a.row2 - b.row2) }

    /// Largest absolute element: a simple size for "how far apart are two matrices".
    public var maximumAbsoluteElement: Double {
        rowMajor.reduce(0) { max($0, abs($1)) }
    }
}

extension Vector3 {
    @inline(__always)
    mutating func set(_ axis: Int, _ value: Double) {
        switch axis {
        case 0: x = value
        case 1: y = value
        default: z = value
        }
    }
}
