import Glibc
import LodestoneCore

/// What the calibration knows before the readings speak: the device's up axis in the
/// sensor's axes, Earth's field where it is (when there is a fix or a position), and how far
/// the soft iron may be trusted to stay round where the readings do not show it.
public struct FieldPriors: Sendable, Equatable {
    /// The device's up axis in the magnetometer's axes (unit length).
    public var up: Vector3
    /// Earth's field strength, microtesla, and dip below the horizontal, degrees, from the
    /// World Magnetic Model at the position; nil when unknown.
    public var fieldStrength: Double?
    public var dip: Double?
    /// One sigma of the soft iron's departure from round, across the horizontal plane and
    /// between the vertical and it (dimensionless: 0.2 is 20%).
    public var horizontalShape: Double
    public var verticalShape: Double

    public init(
        up: Vector3 = Vector3(0, 0, -1), fieldStrength: Double? = nil, dip: Double? = nil,
        horizontalShape: Double = 0.25, verticalShape: Double = 0.25
    ) {
        let length = up.length
        self.up = length > 0 && length.isFinite ? up * (1 / length) : Vector3(0, 0, -1)
        self.fieldStrength = fieldStrength.flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
        self.dip = dip.flatMap { $0.isFinite && abs($0) <= 90 ? $0 : nil }
        self.horizontalShape = horizontalShape
        self.verticalShape = verticalShape
    }

    /// The model's dip is good to about this much, degrees: the World Magnetic Model's own
    /// estimate of its inclination error is 0.22 degrees (one sigma, crustal fields included);
    /// twice that allows for a local anomaly. A swing's vertical offset rests on it.
    static let dipSigma = 0.5
}

/// The calibration as a maximum a posteriori fit: hard iron b, a symmetric soft-iron matrix S
/// and the field's dip δ, such that every calibrated reading S (m - b) has the field's
/// strength and, against the accelerometer's down, the field's dip. Where the readings do not
/// determine a term (one hemisphere sparse, a boat that only turns about the vertical) the
/// priors hold it: the soft iron near round in the device's own vertical frame, the dip near
/// the model's. The same fit serves a figure-8, a partial figure-8 and a boat's swing; only
/// the priors differ.
///
/// Solved by Gauss-Newton from the ellipsoid (or sphere) fit's answer; the inverse of the
/// normal matrix at the answer is the parameters' covariance, from which
/// `HeadingUncertainty` tells what the calibration is worth at each attitude.
public struct FieldSolution: Sendable {
    /// b (3), then S as xx, yy, zz, xy, xz, yz, then the dip in radians.
    public static let parameterCount = 10
    public var hardIron: Vector3
    /// Symmetric; calibrated = softIron x (raw - hardIron), of length `fieldStrength`.
    public var softIron: Matrix3
    /// The strength the calibrated field is scaled to, microtesla.
    public var fieldStrength: Double
    /// Radians below the horizontal (NaN when no accelerometer readings were given).
    public var dip: Double
    /// Row-major 10 x 10.
    public var covariance: [Double]
    /// Microtesla: scatter of the calibrated strengths; and of the dip (sine) where measured.
    public var strengthRMS: Double
    public var dipRMS: Double
    public var samples: Int

    /// The parameters as one vector (see `parameterCount`).
    var parameters: [Double] {
        [
            hardIron.x, hardIron.y, hardIron.z, softIron.row0.x, softIron.row1.y, softIron.row2.z,
            softIron.row0.y, softIron.row0.z, softIron.row1.z, dip.isFinite ? dip : 0
        ]
    }

    static func unpack(_ p: [Double]) -> (Vector3, Matrix3, Double) {
        (
            Vector3(p[0], p[1], p[2]),
            Matrix3(Vector3(p[3], p[6], p[7]), Vector3(p[6], p[4], p[8]), Vector3(p[7], p[8], p[5])), p[9]
        )
    }
}

public enum FieldSolver {
    /// Fits from `start` (an ellipsoid or sphere fit of the same readings). `downs` are unit
    /// vectors of gravity in the sensor's axes, one per reading, nil where the device was
    /// moving too hard for the accelerometer to tell down (or no accelerometer at all).
    public static func solve(readings: [Vector3], downs: [Vector3?], start: FieldFit, priors: FieldPriors) -> FieldSolution? {
        guard readings.count >= 8, downs.count == readings.count else { return nil }
        let strength = priors.fieldStrength ?? start.fieldStrength
        guard strength.isFinite, strength > 0 else { return nil }
        // The start's soft iron has determinant 1 and its field strength is the raw one: the
        // matrix that scales to `strength` is the same shape times their ratio.
        let scale = strength / start.fieldStrength
        let usesDip = downs.contains { $0 != nil }
        var p = [
            start.hardIronOffset.x, start.hardIronOffset.y, start.hardIronOffset.z,
            start.softIron.row0.x * scale, start.softIron.row1.y * scale, start.softIron.row2.z * scale,
            start.softIron.row0.y * scale, start.softIron.row0.z * scale, start.softIron.row1.z * scale,
            Angle.radians(priors.dip ?? 60)
        ]
        if usesDip, priors.dip == nil, let measured = meanDip(readings: readings, downs: downs, parameters: p) { p[9] = measured }
        var sigmaStrength = max(start.residualRMS, 0.05)
        var sigmaDip = 0.05
        // Gauss-Newton; a step the normal matrix cannot give (a direction the readings and priors
        // barely fix) is taken with a little damping instead. Each pass weighs each kind of
        // residual by the scatter it had in the pass before.
        for _ in 0..<25 {
            let system = normalEquations(
                readings: readings, downs: downs, parameters: p, strength: strength, priors: priors,
                sigmaStrength: sigmaStrength, sigmaDip: sigmaDip, usesDip: usesDip)
            guard let step = dampedStep(system) else { return nil }
            p = zip(p, step).map { $0 - $1 }
            sigmaStrength = max(system.rms.strength, 0.02)
            if usesDip { sigmaDip = max(system.rms.dip, 0.005) }
            let moved = step.prefix(3).map(abs).max() ?? 0
            if moved < 1e-4 && (step.dropFirst(3).prefix(6).map(abs).max() ?? 0) < 1e-7 { break }
        }
        let final = normalEquations(
            readings: readings, downs: downs, parameters: p, strength: strength, priors: priors,
            sigmaStrength: sigmaStrength, sigmaDip: sigmaDip, usesDip: usesDip)
        guard let covariance = inverse(final.matrix) ?? dampedInverse(final.matrix) else { return nil }
        let (b, s, dip) = FieldSolution.unpack(p)
        guard b.length.isFinite, s.isFinite else { return nil }
        return FieldSolution(
            hardIron: b, softIron: s, fieldStrength: strength, dip: usesDip ? dip : .nan, covariance: covariance,
            strengthRMS: final.rms.strength, dipRMS: usesDip ? final.rms.dip : .nan, samples: readings.count)
    }

    /// The Gauss-Newton step, or with the diagonal raised by 1e-9, 1e-6, 1e-3 of itself when
    /// the undamped matrix is not clearly positive definite; nil when none solves.
    private static func dampedStep(_ system: System) -> [Double]? {
        let n = FieldSolution.parameterCount
        for damping in [0, 1e-9, 1e-6, 1e-3] {
            var matrix = system.matrix
            for i in 0..<n { matrix[i * n + i] *= 1 + damping }
            if let step = LinearSolve.cholesky(matrix, system.gradient) { return step }
        }
        return nil
    }

    /// Down (unit) from an accelerometer reading (specific force reads up when still), nil
    /// when its strength is more than 5% off the readings' typical one: the device was being
    /// swung, and the force is not gravity.
    public static func downs(specificForces: [Vector3]) -> [Vector3?] {
        let lengths = specificForces.map(\.length).filter { $0.isFinite && $0 > 0 }.sorted()
        guard !lengths.isEmpty else { return specificForces.map { _ in nil } }
        let typical = lengths[lengths.count / 2]
        return specificForces.map { f in
            let length = f.length
            guard length.isFinite, length > 0, abs(length - typical) <= 0.05 * typical else { return nil }
            return f * (-1 / length)
        }
    }

    private static func meanDip(readings: [Vector3], downs: [Vector3?], parameters p: [Double]) -> Double? {
        let (b, s, _) = FieldSolution.unpack(p)
        var total = 0.0, count = 0
        for (m, down) in zip(readings, downs) {
            guard let down else { continue }
            let u = s * (m - b)
            let length = u.length
            guard length > 0 else { continue }
            total += asin(max(-1, min(1, down.dot(u) / length)))
            count += 1
        }
        return count > 0 ? total / Double(count) : nil
    }

    private struct System {
        var matrix: [Double]
        var gradient: [Double]
        var rms: (strength: Double, dip: Double)
        /// The weighted sum of squares the fit minimises, priors included.
        var cost: Double
    }

    /// JᵀWJ + P and JᵀWr + P(p - prior), with the residuals' RMS.
    private static func normalEquations(
        readings: [Vector3], downs: [Vector3?], parameters p: [Double], strength: Double,
        priors: FieldPriors, sigmaStrength: Double, sigmaDip: Double,
        usesDip: Bool
    ) -> System {
        let n = FieldSolution.parameterCount
        var matrix = [Double](repeating: 0, count: n * n)
        var gradient = [Double](repeating: 0, count: n)
        let (b, s, dip) = FieldSolution.unpack(p)
        let sinDip = sin(dip), cosDip = cos(dip)
        var sumStrength = 0.0, sumDip = 0.0, dipCount = 0
        let wStrength = 1 / (sigmaStrength * sigmaStrength), wDip = 1 / (sigmaDip * sigmaDip)
        var row = [Double](repeating: 0, count: n)
        var cost = 0.0
        func accumulate(_ residual: Double, _ weight: Double) {
            cost += weight * residual * residual
            for i in 0..<n where row[i] != 0 {
                gradient[i] += weight * row[i] * residual
                for j in 0..<n { matrix[i * n + j] += weight * row[i] * row[j] }
            }
        }
        for (m, down) in zip(readings, downs) {
            let v = m - b
            let u = s * v
            let length = u.length
            guard length > 0, length.isFinite else { continue }
            let unit = u * (1 / length)
            // d|u| = unit . du; du/db = -S, du/dS as below.
            fill(&row, along: unit, v: v, s: s)
            row[9] = 0
            let residual = length - strength
            sumStrength += residual * residual
            accumulate(residual, wStrength)
            guard usesDip, let down else { continue }
            // d(down . unit)/du = (down - (down . unit) unit) / |u|
            let along = down.dot(unit)
            fill(&row, along: (down - unit * along) * (1 / length), v: v, s: s)
            row[9] = -cosDip
            let dipResidual = along - sinDip
            sumDip += dipResidual * dipResidual
            dipCount += 1
            accumulate(dipResidual, wDip)
        }
        cost += addPriors(&matrix, &gradient, parameters: p, strength: strength, priors: priors, usesDip: usesDip)
        return System(
            matrix: matrix, gradient: gradient,
            rms: (
                (sumStrength / Double(max(readings.count, 1))).squareRoot(),
                dipCount > 0 ? (sumDip / Double(dipCount)).squareRoot() : 0
            ),
            cost: cost)
    }

    /// The derivative row of `g . u` for u = S (m - b), for a gradient `g` of u.
    @inline(__always)
    private static func fill(_ row: inout [Double], along g: Vector3, v: Vector3, s: Matrix3) {
        let db = (s * g) * -1  // S symmetric: d(g . S v)/db = -S g
        row[0] = db.x; row[1] = db.y; row[2] = db.z
        row[3] = g.x * v.x
        row[4] = g.y * v.y
        row[5] = g.z * v.z
        row[6] = g.x * v.y + g.y * v.x
        row[7] = g.x * v.z + g.z * v.x
        row[8] = g.y * v.z + g.z * v.y
    }

    /// The soft iron's shape held near round in the device's vertical frame (its overall scale
    /// is free: it only sets the calibrated strength), the dip near the model's, and a very weak
    /// hold on the hard iron so that readings which cannot place it give a large covariance
    /// instead of no answer.
    /// Returns the priors' share of the cost.
    private static func addPriors(
        _ matrix: inout [Double], _ gradient: inout [Double], parameters p: [Double],
        strength: Double, priors: FieldPriors, usesDip: Bool
    ) -> Double {
        let n = FieldSolution.parameterCount
        var cost = 0.0
        func add(_ row: [Double], residual: Double, sigma: Double) {
            let weight = 1 / (sigma * sigma)
            cost += weight * residual * residual
            for i in 0..<n where row[i] != 0 {
                gradient[i] += weight * row[i] * residual
                for j in 0..<n { matrix[i * n + j] += weight * row[i] * row[j] }
            }
        }
        // A frame with its third axis up: shape terms there are linear in S's entries.
        let frame = VerticalFrame(up: priors.up)
        let (_, s, dip) = FieldSolution.unpack(p)
        let scale = (s.row0.x + s.row1.y + s.row2.z) / 3
        let relative = 1 / max(abs(scale), 1e-9)
        for (shape, sigma) in frame.shapeTerms(priors: priors) {
            var row = [Double](repeating: 0, count: n)
            for k in 0..<6 { row[3 + k] = shape[k] * relative }
            add(row, residual: dotShape(shape, s) * relative, sigma: sigma)
        }
        for i in 0..<3 {
            var row = [Double](repeating: 0, count: n)
            row[i] = 1
            add(row, residual: 0, sigma: 1000 * strength)
        }
        var dipRow = [Double](repeating: 0, count: n)
        dipRow[9] = 1
        if usesDip, let model = priors.dip {
            add(dipRow, residual: dip - Angle.radians(model), sigma: Angle.radians(FieldPriors.dipSigma))
        } else if !usesDip {
            add(dipRow, residual: 0, sigma: 1)  // nothing measures it: kept out of the way
        }
        return cost
    }

    /// A shape term's value for S: the term's coefficients on (xx, yy, zz, xy, xz, yz).
    private static func dotShape(_ c: [Double], _ s: Matrix3) -> Double {
        c[0] * s.row0.x + c[1] * s.row1.y + c[2] * s.row2.z + c[3] * s.row0.y + c[4] * s.row0.z + c[5] * s.row1.z
    }

    /// The inverse with the diagonal raised by a millionth of itself: a direction the readings
    /// leave nearly free keeps a large (not infinite) variance, which is what it is.
    static func dampedInverse(_ matrix: [Double]) -> [Double]? {
        let n = FieldSolution.parameterCount
        guard matrix.count == n * n else { return nil }
        var damped = matrix
        for i in 0..<n { damped[i * n + i] *= 1 + 1e-6 }
        return inverse(damped)
    }

    /// Inverse of a symmetric positive definite matrix, column by column.
    static func inverse(_ matrix: [Double]) -> [Double]? {
        let n = Int(Double(matrix.count).squareRoot())
        guard n * n == matrix.count else { return nil }
        var result = [Double](repeating: 0, count: n * n)
        for column in 0..<n {
            var unit = [Double](repeating: 0, count: n)
            unit[column] = 1
            guard let x = LinearSolve.cholesky(matrix, unit, relativeTolerance: 1e-15) else { return nil }
            for row in 0..<n { result[row * n + column] = x[row] }
        }
        return result
    }
}

/// Axes with the third one up: x and y horizontal when the device is level.
struct VerticalFrame {
    let x: Vector3, y: Vector3, z: Vector3

    init(up: Vector3) {
        z = up
        let helper = abs(up.x) < 0.9 ? Vector3(1, 0, 0) : Vector3(0, 1, 0)
        let xx = helper - up * up.dot(helper)
        x = xx * (1 / xx.length)
        y = up.cross(x)
    }

    /// e_a^T S e_b as coefficients on S's (xx, yy, zz, xy, xz, yz).
    static func bilinear(_ a: Vector3, _ b: Vector3) -> [Double] {
        [a.x * b.x, a.y * b.y, a.z * b.z, a.x * b.y + a.y * b.x, a.x * b.z + a.z * b.x, a.y * b.z + a.z * b.y]
    }

    /// The five departures from round, each with its sigma: across the horizontal (xx - yy,
    /// xy) and between the vertical and the horizontal (zz against their mean, xz, yz).
    func shapeTerms(priors: FieldPriors) -> [([Double], Double)] {
        let xx = Self.bilinear(x, x), yy = Self.bilinear(y, y), zz = Self.bilinear(z, z)
        let difference = (0..<6).map { xx[$0] - yy[$0] }
        let vertical = (0..<6).map { zz[$0] - (xx[$0] + yy[$0]) / 2 }
        return [
            (difference, priors.horizontalShape), (Self.bilinear(x, y), priors.horizontalShape),
            (vertical, priors.verticalShape), (Self.bilinear(x, z), priors.verticalShape),
            (Self.bilinear(y, z), priors.verticalShape)
        ]
    }
}
