import Glibc
import LodestoneCore

/// What a magnetometer fit found, in the sensor's raw units (microtesla).
public struct FieldFit: Sendable, Equatable {
    public enum Model: String, Sendable, BitwiseCopyable {
        /// Offset and a full symmetric soft-iron matrix (needs readings from all round the sphere).
        case ellipsoid
        /// Offset only, soft iron left as the identity: what a partial sweep can still support.
        case sphere
        /// A boat's swing: offset and soft iron across the horizontal from the turn, the
        /// vertical offset from the field's dip, the vertical soft iron held round.
        case swing
    }

    public var model: Model
    /// Centre of the readings: the field of the magnetised parts that turn with the sensor.
    public var hardIronOffset: Vector3
    /// Symmetric correction with determinant 1: calibrated = softIron x (raw - hardIronOffset).
    public var softIron: Matrix3
    /// Radius of the calibrated sphere: the geometric mean of the ellipsoid's semi-axes.
    public var fieldStrength: Double
    /// Root mean square distance of the calibrated readings from that sphere, microtesla.
    public var residualRMS: Double
    /// Longest over shortest semi-axis of the raw ellipsoid (the soft-iron matrix's condition
    /// number, since it is symmetric positive definite). 1 for the sphere model.
    public var axisRatio: Double
    public var samples: Int

    public init(
        model: Model, hardIronOffset: Vector3, softIron: Matrix3, fieldStrength: Double,
        residualRMS: Double, axisRatio: Double, samples: Int
    ) {
        self.model = model
        self.hardIronOffset = hardIronOffset
        self.softIron = softIron
        self.fieldStrength = fieldStrength
        self.residualRMS = residualRMS
        self.axisRatio = axisRatio
        self.samples = samples
    }

    public func apply(_ raw: Vector3) -> Vector3 { softIron * (raw - hardIronOffset) }
}

/// Why a fit produced no answer.
public enum FitProblem: Error, Sendable, Equatable {
    /// Fewer readings than the model has unknowns (plus a margin).
    case tooFewSamples(count: Int, needed: Int)
    /// The normal equations are singular: the readings do not pin the surface down, e.g. they
    /// all lie on one circle because the device was only turned about one axis.
    case singular
    /// The best quadric through the readings is not an ellipsoid (a hyperboloid or cylinder),
    /// which only happens when some directions are missing or the data is dominated by noise.
    case notAnEllipsoid
}

/// Least-squares fit of the ellipsoid that raw magnetometer readings lie on.
///
/// A magnetometer turned through every orientation in a constant field traces a sphere; hard
/// iron (magnetised parts fixed to the sensor) shifts its centre and soft iron (nearby steel,
/// axis gain and cross-axis errors) stretches it into an ellipsoid. Fitting that ellipsoid gives
/// the offset to subtract and the matrix that makes it round again.
///
/// The fit is linear in the quadric's coefficients, so it needs only the sums of products of the
/// monomials (x^2, y^2, z^2, xy, xz, yz, x, y, z, 1) over the readings: 55 numbers, updated per
/// reading with no allocation, however long the calibration runs. Readings are accumulated
/// relative to the first one (which lies on the ellipsoid, within two field strengths of
/// every other reading) so the sums stay accurate however large the hard-iron offset is; at
/// solve time they are moved exactly to the mean and scaled to unit spread, which keeps the
/// normal equations well conditioned.
public struct EllipsoidFit: Sendable {
    /// Monomials in order: xx, yy, zz, xy, xz, yz, x, y, z, 1.
    static let terms = 10

    public private(set) var count = 0
    private var reference = Vector3.zero
    /// Upper triangle of the 10x10 sum of m m^T, packed by rows.
    private var sums: [Double]

    public init() {
        sums = [Double](repeating: 0, count: EllipsoidFit.terms * (EllipsoidFit.terms + 1) / 2)
    }

    /// Forgets every reading; keeps the storage.
    public mutating func reset() {
        count = 0
        reference = .zero
        for i in sums.indices { sums[i] = 0 }
    }

    @inline(__always)
    static func packed(_ i: Int, _ j: Int) -> Int {
        let (r, c) = i <= j ? (i, j) : (j, i)
        return r * terms - r * (r - 1) / 2 + (c - r)
    }

    /// Adds one raw reading (any unit, normally microtesla). Non-finite readings are ignored.
    /// No allocation as long as this fit is not shared with a copy (copy-on-write).
    public mutating func add(_ raw: Vector3) {
        guard raw.x.isFinite, raw.y.isFinite, raw.z.isFinite else { return }
        if count == 0 { reference = raw }
        let u = raw - reference
        var m = (u.x * u.x, u.y * u.y, u.z * u.z, u.x * u.y, u.x * u.z, u.y * u.z, u.x, u.y, u.z, 1.0)
        withUnsafePointer(to: &m) { tuple in
            tuple.withMemoryRebound(to: Double.self, capacity: EllipsoidFit.terms) { v in
                sums.withUnsafeMutableBufferPointer { s in
                    var k = 0
                    for i in 0..<EllipsoidFit.terms {
                        let vi = v[i]
                        for j in i..<EllipsoidFit.terms {
                            s[k] += vi * v[j]
                            k += 1
                        }
                    }
                }
            }
        }
        count += 1
    }

    /// The accumulated sums moved to the readings' mean and divided by their spread:
    /// w = (u - mean) / scale. Each monomial of w is a fixed combination of monomials of u,
    /// m(w) = T m(u), so the sums transform exactly as T S T^T.
    struct Normalised {
        var s: [Double]  // full 10x10 sums of m(w) m(w)^T
        var mean: Vector3  // relative to `reference`
        var scale: Double
        var n: Double

        @inline(__always) subscript(i: Int, j: Int) -> Double { s[i * EllipsoidFit.terms + j] }

        /// Sum of squares of the residual c . m(w) over the readings: c^T S c.
        func sumOfSquares(_ c: [Double]) -> Double {
            var total = 0.0
            for i in 0..<EllipsoidFit.terms {
                var row = 0.0
                for j in 0..<EllipsoidFit.terms { row += self[i, j] * c[j] }
                total += c[i] * row
            }
            return max(0, total)
        }
    }

    func normalised() -> Normalised? {
        let t = EllipsoidFit.terms
        guard count > 0 else { return nil }
        let n = Double(count)
        var raw = [Double](repeating: 0, count: t * t)
        for i in 0..<t { for j in 0..<t { raw[i * t + j] = sums[EllipsoidFit.packed(i, j)] } }
        // Sums against the constant monomial are plain sums of each monomial.
        let mean = Vector3(raw[6 * t + 9] / n, raw[7 * t + 9] / n, raw[8 * t + 9] / n)
        let meanSquare = (raw[0 * t + 9] + raw[1 * t + 9] + raw[2 * t + 9]) / n
        let variance = meanSquare - mean.dot(mean)
        guard variance.isFinite, variance > 0 else { return nil }
        let scale = variance.squareRoot()
        let inv = 1 / scale, inv2 = inv * inv
        // T: row = monomial of w, column = monomial of u.
        var transform = [Double](repeating: 0, count: t * t)
        let axesOfSquare = [(0, 0), (1, 1), (2, 2), (0, 1), (0, 2), (1, 2)]
        for (row, (a, b)) in axesOfSquare.enumerated() {
            // (ua - ma)(ub - mb) = ua ub - mb ua - ma ub + ma mb
            transform[row * t + row] = inv2
            transform[row * t + 6 + a] -= mean[b] * inv2
            transform[row * t + 6 + b] -= mean[a] * inv2
            transform[row * t + 9] = mean[a] * mean[b] * inv2
        }
        for a in 0..<3 {
            transform[(6 + a) * t + 6 + a] = inv
            transform[(6 + a) * t + 9] = -mean[a] * inv
        }
        transform[9 * t + 9] = 1
        // T S T^T in two passes.
        var ts = [Double](repeating: 0, count: t * t)
        for i in 0..<t {
            for k in 0..<t where transform[i * t + k] != 0 {
                let f = transform[i * t + k]
                for j in 0..<t { ts[i * t + j] += f * raw[k * t + j] }
            }
        }
        var s = [Double](repeating: 0, count: t * t)
        for i in 0..<t {
            for j in 0..<t {
                var total = 0.0
                for k in 0..<t { total += ts[i * t + k] * transform[j * t + k] }
                s[i * t + j] = total
            }
        }
        return Normalised(s: s, mean: mean, scale: scale, n: n)
    }

    /// Standard deviations of the readings along their three principal directions, ascending,
    /// in the readings' unit. A smallest one far below the largest means the readings lie
    /// nearly in a plane (the device was turned about one axis only) and no ellipsoid can be
    /// trusted, whatever the fit returns.
    public func spread() -> Vector3? {
        guard count > 1, let w = normalised() else { return nil }
        let c =
            Matrix3(
                Vector3(w[0, 9], w[3, 9], w[4, 9]),
                Vector3(w[3, 9], w[1, 9], w[5, 9]),
                Vector3(w[4, 9], w[5, 9], w[2, 9])) * (w.scale * w.scale / w.n)
        guard let eigen = SymmetricEigen3(c) else { return nil }
        return Vector3(
            max(0, eigen.values.x).squareRoot(), max(0, eigen.values.y).squareRoot(),
            max(0, eigen.values.z).squareRoot())
    }

    /// Fits x^T A x + 2 b^T x = 1 (nine coefficients; the constant is fixed at 1, which is safe
    /// because the origin, the readings' mean, is inside the ellipsoid), then takes the centre
    /// c = -A^-1 b and the shape M = A / (1 + c^T A c) so that (x - c)^T M (x - c) = 1.
    /// The soft-iron matrix is the symmetric square root of M, i.e. the inverse square root of
    /// the ellipsoid's axes matrix M^-1, scaled to determinant 1 so it only reshapes: the field
    /// strength is then the geometric mean of the semi-axes.
    public func ellipsoid() -> Result<FieldFit, FitProblem> {
        let needed = 20
        guard count >= needed else { return .failure(.tooFewSamples(count: count, needed: needed)) }
        guard let w = normalised() else { return .failure(.singular) }
        // Normal equations for q = (xx, yy, zz, 2xy, 2xz, 2yz, 2x, 2y, 2z) against 1.
        let g: [Double] = [1, 1, 1, 2, 2, 2, 2, 2, 2]
        var normal = [Double](repeating: 0, count: 81)
        var rhs = [Double](repeating: 0, count: 9)
        for i in 0..<9 {
            rhs[i] = g[i] * w[i, 9]
            for j in 0..<9 { normal[i * 9 + j] = g[i] * g[j] * w[i, j] }
        }
        guard let p = LinearSolve.cholesky(normal, rhs) else { return .failure(.singular) }
        let a = Matrix3(Vector3(p[0], p[3], p[4]), Vector3(p[3], p[1], p[5]), Vector3(p[4], p[5], p[2]))
        let b = Vector3(p[6], p[7], p[8])
        guard let aInverse = a.inverse else { return .failure(.notAnEllipsoid) }
        let centre = (aInverse * b) * -1
        let k = 1 + centre.dot(a * centre)
        guard k.isFinite, k > 0 else { return .failure(.notAnEllipsoid) }
        let shape = a * (1 / k)
        guard let eigen = SymmetricEigen3(shape), eigen.values.x > 0 else { return .failure(.notAnEllipsoid) }
        let product = eigen.values.x * eigen.values.y * eigen.values.z
        // (l1 l2 l3)^(1/6): the geometric mean of the square roots of the eigenvalues.
        let normaliser = cbrt(product.squareRoot())
        let softIron = eigen.mapped { $0.squareRoot() } * (1 / normaliser)
        let fieldStrength = w.scale / normaliser
        // The algebraic residual e = q.p - 1 is k times (x-c)^T M (x-c) - 1, which for a
        // reading at distance F + d from the calibrated centre is 2 d / F to first order.
        var coefficients = [p[0], p[1], p[2], 2 * p[3], 2 * p[4], 2 * p[5], 2 * p[6], 2 * p[7], 2 * p[8], -1]
        coefficients = coefficients.map { $0 / k }
        let algebraicRMS = (w.sumOfSquares(coefficients) / w.n).squareRoot()
        let fit = FieldFit(
            model: .ellipsoid,
            hardIronOffset: reference + w.mean + centre * w.scale,
            softIron: softIron,
            fieldStrength: fieldStrength,
            residualRMS: fieldStrength * algebraicRMS / 2,
            axisRatio: (eigen.values.z / eigen.values.x).squareRoot(),
            samples: count)
        guard fit.hardIronOffset.length.isFinite, fieldStrength.isFinite, softIron.isFinite else {
            return .failure(.notAnEllipsoid)
        }
        return .success(fit)
    }

    /// Hard iron only: the sphere |x - c|^2 = R^2, fitted linearly as
    /// |x|^2 = 2 c . x + (R^2 - |c|^2). Needs far less of the sphere covered than the ellipsoid,
    /// so it gives a usable offset from a partial sweep.
    public func sphere() -> Result<FieldFit, FitProblem> {
        let needed = 8
        guard count >= needed else { return .failure(.tooFewSamples(count: count, needed: needed)) }
        guard let w = normalised() else { return .failure(.singular) }
        var normal = [Double](repeating: 0, count: 16)
        var rhs = [Double](repeating: 0, count: 4)
        for a in 0..<3 {
            for b in 0..<3 { normal[a * 4 + b] = 4 * w[6 + a, 6 + b] }
            normal[a * 4 + 3] = 2 * w[6 + a, 9]
            normal[3 * 4 + a] = 2 * w[6 + a, 9]
            rhs[a] = 2 * (w[6 + a, 0] + w[6 + a, 1] + w[6 + a, 2])
        }
        normal[15] = w.n
        rhs[3] = w[9, 0] + w[9, 1] + w[9, 2]
        guard let p = LinearSolve.cholesky(normal, rhs) else { return .failure(.singular) }
        let centre = Vector3(p[0], p[1], p[2])
        let radiusSquared = p[3] + centre.dot(centre)
        guard radiusSquared.isFinite, radiusSquared > 0 else { return .failure(.notAnEllipsoid) }
        let radius = radiusSquared.squareRoot()
        // Residual |x|^2 - 2 c.x - k, which is about 2 R d for a reading d off the sphere.
        let coefficients = [1, 1, 1, 0, 0, 0, -2 * centre.x, -2 * centre.y, -2 * centre.z, -p[3]]
        let algebraicRMS = (w.sumOfSquares(coefficients) / w.n).squareRoot()
        return .success(
            FieldFit(
                model: .sphere,
                hardIronOffset: reference + w.mean + centre * w.scale,
                softIron: .identity,
                fieldStrength: radius * w.scale,
                residualRMS: algebraicRMS / (2 * radius) * w.scale,
                axisRatio: 1,
                samples: count))
    }
}
