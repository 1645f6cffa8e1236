/// Small dense linear algebra for the calibration fits: the normal equations are at most
/// 10x10, so a textbook Cholesky factorisation in plain arrays is all that is needed.
public enum LinearSolve {
    /// Solves `matrix * x = rhs` for a symmetric positive definite `matrix` (n x n, row order)
    /// by Cholesky factorisation, L L^T. Nil when a pivot is not clearly positive relative to
    /// the matrix's own diagonal, which is how "the samples do not pin this parameter down"
    /// shows up in normal equations.
    public static func cholesky(_ matrix: [Double], _ rhs: [Double], relativeTolerance: Double = 1e-12) -> [Double]? {
        let n = rhs.count
        guard n > 0, matrix.count == n * n, matrix.allSatisfy(\.isFinite), rhs.allSatisfy(\.isFinite) else { return nil }
        var largestDiagonal = 0.0
        for i in 0..<n { largestDiagonal = max(largestDiagonal, matrix[i * n + i]) }
        guard largestDiagonal > 0 else { return nil }
        var l = [Double](repeating: 0, count: n * n)
        for j in 0..<n {
            var d = matrix[j * n + j]
            for k in 0..<j { d -= l[j * n + k] * l[j * n + k] }
            // A pivot this small compared to the diagonal means rank deficiency: the answer
            // would be rounding noise, so say so instead.
            guard d > relativeTolerance * max(matrix[j * n + j], largestDiagonal * 1e-6) else { return nil }
            let ljj = d.squareRoot()
            l[j * n + j] = ljj
            for i in (j + 1)..<n {
                var s = matrix[i * n + j]
                for k in 0..<j { s -= l[i * n + k] * l[j * n + k] }
                l[i * n + j] = s / ljj
            }
        }
        // Forward substitution L y = b, then back substitution L^T x = y.
        var y = rhs
        for i in 0..<n {
            var s = y[i]
            for k in 0..<i { s -= l[i * n + k] * y[k] }
            y[i] = s / l[i * n + i]
        }
        var x = y
        for i in stride(from: n - 1, through: 0, by: -1) {
            var s = x[i]
            for k in (i + 1)..<n { s -= l[k * n + i] * x[k] }
            x[i] = s / l[i * n + i]
        }
        return x.allSatisfy(\.isFinite) ? x : nil
    }
}
