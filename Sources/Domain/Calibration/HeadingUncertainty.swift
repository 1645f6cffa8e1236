import Glibc
import LodestoneCore

/// The attitudes a compass is read in, over which a calibration is judged: a handheld within
/// 30 degrees of level, a boat within 15 degrees of heel and pitch. Every heading, and every
/// direction of tilt, up to the limit.
public enum CompassUse: String, Sendable, CaseIterable {
    case handheld, boat

    /// Degrees from level.
    public var tiltLimit: Double { self == .handheld ? 30 : 15 }
}

/// What a fitted calibration is worth where it will be used: the heading error its parameters'
/// uncertainty leaves at each attitude of the use, from the fit's covariance.
///
/// Each parameter's uncertainty is pushed through the whole chain (the field Earth gives at that
/// attitude, the raw reading the fitted distortion makes of it, the correction with the
/// parameter moved by one sigma along each principal direction of the covariance, the
/// tilt-compensated heading) so terms that the readings did not pin down show up at exactly
/// the attitudes they matter at.
public enum HeadingUncertainty {
    /// The 95th percentile over the use's attitudes of the one-sigma heading error, degrees.
    public static func p95(_ solution: FieldSolution, up: Vector3, use: CompassUse) -> Double {
        let errors = sigmas(solution, up: up, use: use)
        guard !errors.isEmpty else { return .nan }
        let sorted = errors.sorted()
        return sorted[min(sorted.count - 1, Int(0.95 * Double(sorted.count)))]
    }

    /// One-sigma heading error at each attitude of the grid, degrees.
    static func sigmas(_ solution: FieldSolution, up: Vector3, use: CompassUse) -> [Double] {
        let n = 9  // the dip does not enter the heading: it only helps place the others
        guard let factor = choleskyFactor(solution.covariance, size: FieldSolution.parameterCount, keep: n) else { return [] }
        let frame = VerticalFrame(up: up)
        let down = frame.z * -1
        let dip = solution.dip.isFinite ? solution.dip : Angle.radians(60)
        let base = solution.parameters
        let (b, s, _) = FieldSolution.unpack(base)
        guard let sInverse = s.inverse else { return [] }
        // Each principal direction of the covariance, as the corrected parameters either side.
        var shifted: [(Vector3, Matrix3, Vector3, Matrix3)] = []
        for k in 0..<n {
            var plus = base, minus = base
            for i in 0..<n {
                plus[i] += factor[i * n + k]
                minus[i] -= factor[i * n + k]
            }
            let (bp, sp, _) = FieldSolution.unpack(plus), (bm, sm, _) = FieldSolution.unpack(minus)
            shifted.append((bp, sp, bm, sm))
        }
        var out: [Double] = []
        for attitude in grid(use) {
            // The device turned: tilt about a horizontal axis, then heading about the vertical.
            let tiltAxis = frame.x * cos(attitude.tiltDirection) + frame.y * sin(attitude.tiltDirection)
            let turn = Quaternion(axis: down, angle: attitude.heading) * Quaternion(axis: tiltAxis, angle: attitude.tilt)
            // Earth's north and down as the turned device sees them.
            let north = turn.rotateInverse(frame.x), earthDown = turn.rotateInverse(down)
            let east = earthDown.cross(north)
            let field = (north * cos(dip) + earthDown * sin(dip)) * solution.fieldStrength
            let raw = sInverse * field + b
            var variance = 0.0
            for (bp, sp, bm, sm) in shifted {
                let plus = sp * (raw - bp), minus = sm * (raw - bm)
                let difference = atan2(plus.dot(east), plus.dot(north)) - atan2(minus.dot(east), minus.dot(north))
                let half = remainder(difference, 2 * .pi) / 2
                variance += half * half
            }
            out.append(Angle.degrees(variance.squareRoot()))
        }
        return out
    }

    struct Attitude {
        var tilt: Double, tiltDirection: Double, heading: Double
    }

    /// Level, and three rings of tilt out to the limit in eight directions, each at twelve headings.
    static func grid(_ use: CompassUse) -> [Attitude] {
        var out: [Attitude] = []
        for h in 0..<12 {
            let heading = Double(h) * .pi / 6
            out.append(Attitude(tilt: 0, tiltDirection: 0, heading: heading))
            for ring in 1...3 {
                let tilt = Angle.radians(use.tiltLimit * Double(ring) / 3)
                for d in 0..<8 { out.append(Attitude(tilt: tilt, tiltDirection: Double(d) * .pi / 4, heading: heading)) }
            }
        }
        return out
    }

    /// The lower-triangular L with L Lᵀ = the leading `keep` x `keep` block of `matrix`.
    static func choleskyFactor(_ matrix: [Double], size: Int, keep n: Int) -> [Double]? {
        guard matrix.count == size * size, n <= size else { return nil }
        var l = [Double](repeating: 0, count: n * n)
        for j in 0..<n {
            var d = matrix[j * size + j]
            for k in 0..<j { d -= l[j * n + k] * l[j * n + k] }
            guard d > 0, d.isFinite else { return nil }
            let ljj = d.squareRoot()
            l[j * n + j] = ljj
            for i in (j + 1)..<n {
                var s = matrix[i * size + j]
                for k in 0..<j { s -= l[i * n + k] * l[j * n + k] }
                l[i * n + j] = s / ljj
            }
        }
        return l
    }
}
