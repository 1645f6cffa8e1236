import Glibc
import LodestoneCore

/// A magnetometer calibration: what to subtract and how to reshape raw readings so that they
/// lie on a sphere of the local field strength, in the sensor's own axes.
public struct MagnetometerCalibration: Sendable, Equatable {
    public var model: FieldFit.Model
    /// Microtesla, sensor axes.
    public var hardIronOffset: Vector3
    /// Symmetric, determinant 1.
    public var softIron: Matrix3
    /// Microtesla.
    public var fieldStrength: Double
    /// Microtesla: scatter of the calibrated readings about the fitted sphere.
    public var residualRMS: Double
    /// Fraction of field directions the calibration readings covered, 0...1.
    public var coverage: Double
    /// Degrees: the heading scatter to expect from the residual alone (see
    /// `expectedHeadingError(residualRMS:fieldStrength:inclination:)`).
    public var expectedHeadingError: Double

    public init(model: FieldFit.Model = .ellipsoid, hardIronOffset: Vector3, softIron: Matrix3, fieldStrength: Double,
                residualRMS: Double, coverage: Double, expectedHeadingError: Double) {
        self.model = model
        self.hardIronOffset = hardIronOffset
        self.softIron = softIron
        self.fieldStrength = fieldStrength
        self.residualRMS = residualRMS
        self.coverage = coverage
        self.expectedHeadingError = expectedHeadingError
    }

    public init(fit: FieldFit, coverage: Double, inclination: Double?) {
        self.init(model: fit.model, hardIronOffset: fit.hardIronOffset, softIron: fit.softIron,
                  fieldStrength: fit.fieldStrength, residualRMS: fit.residualRMS, coverage: coverage,
                  expectedHeadingError: MagnetometerCalibration.expectedHeadingError(
                      residualRMS: fit.residualRMS, fieldStrength: fit.fieldStrength, inclination: inclination))
    }

    /// No correction at all.
    public static let identity = MagnetometerCalibration(hardIronOffset: .zero, softIron: .identity, fieldStrength: 0,
                                                         residualRMS: 0, coverage: 0, expectedHeadingError: 0)

    /// The calibrated field: softIron x (raw - hardIronOffset). No allocation.
    @inline(__always)
    public func apply(_ raw: Vector3) -> Vector3 { softIron * (raw - hardIronOffset) }

    /// Field dip used for the heading-error estimate when no accelerometer data tells the real
    /// one: 60 degrees is typical of the mid-latitudes where most people are (Europe, the US,
    /// Japan: 50..70 degrees), and leans to the pessimistic side for the tropics.
    public static let assumedInclination = 60.0

    /// Degrees of heading error to expect from the residual: heading comes only from the
    /// horizontal part of the field, F cos(inclination), so an error of `residualRMS` across it
    /// turns the heading by atan(residual / horizontal). This is per reading; averaging readings
    /// shrinks the random part but not the part that is left-over distortion.
    public static func expectedHeadingError(residualRMS: Double, fieldStrength: Double, inclination: Double?) -> Double {
        let dip = Angle.radians(inclination ?? assumedInclination)
        let horizontal = fieldStrength * abs(cos(dip))
        guard residualRMS.isFinite, horizontal.isFinite, residualRMS >= 0 else { return .nan }
        guard horizontal > 0 else { return 90 }
        return Angle.degrees(atan2(residualRMS, horizontal))
    }

    /// The broad direction the field takes only with the device face down: along its up axis
    /// where the field dips (north of the magnetic equator), along its down axis where it
    /// climbs. Nil near the magnetic equator (dip within 20 degrees: there level and face down
    /// see the same sides) or when the up axis is not near one of the sensor's axes.
    public static func upturnedDirection(up: Vector3, dip: Double) -> CoverageDirection? {
        let length = up.length
        guard length > 0, length.isFinite, dip.isFinite, abs(dip) >= 20 else { return nil }
        let axis = up * ((dip > 0 ? 1 : -1) / length)
        let best = CoverageDirection.allCases.max { $0.axis.dot(axis) < $1.axis.dot(axis) }
        guard let best, best.axis.dot(axis) >= 0.87 else { return nil }   // within 30 degrees
        return best
    }

    /// Mean dip of the calibrated field below the horizontal, degrees, from readings paired
    /// with accelerometer readings (specific force, which reads up when still: (0, 0, -g) level).
    public static func inclination(fields: [Vector3], specificForces: [Vector3]) -> Double? {
        var total = 0.0
        var used = 0
        for (m, f) in zip(fields, specificForces) {
            let ml = m.length, fl = f.length
            guard ml > 0, fl > 0, ml.isFinite, fl.isFinite else { continue }
            // Gravity points along -f; the dip is the angle of the field below the horizontal.
            let sine = max(-1, min(1, m.dot(f * -1) / (ml * fl)))
            total += asin(sine)
            used += 1
        }
        return used > 0 ? Angle.degrees(total / Double(used)) : nil
    }
}

/// Why a calibration is not good enough, each with a reason a person can act on.
public enum CalibrationFailure: Sendable, Equatable {
    case tooFewSamples(count: Int, needed: Int)
    /// Smallest over largest spread of the readings: they lie nearly in one plane.
    case readingsInAPlane(flatness: Double, needed: Double)
    case tooLittleCoverage(coverage: Double, needed: Double, missing: [CoverageDirection])
    /// The fitted surface is not an ellipsoid: the correction matrix would not be positive definite.
    case notPositiveDefinite
    /// Longest over shortest axis (the soft-iron matrix's condition number) beyond what nearby
    /// metal does to a sensor.
    case axisRatioTooHigh(ratio: Double, limit: Double)
    case fieldStrengthOutOfRange(microtesla: Double, range: ClosedRange<Double>)
    case residualTooHigh(microtesla: Double, limit: Double)

    /// Short machine-readable name.
    public var code: String {
        switch self {
        case .tooFewSamples: return "tooFewSamples"
        case .readingsInAPlane: return "readingsInAPlane"
        case .tooLittleCoverage: return "tooLittleCoverage"
        case .notPositiveDefinite: return "notPositiveDefinite"
        case .axisRatioTooHigh: return "axisRatioTooHigh"
        case .fieldStrengthOutOfRange: return "fieldStrengthOutOfRange"
        case .residualTooHigh: return "residualTooHigh"
        }
    }

    /// What went wrong and what to do about it, one line.
    public var reason: String {
        switch self {
        case let .tooFewSamples(count, needed):
            return "only \(count) usable readings (at least \(needed) needed): record for longer while turning the device through all orientations"
        case let .readingsInAPlane(flatness, needed):
            return "the readings lie nearly in one plane (flatness \(text(flatness, 2)), at least \(text(needed, 2)) needed): "
                + "the device was turned about one axis only; tilt it and turn it over as well, tracing figure 8s in every direction"
        case let .tooLittleCoverage(coverage, needed, missing):
            let head = "only \(text(coverage * 100, 0))% of field directions covered (\(text(needed * 100, 0))% needed)"
            guard !missing.isEmpty else {
                return head + ": keep turning the device, rolling it over while tracing figure 8s, until more directions are filled"
            }
            let advice = missing.map(\.advice)
            let axes = missing.map(\.rawValue).joined(separator: ", ")
            let verb = missing.count == 1 ? "is" : "are"
            return head + ": " + advice.joined(separator: "; ") + " too: the \(axes) direction\(missing.count == 1 ? "" : "s") \(verb) missing"
        case .notPositiveDefinite:
            return "the readings do not form an ellipsoid (the correction matrix is not positive definite): "
                + "repeat away from steel, magnets and electronics, turning the device slowly through all orientations"
        case let .axisRatioTooHigh(ratio, limit):
            return "implausible soft-iron distortion: the axes differ by a factor \(text(ratio, 2)) (condition number), at most \(text(limit, 2)) expected; "
                + "move the sensor away from steel, motors and speakers, or check that all columns come from the same magnetometer"
        case let .fieldStrengthOutOfRange(microtesla, range):
            let hint = microtesla < range.lowerBound
                ? "check the magnetometer's unit (the file must be in microtesla; 1 gauss = 100 uT) and range, and that the device is not inside a steel enclosure"
                : "check the magnetometer's unit (microtesla; 1 gauss = 100 uT) and move away from magnets and large steel"
            return "fitted field strength \(text(microtesla, 1)) uT is outside the Earth's \(text(range.lowerBound, 0))..\(text(range.upperBound, 0)) uT: " + hint
        case let .residualTooHigh(microtesla, limit):
            return "the readings scatter \(text(microtesla, 2)) uT about the fitted ellipsoid (at most \(text(limit, 2)) uT): "
                + "turn the device slowly, keep it away from moving metal, cables carrying current and your own watch or phone, and repeat"
        }
    }
}

/// What makes a calibration acceptable. Defaults suit a hand-held figure-8 calibration.
public struct CalibrationAcceptance: Sendable, Equatable {
    public var minimumSamples = 100
    /// Fraction of the sphere of directions; a good figure-8 with rolls fills most of it, and
    /// one whole hemisphere (with the cells along its rim) still comes to about 0.65.
    public var minimumCoverage = 0.7
    /// Smallest over largest spread of the readings; a full sweep of a sphere gives 1, one
    /// circle gives 0. A hemisphere still gives 0.5.
    public var minimumFlatness = 0.25
    /// The Earth's surface field is 22..67 uT; a few uT of margin each side allow for an
    /// uncalibrated sensor gain, which the fit's scale absorbs.
    public var fieldStrengthRange: ClosedRange<Double> = 20...70
    /// Residual as a fraction of the field strength (3% of 50 uT is 1.5 uT, several times a
    /// good MEMS magnetometer's noise).
    public var maximumRelativeResidual = 0.03
    /// Soft iron from nearby metal stretches axes by tens of percent (+-20% is already a ratio
    /// of 1.5); much beyond that the data is more likely wrong than the metal that strong.
    public var maximumAxisRatio = 1.6

    public init() {}

    /// Enough directions for the soft-iron matrix to mean something: the overall fraction, and
    /// no broad direction left out (a missing side lets the ellipsoid bulge there unseen) but
    /// `upturned`, the side the field only reaches with the device face down: a heading is
    /// read near level, where the fit has seen the field, and nobody turns a handheld or a
    /// boat over to calibrate it.
    public func isCoverageEnough(_ coverage: OrientationCoverage, upturned: CoverageDirection? = nil) -> Bool {
        coverage.coverage >= minimumCoverage && coverage.missingDirections.allSatisfy { $0 == upturned }
    }

    /// Every check that fails, most fundamental first (the first is the one to tell a person).
    public func check(samples: Int, flatness: Double?, fit: FieldFit?, fitProblem: FitProblem?,
                      coverage: OrientationCoverage, upturned: CoverageDirection? = nil) -> [CalibrationFailure] {
        var failures: [CalibrationFailure] = []
        if samples < minimumSamples { failures.append(.tooFewSamples(count: samples, needed: minimumSamples)) }
        if let flatness, flatness < minimumFlatness {
            failures.append(.readingsInAPlane(flatness: flatness, needed: minimumFlatness))
        }
        if !isCoverageEnough(coverage, upturned: upturned) {
            failures.append(.tooLittleCoverage(coverage: coverage.coverage, needed: minimumCoverage,
                                               missing: coverage.missingDirections))
        }
        switch fitProblem {
        case .singular?, .notAnEllipsoid?:
            failures.append(.notPositiveDefinite)
        case .tooFewSamples?, nil:
            // Too few readings is already said; otherwise no fit at all means a degenerate surface.
            if fit == nil && samples >= minimumSamples { failures.append(.notPositiveDefinite) }
        }
        if let fit {
            if fit.axisRatio > maximumAxisRatio || !fit.axisRatio.isFinite {
                failures.append(.axisRatioTooHigh(ratio: fit.axisRatio, limit: maximumAxisRatio))
            }
            if !fieldStrengthRange.contains(fit.fieldStrength) {
                failures.append(.fieldStrengthOutOfRange(microtesla: fit.fieldStrength, range: fieldStrengthRange))
            }
            let limit = maximumRelativeResidual * fit.fieldStrength
            if !(fit.residualRMS <= limit) {
                failures.append(.residualTooHigh(microtesla: fit.residualRMS, limit: limit))
            }
        }
        return failures
    }
}

/// A calibration attempt: the best correction found (if any) and everything wrong with it.
public struct CalibrationOutcome: Sendable, Equatable {
    /// Nil only when no fit at all was possible (too few or degenerate readings).
    public var calibration: MagnetometerCalibration?
    public var failures: [CalibrationFailure]
    public var samples: Int
    /// Smallest over largest spread of the readings (1 round, 0 flat).
    public var flatness: Double?
    /// The directions still missing, for a guided prompt.
    public var missingDirections: [CoverageDirection]

    public var isAccepted: Bool { calibration != nil && failures.isEmpty }
    /// The first failure's reason: the one to fix first. Nil when accepted.
    public var reason: String? { failures.first?.reason }
}

extension MagnetometerCalibration {
    /// Fits a calibration to recorded readings (microtesla, sensor axes) and checks it.
    ///
    /// The ellipsoid model is used when it solves; when it does not, or when the readings cover
    /// too few directions for the soft-iron matrix to mean anything, the hard-iron-only sphere
    /// fit is reported instead, since a correct offset is still most of a calibration.
    /// Coverage is measured on the calibrated field, whose directions are the true ones.
    /// `specificForces` (accelerometer readings, same order) give the real field dip for the
    /// heading-error estimate.
    ///
    /// `up` is the device's up axis in the magnetometer's axes: with it and the accelerometer
    /// readings the side of the sphere seen only face down is known and not required.
    public static func fit(readings: [Vector3], specificForces: [Vector3]? = nil, up: Vector3? = nil,
                           acceptance: CalibrationAcceptance = CalibrationAcceptance()) -> CalibrationOutcome {
        var accumulator = EllipsoidFit()
        for reading in readings { accumulator.add(reading) }
        let spread = accumulator.spread()
        let flatness = spread.flatMap { $0.z > 0 ? $0.x / $0.z : nil }

        // `checked` is the fit the acceptance checks judge: the ellipsoid whenever it solved,
        // since that is the calibration asked for (a sphere's residual would also count the
        // soft iron it leaves out). `chosen` is the correction reported.
        var checked: FieldFit?
        var problem: FitProblem?
        switch accumulator.ellipsoid() {
        case .success(let fit): checked = fit
        case .failure(let p):
            problem = p
            if case .success(let sphere) = accumulator.sphere() { checked = sphere }
        }
        var chosen = checked
        var coverage = OrientationCoverage()
        var upturned: CoverageDirection?
        if let fit = checked {
            for reading in readings { coverage.add(direction: fit.apply(reading)) }
            if let up, let specificForces, specificForces.count == readings.count,
               let dip = inclination(fields: readings.map { fit.apply($0) }, specificForces: specificForces) {
                upturned = upturnedDirection(up: up, dip: dip)
            }
            if fit.model == .ellipsoid && !acceptance.isCoverageEnough(coverage, upturned: upturned),
               case .success(let sphere) = accumulator.sphere() {
                chosen = sphere
            }
        }
        let failures = acceptance.check(samples: accumulator.count, flatness: flatness, fit: checked,
                                        fitProblem: problem, coverage: coverage, upturned: upturned)
        var calibration: MagnetometerCalibration?
        if let fit = chosen {
            var dip: Double?
            if let specificForces, specificForces.count == readings.count {
                dip = inclination(fields: readings.map { fit.apply($0) }, specificForces: specificForces)
            }
            calibration = MagnetometerCalibration(fit: fit, coverage: coverage.coverage, inclination: dip)
        }
        return CalibrationOutcome(calibration: calibration, failures: failures, samples: accumulator.count,
                                  flatness: flatness, missingDirections: coverage.missingDirections)
    }
}

/// A number with a fixed count of decimals, for reasons (no Foundation in this layer).
func text(_ value: Double, _ decimals: Int) -> String {
    guard value.isFinite else { return "?" }
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let scaled = (abs(value) * scale).rounded()
    guard scaled < 1e15 else { return String(value) }
    let whole = Int64(scaled) / Int64(scale)
    var out = (value < 0 && scaled > 0 ? "-" : "") + String(whole)
    if decimals > 0 {
        let fraction = String(Int64(scaled) % Int64(scale))
        out += "." + String(repeating: "0", count: decimals - fraction.count) + fraction
    }
    return out
}
