import Glibc
import LodestoneCore

/// A magnetometer calibration: what to subtract and how to reshape raw readings so that they
/// lie on a sphere of the local field strength, in the sensor's own axes.
public struct MagnetometerCalibration: Sendable, Equatable, BitwiseCopyable {
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
    /// Degrees: the heading error to expect, one sigma: the scatter of a single reading (see
    /// `expectedHeadingError(residualRMS:fieldStrength:inclination:)`) and the calibration's
    /// own uncertainty (`headingUncertainty`) together.
    public var expectedHeadingError: Double
    /// Degrees: what the calibration's own uncertainty leaves in the heading, one sigma, at the
    /// worst 5% of the attitudes the compass is used in (`HeadingUncertainty`); nil when not
    /// known (a calibration saved before this was measured). Never NaN: calibrations are
    /// compared for equality to notice a new one.
    public var headingUncertainty: Double?

    public init(
        model: FieldFit.Model = .ellipsoid, hardIronOffset: Vector3, softIron: Matrix3, fieldStrength: Double,
        residualRMS: Double, coverage: Double, expectedHeadingError: Double, headingUncertainty: Double? = nil
    ) {
        self.model = model
        self.hardIronOffset = hardIronOffset
        self.softIron = softIron
        self.fieldStrength = fieldStrength
        self.residualRMS = residualRMS
        self.coverage = coverage
        self.expectedHeadingError = expectedHeadingError
        self.headingUncertainty = headingUncertainty.flatMap { $0.isFinite ? $0 : nil }
    }

    public init(fit: FieldFit, coverage: Double, inclination: Double?, headingUncertainty: Double? = nil) {
        let scatter = MagnetometerCalibration.expectedHeadingError(
            residualRMS: fit.residualRMS, fieldStrength: fit.fieldStrength,
            inclination: inclination)
        let uncertainty = headingUncertainty.flatMap { $0.isFinite ? $0 : nil } ?? 0
        self.init(
            model: fit.model, hardIronOffset: fit.hardIronOffset, softIron: fit.softIron,
            fieldStrength: fit.fieldStrength, residualRMS: fit.residualRMS, coverage: coverage,
            expectedHeadingError: (scatter * scatter + uncertainty * uncertainty).squareRoot(),
            headingUncertainty: headingUncertainty)
    }

    /// No correction at all.
    public static let identity = MagnetometerCalibration(
        hardIronOffset: .zero, softIron: .identity, fieldStrength: 0,
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
}

/// Why a calibration is not good enough, each with a reason a person can act on.
public enum CalibrationFailure: Sendable, Equatable {
    case tooFewSamples(count: Int, needed: Int)
    /// Smallest over largest spread of the readings: they lie nearly in one plane, and the
    /// heading is not pinned down out of it.
    case readingsInAPlane(flatness: Double, needed: Double)
    /// The readings leave the heading uncertain by more than `limit` degrees (one sigma, the
    /// worst 5% of the attitudes of use); `missing` names the field directions never seen,
    /// `turned` the degrees of a boat's swing done so far.
    case tooLittleTurning(headingError: Double, limit: Double, missing: [CoverageDirection], turned: Double?)
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
        case .tooLittleTurning: return "tooLittleTurning"
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
            return
                "the readings lie nearly in one plane (flatness \(DecimalText.format(flatness, 2, unknown: "?")), at least \(DecimalText.format(needed, 2, unknown: "?")) needed): "
                + "the device was turned about one axis only; tilt it and turn it over as well, tracing figure 8s in every direction "
                + "(a compass fixed to a boat calibrates from a slow full circle instead: --swing)"
        case let .tooLittleTurning(error, limit, missing, turned):
            let head =
                error.isFinite
                ? "the readings leave the heading uncertain by \(DecimalText.format(error, 1, unknown: "?"))° at some of the attitudes it is read in "
                    + "(at most \(DecimalText.format(limit, 1, unknown: "?"))° wanted)"
                : "the readings do not pin the heading down at the attitudes it is read in"
            if let turned {
                return head + ": keep turning, slowly and steadily, through a full circle (\(DecimalText.format(turned, 0, unknown: "?")) degrees done)"
            }
            guard !missing.isEmpty else {
                return head + ": keep turning the device, tilting it further nose and sides down while tracing figure 8s"
            }
            let axes = missing.map(\.rawValue).joined(separator: ", ")
            return head + ": " + missing.map(\.advice).joined(separator: "; ") + " too (the \(axes) direction"
                + (missing.count == 1 ? " is" : "s are") + " not yet seen)"
        case .notPositiveDefinite:
            return "the readings do not form an ellipsoid (the correction matrix is not positive definite): "
                + "repeat away from steel, magnets and electronics, turning the device slowly through all orientations"
        case let .axisRatioTooHigh(ratio, limit):
            return
                "implausible soft-iron distortion: the axes differ by a factor \(DecimalText.format(ratio, 2, unknown: "?")) (condition number), at most \(DecimalText.format(limit, 2, unknown: "?")) expected; "
                + "move the sensor away from steel, motors and speakers, or check that all columns come from the same magnetometer"
        case let .fieldStrengthOutOfRange(microtesla, range):
            let hint =
                microtesla < range.lowerBound
                ? "check the magnetometer's unit (the file must be in microtesla; 1 gauss = 100 uT) and range, and that the device is not inside a steel enclosure"
                : "check the magnetometer's unit (microtesla; 1 gauss = 100 uT) and move away from magnets and large steel"
            return
                "fitted field strength \(DecimalText.format(microtesla, 1, unknown: "?")) uT is outside the Earth's \(DecimalText.format(range.lowerBound, 0, unknown: "?"))..\(DecimalText.format(range.upperBound, 0, unknown: "?")) uT: "
                + hint
        case let .residualTooHigh(microtesla, limit):
            return
                "the readings scatter \(DecimalText.format(microtesla, 2, unknown: "?")) uT about the fitted ellipsoid (at most \(DecimalText.format(limit, 2, unknown: "?")) uT): "
                + "turn the device slowly, keep it away from moving metal, cables carrying current and your own watch or phone, and repeat"
        }
    }
}

/// What makes a calibration acceptable. Judged by what the calibration is for: the heading it
/// gives over the attitudes the compass is read in, not by how much of the sphere was covered.
public struct CalibrationAcceptance: Sendable, Equatable {
    public var minimumSamples = 100
    /// The guided session's progress bar fills with the directions covered, up to this share
    /// of the sphere (a good figure-8 with rolls fills most of it); acceptance does not use it.
    public var progressCoverage = 0.7
    /// Smallest over largest spread of the readings below which a refusal is put as "one plane"
    /// (a full sweep gives 1, one circle 0, a hemisphere 0.5).
    public var minimumFlatness = 0.25
    /// One sigma of heading error the calibration itself may leave, at the worst 5% of the
    /// attitudes of use, degrees.
    public var maximumHeadingUncertainty = 1.0
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

    /// Every check that fails, most fundamental first (the first is the one to tell a person).
    /// `headingUncertainty` is nil when there was no fit to judge; `turned` is given for a swing.
    public func check(
        samples: Int, flatness: Double?, fit: FieldFit?, fitProblem: FitProblem?, headingUncertainty: Double?,
        missing: [CoverageDirection], turned: Double? = nil
    ) -> [CalibrationFailure] {
        var failures: [CalibrationFailure] = []
        if samples < minimumSamples { failures.append(.tooFewSamples(count: samples, needed: minimumSamples)) }
        let uncertain = headingUncertainty.map { !($0 <= maximumHeadingUncertainty) } ?? (samples >= minimumSamples)
        if uncertain && samples >= minimumSamples {
            if turned == nil, let flatness, flatness < minimumFlatness {
                failures.append(.readingsInAPlane(flatness: flatness, needed: minimumFlatness))
            }
            failures.append(
                .tooLittleTurning(
                    headingError: headingUncertainty ?? .infinity, limit: maximumHeadingUncertainty,
                    missing: missing, turned: turned))
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
    /// Degrees of a swing done so far (swing mode only).
    public var turned: Double?

    public init(
        calibration: MagnetometerCalibration?, failures: [CalibrationFailure], samples: Int, flatness: Double?,
        missingDirections: [CoverageDirection], turned: Double? = nil
    ) {
        self.calibration = calibration
        self.failures = failures
        self.samples = samples
        self.flatness = flatness
        self.missingDirections = missingDirections
        self.turned = turned
    }

    public var isAccepted: Bool { calibration != nil && failures.isEmpty }
    /// The first failure's reason: the one to fix first. Nil when accepted.
    public var reason: String? { failures.first?.reason }
}

/// How a calibration is made: a figure-8 in the hand (any turning, judged within 30 degrees of
/// level) or a boat's swing (turning about the vertical only, judged within 15 degrees of heel,
/// the soft iron's vertical terms held round and the vertical offset placed by the model's dip).
public enum CalibrationMode: String, Sendable, CaseIterable {
    case figure8, swing

    public var use: CompassUse { self == .swing ? .boat : .handheld }
}

extension MagnetometerCalibration {
    /// Fits a calibration to recorded readings (microtesla, sensor axes) and checks it.
    ///
    /// The ellipsoid (or, when it does not solve, the sphere) fit of the readings is the start
    /// of a fit with priors (`FieldSolver`): where the readings leave a term open, the prior
    /// holds it, and the covariance says what that leaves in the heading at every attitude of
    /// the use (`HeadingUncertainty`). That, not the share of the sphere covered, decides.
    ///
    /// - Parameters:
    ///   - specificForces: accelerometer readings, same order (any unit): the field's dip
    ///     against gravity places what the field's strength alone cannot.
    ///   - up: the device's up axis in the magnetometer's axes (default -z: a sensor lying flat).
    ///   - field: Earth's field at the position (strength in microtesla, dip in degrees), from
    ///     the model; a swing needs it to place the vertical offset.
    public static func fit(
        readings: [Vector3], specificForces: [Vector3]? = nil, up: Vector3? = nil,
        field: (strength: Double, dip: Double)? = nil, mode: CalibrationMode = .figure8,
        acceptance: CalibrationAcceptance = CalibrationAcceptance()
    ) -> CalibrationOutcome {
        var accumulator = EllipsoidFit()
        for reading in readings { accumulator.add(reading) }
        let spread = accumulator.spread()
        let flatness = spread.flatMap { $0.z > 0 ? $0.x / $0.z : nil }
        var start: FieldFit?
        var problem: FitProblem?
        switch accumulator.ellipsoid() {
        case .success(let fit) where mode == .figure8 && fit.axisRatio < 3: start = fit
        case .failure(let p) where mode == .figure8: problem = p
        default: break
        }
        if start == nil, case .success(let sphere) = accumulator.sphere() { start = sphere }
        let forces = specificForces.flatMap { $0.count == readings.count ? $0 : nil }
        let downs = forces.map { FieldSolver.downs(specificForces: $0) } ?? readings.map { _ in nil }
        let priors = FieldPriors(
            up: up ?? Vector3(0, 0, -1), fieldStrength: field?.strength, dip: field?.dip,
            horizontalShape: 0.25, verticalShape: mode == .swing ? 0.002 : 0.25)
        var chosen = start
        var uncertainty: Double?
        var dip: Double?
        if let start, accumulator.count >= acceptance.minimumSamples,
            let solution = FieldSolver.solve(readings: readings, downs: downs, start: start, priors: priors),
            let fit = FieldFit(solution, model: mode == .swing ? .swing : .ellipsoid)
        {
            chosen = fit
            problem = nil
            uncertainty = HeadingUncertainty.p95(solution, up: priors.up, use: mode.use)
            dip = solution.dip.isFinite ? Angle.degrees(solution.dip) : field?.dip
        } else if mode == .figure8, problem == nil, start?.model == .sphere {
            problem = .notAnEllipsoid
        }
        var coverage = OrientationCoverage()
        if let chosen { for reading in readings { coverage.add(direction: chosen.apply(reading)) } }
        let turned = mode == .swing ? chosen.map { swingTurned(readings: readings, downs: downs, fit: $0, up: priors.up) } : nil
        let failures = acceptance.check(
            samples: accumulator.count, flatness: flatness, fit: chosen, fitProblem: problem,
            headingUncertainty: uncertainty, missing: coverage.missingDirections, turned: turned ?? nil)
        let calibration = chosen.map {
            MagnetometerCalibration(fit: $0, coverage: coverage.coverage, inclination: dip, headingUncertainty: uncertainty)
        }
        // How far a swing has come is read through the fit: only once the fit with priors has
        // solved (enough readings) is it worth telling the helmsman; before, a circle fitted to
        // a short arc can make 20 degrees look like 200.
        return CalibrationOutcome(
            calibration: calibration, failures: failures, samples: accumulator.count,
            flatness: flatness, missingDirections: coverage.missingDirections,
            turned: uncertainty == nil ? nil : turned ?? nil)
    }

    /// Degrees of a full circle the calibrated field's horizontal direction has passed through,
    /// in 10-degree steps: how much of a boat's swing is done.
    static func swingTurned(readings: [Vector3], downs: [Vector3?], fit: FieldFit, up: Vector3) -> Double {
        let frame = VerticalFrame(up: up)
        var seen = [Bool](repeating: false, count: 36)
        for (reading, down) in zip(readings, downs) {
            let field = fit.apply(reading)
            let vertical = (down.map { $0 * -1 }) ?? frame.z
            let horizontal = field - vertical * field.dot(vertical)
            guard horizontal.length > 0 else { continue }
            let angle = atan2(horizontal.dot(frame.y), horizontal.dot(frame.x))
            let bin = Int((Angle.degrees(angle) + 360).truncatingRemainder(dividingBy: 360) / 10)
            if seen.indices.contains(bin) { seen[bin] = true }
        }
        return Double(seen.filter { $0 }.count * 10)
    }
}

extension FieldFit {
    /// The correction a prior-held fit found, in the form the device applies: the soft iron
    /// scaled to determinant 1 and the raw field strength (geometric mean of the semi-axes).
    /// Nil when the matrix is not positive definite.
    init?(_ solution: FieldSolution, model: Model) {
        guard let eigen = SymmetricEigen3(solution.softIron), eigen.values.x > 0, eigen.values.z.isFinite else { return nil }
        let determinant = eigen.values.x * eigen.values.y * eigen.values.z
        let normaliser = cbrt(determinant)
        guard normaliser > 0, normaliser.isFinite else { return nil }
        self.init(
            model: model, hardIronOffset: solution.hardIron, softIron: solution.softIron * (1 / normaliser),
            fieldStrength: solution.fieldStrength / normaliser, residualRMS: solution.strengthRMS / normaliser,
            axisRatio: eigen.values.z / eigen.values.x, samples: solution.samples)
    }
}
