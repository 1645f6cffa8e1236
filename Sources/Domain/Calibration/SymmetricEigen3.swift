import LodestoneCore

/// Eigenvalues and eigenvectors of a symmetric 3x3 matrix by the cyclic Jacobi method.
///
/// Jacobi is the right tool at this size: each rotation zeroes one off-diagonal element, a few
/// sweeps reach full double precision, and the eigenvectors come out orthonormal even when
/// eigenvalues are nearly equal (an almost round ellipsoid), where solving the characteristic
/// cubic loses accuracy.
public struct SymmetricEigen3: Sendable, Equatable {
    /// Ascending.
    public var values: Vector3
    /// Column i is the unit eigenvector of `values[i]`.
    public var vectors: Matrix3

    /// The matrix is symmetrised first ((M + M^T) / 2), so tiny rounding asymmetries do not matter.
    /// Nil when an element is not finite.
    public init?(_ matrix: Matrix3) {
        guard matrix.isFinite else { return nil }
        var a = (matrix + matrix.transposed) * 0.5
        var v = Matrix3.identity
        let scale = max(a.maximumAbsoluteElement, Double.leastNormalMagnitude)
        for _ in 0..<64 {
            let off = abs(a[0, 1]) + abs(a[0, 2]) + abs(a[1, 2])
            if off <= 1e-17 * scale { break }
            for (p, q) in [(0, 1), (0, 2), (1, 2)] {
                let apq = a[p, q]
                if abs(apq) <= 1e-300 { continue }
                // Rotation angle that zeroes a[p,q]; the smaller root of t^2 + 2 theta t - 1 = 0
                // keeps the rotation under 45 degrees, which is what makes the sweeps converge.
                let theta = (a[q, q] - a[p, p]) / (2 * apq)
                let t = (theta >= 0 ? 1.0 : -1.0) / (abs(theta) + (theta * theta + 1).squareRoot())
                let c = 1 / (t * t + 1).squareRoot()
                let s = t * c
                var rotation = Matrix3.identity
                rotation[p, p] = c
                rotation[q, q] = c
                rotation[p, q] = s
                rotation[q, p] = -s
                a = rotation.transposed * a * rotation
                a[p, q] = 0
                a[q, p] = 0
                v = v * rotation
            }
        }
        // Sort ascending, carrying the eigenvector columns along.
        var order = [0, 1, 2]
        order.sort { a[$0, $0] < a[$1, $1] }
        values = Vector3(a[order[0], order[0]], a[order[1], order[1]], a[order[2], order[2]])
        var sorted = Matrix3.identity
        for (column, source) in order.enumerated() {
            for row in 0..<3 { sorted[row, column] = v[row, source] }
        }
        vectors = sorted
        guard values.x.isFinite, values.y.isFinite, values.z.isFinite else { return nil }
    }

    /// V f(Lambda) V^T: the same eigenvectors with each eigenvalue mapped through `f`
    /// (square root, inverse square root...), the standard way to take functions of a
    /// symmetric matrix.
    public func mapped(_ f: (Double) -> Double) -> Matrix3 {
        let fv = Vector3(f(values.x), f(values.y), f(values.z))
        return vectors * Matrix3.diagonal(fv) * vectors.transposed
    }
}
