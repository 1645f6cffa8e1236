import Glibc
import LodestoneCore
import LodestoneDomain
import Testing

/// End to end on synthetic figure-8 data: the heading a calibrated compass gives, what was
/// recovered, and every reason a calibration is refused.
@Suite struct MagnetometerCalibrationTests {
    let truth = SyntheticMagnetometer()

    struct HeadingErrors { var max: Double; var rms: Double }

    /// Tilt-compensated heading from calibrated readings over a grid of attitudes with up to
    /// 30 degrees of tilt, against the true heading (the yaw: the synthetic field has no
    /// declination). `noisy` uses noisy readings; otherwise the exact distorted reading, which
    /// measures the calibration itself rather than the sensor noise.
    func headingErrors(_ calibration: MagnetometerCalibration, model: SyntheticMagnetometer, noisy: Bool) throws -> HeadingErrors {
        var rng = SeededGenerator(seed: 99)
        var worst = 0.0, sumSquares = 0.0, count = 0
        for yaw in stride(from: 0.0, to: 360, by: 7.5) {
            for pitch in stride(from: -30.0, through: 30, by: 10) {
                for roll in stride(from: -30.0, through: 30, by: 10) {
                    let raw =
                        noisy
                        ? model.reading(yaw: yaw, pitch: pitch, roll: roll, &rng)
                        : model.noiseless(yaw: yaw, pitch: pitch, roll: roll)
                    let heading = try #require(
                        TiltCompensatedHeading(
                            specificForce: SyntheticMagnetometer.specificForce(yaw: yaw, pitch: pitch, roll: roll),
                            field: calibration.apply(raw)))
                    let error = abs(Angle.signed(heading.magneticHeading - yaw))
                    worst = max(worst, error)
                    sumSquares += error * error
                    count += 1
                }
            }
        }
        return HeadingErrors(max: worst, rms: (sumSquares / Double(count)).squareRoot())
    }

    /// A figure-8 that never turns the device face down leaves the side of the sphere the field
    /// reaches only then unseen; the heading near level, where it is read, is still as good
    /// as from the whole sphere, and the fit is accepted for it.
    @Test func theFaceDownSideIsNotRequired() throws {
        let attitudes = SyntheticMagnetometer.randomAttitudes(3000, seed: 81) { a in
            cos(a.roll * .pi / 180) * cos(a.pitch * .pi / 180) >= cos(75 * Double.pi / 180)
        }
        let readings = truth.readings(attitudes, seed: 82)
        let forces = attitudes.map { SyntheticMagnetometer.specificForce(yaw: $0.yaw, pitch: $0.pitch, roll: $0.roll) }
        // The synthetic sensor's axes are the body's (z down): up is -z.
        let outcome = MagnetometerCalibration.fit(readings: readings, specificForces: forces, up: Vector3(0, 0, -1))
        #expect(outcome.isAccepted, "\(outcome.failures.map(\.reason))")
        #expect(outcome.missingDirections == [.minusZ], "the face-down side is named as not seen, not required")
        let calibration = try #require(outcome.calibration)
        #expect(calibration.model == .ellipsoid)
        let errors = try headingErrors(calibration, model: truth, noisy: false)
        #expect(errors.max < 1, "heading within 30 deg of level: worst \(errors.max) deg")
    }

    @Test func figureEightCalibrationGivesHeadingWithinOneDegree() throws {
        let attitudes = SyntheticMagnetometer.randomAttitudes(3000, seed: 21)
        let readings = truth.readings(attitudes, seed: 22)
        let forces = attitudes.map { SyntheticMagnetometer.specificForce(yaw: $0.yaw, pitch: $0.pitch, roll: $0.roll) }
        let outcome = MagnetometerCalibration.fit(readings: readings, specificForces: forces)
        #expect(outcome.isAccepted, "\(outcome.failures.map(\.reason))")
        #expect(outcome.reason == nil)
        let calibration = try #require(outcome.calibration)
        #expect(calibration.model == .ellipsoid)

        // Recovered against truth.
        let expectedSoftIron = try #require(truth.distortion.inverse) * cbrt(truth.distortion.determinant)
        let offsetError = (calibration.hardIronOffset - truth.hardIron).length
        let matrixError = (calibration.softIron - expectedSoftIron).maximumAbsoluteElement
        #expect(offsetError < 0.1, "offset error \(offsetError) uT")
        #expect(matrixError < 0.003, "soft-iron error \(matrixError)")
        #expect(abs(calibration.fieldStrength - 50 * cbrt(truth.distortion.determinant)) < 0.1)
        #expect(abs(calibration.residualRMS - 0.3) < 0.05)
        #expect(calibration.coverage > 0.95)

        // Without the calibration the compass is useless: the offset alone is twice the field.
        let raw = try headingErrors(.identity, model: truth, noisy: false)
        #expect(raw.max > 45)

        let calibrated = try headingErrors(calibration, model: truth, noisy: false)
        #expect(calibrated.max < 1 && calibrated.rms < 1)
        let noisy = try headingErrors(calibration, model: truth, noisy: true)
        // The estimate is per noisy reading: 0.3 uT against a 21 uT horizontal field, ~0.8 degrees.
        #expect(
            abs(calibration.expectedHeadingError - noisy.rms) < 0.25,
            "estimate \(calibration.expectedHeadingError), measured \(noisy.rms)")
        print(
            "calibration: offset error \(offsetError) uT, soft-iron max element error \(matrixError), "
                + "heading error (calibration only) max \(calibrated.max) rms \(calibrated.rms) deg, "
                + "with 0.3 uT noise max \(noisy.max) rms \(noisy.rms) deg, expected \(calibration.expectedHeadingError) deg, "
                + "inclination-based estimate; uncalibrated max \(raw.max) deg")
    }

    @Test func continuousFigureEightSessionIsAccepted() throws {
        let readings = truth.readings(SyntheticMagnetometer.figureEight(2400), seed: 23)
        let outcome = MagnetometerCalibration.fit(readings: readings)
        #expect(outcome.isAccepted, "\(outcome.failures.map(\.reason))")
        let calibration = try #require(outcome.calibration)
        let errors = try headingErrors(calibration, model: truth, noisy: false)
        #expect(errors.max < 1 && errors.rms < 1, "max \(errors.max) rms \(errors.rms)")
        // Without accelerometer data the reading's scatter assumes a 60 degree dip; the
        // calibration's own uncertainty adds to it.
        let scatter = atan2(calibration.residualRMS, calibration.fieldStrength / 2) * 180 / .pi
        let uncertainty = try #require(calibration.headingUncertainty)
        #expect(abs(calibration.expectedHeadingError - (scatter * scatter + uncertainty * uncertainty).squareRoot()) < 1e-9)
    }

    /// Only ever face up (the field always in the +z half): what was never seen is named, and
    /// the fit is judged by the heading it gives within 30 degrees of level, where it is fine.
    @Test func halfTheSphereIsJudgedByTheHeadingItGives() throws {
        let attitudes = SyntheticMagnetometer.randomAttitudes(2000, seed: 31) {
            truth.trueField(yaw: $0.yaw, pitch: $0.pitch, roll: $0.roll).z > 0
        }
        let outcome = MagnetometerCalibration.fit(readings: truth.readings(attitudes, seed: 32))
        #expect(outcome.missingDirections == [.minusZ])
        let calibration = try #require(outcome.calibration)
        #expect(calibration.coverage < 0.7)
        let errors = try headingErrors(calibration, model: truth, noisy: false)
        #expect(!outcome.isAccepted || errors.max < 1.5, "accepted with a worst heading error of \(errors.max) deg")
        #expect((calibration.hardIronOffset - truth.hardIron).length < 3, "\(calibration.hardIronOffset)")
    }

    /// A few turns of the wrist: the heading is not pinned down, and the reason says what to do.
    @Test func tooLittleTurningIsRefusedWithWhatToDo() throws {
        let attitudes = SyntheticMagnetometer.randomAttitudes(600, seed: 33) { a in
            abs(Angle.signed(a.yaw - 40)) < 25 && abs(a.pitch) < 20 && abs(a.roll) < 20
        }
        let forces = attitudes.map { SyntheticMagnetometer.specificForce(yaw: $0.yaw, pitch: $0.pitch, roll: $0.roll) }
        let outcome = MagnetometerCalibration.fit(readings: truth.readings(attitudes, seed: 34), specificForces: forces)
        #expect(!outcome.isAccepted)
        let failure = try #require(outcome.failures.first { $0.code == "tooLittleTurning" })
        #expect(failure.reason.contains("uncertain by") && failure.reason.contains("not yet seen"), "\(failure.reason)")
    }

    @Test func weakFieldIsRefused() throws {
        var model = truth
        model.fieldStrength = 5
        model.hardIron = Vector3(7, -6, 4.5)
        model.noise = 0.05
        let outcome = MagnetometerCalibration.fit(readings: model.readings(SyntheticMagnetometer.randomAttitudes(2000, seed: 41), seed: 42))
        let failure = try #require(outcome.failures.first { $0.code == "fieldStrengthOutOfRange" })
        #expect(outcome.failures.count == 1, "\(outcome.failures)")
        #expect(failure.reason.contains("outside the Earth's 20..70 uT"))
        #expect(failure.reason.contains("microtesla"))
        #expect(abs((outcome.calibration?.fieldStrength ?? 0) - 5 * cbrt(model.distortion.determinant)) < 0.05)
    }

    @Test func noisyDataIsRefused() throws {
        var model = truth
        model.noise = 4
        let outcome = MagnetometerCalibration.fit(readings: model.readings(SyntheticMagnetometer.randomAttitudes(2000, seed: 51), seed: 52))
        let failure = try #require(outcome.failures.first { $0.code == "residualTooHigh" })
        if case let .residualTooHigh(residual, limit) = failure {
            #expect(abs(residual - 4) < 0.6 && abs(limit - 1.5) < 0.1, "residual \(residual) limit \(limit)")
        }
        #expect(failure.reason.contains("scatter"))
        #expect(!outcome.isAccepted)
    }

    @Test func flatDataIsRefused() throws {
        // Turned about the vertical only, at most a few degrees of wobble: one circle of readings.
        var rng = SeededGenerator(seed: 61)
        let attitudes = (0..<1500).map { _ in
            SyntheticMagnetometer.Attitude(yaw: rng.uniform(0...360), pitch: rng.uniform(-2...2), roll: rng.uniform(-2...2))
        }
        let outcome = MagnetometerCalibration.fit(readings: truth.readings(attitudes, seed: 62))
        #expect(!outcome.isAccepted)
        let first = try #require(outcome.failures.first)
        #expect(first.code == "readingsInAPlane", "\(outcome.failures)")
        #expect(first.reason.contains("turned about one axis only"))
        #expect(outcome.failures.contains { $0.code == "tooLittleTurning" })
        #expect((outcome.flatness ?? 1) < 0.1)
    }

    @Test func notAnEllipsoidIsRefused() throws {
        // Exactly planar readings: no quadric is pinned down, so no positive definite matrix.
        var model = truth
        model.noise = 0
        let readings = (0..<400).map { model.noiseless(yaw: Double($0) * 0.9, pitch: 0, roll: 0) }
        let outcome = MagnetometerCalibration.fit(readings: readings)
        let failure = try #require(outcome.failures.first { $0.code == "notPositiveDefinite" })
        #expect(failure.reason.contains("not positive definite"))
    }

    @Test func implausibleSoftIronIsRefused() throws {
        var model = truth
        model.distortion = SyntheticMagnetometer.softIron(scales: Vector3(0.6, 1.0, 1.5))
        let outcome = MagnetometerCalibration.fit(readings: model.readings(SyntheticMagnetometer.randomAttitudes(2000, seed: 71), seed: 72))
        let failure = try #require(outcome.failures.first { $0.code == "axisRatioTooHigh" })
        if case let .axisRatioTooHigh(ratio, _) = failure { #expect(abs(ratio - 2.5) < 0.02) }
        #expect(failure.reason.contains("factor 2.50"))
    }

    @Test func tooFewReadingsAreRefused() throws {
        let outcome = MagnetometerCalibration.fit(readings: truth.readings(SyntheticMagnetometer.randomAttitudes(40, seed: 81), seed: 82))
        #expect(outcome.failures.first?.code == "tooFewSamples")
        #expect(outcome.reason?.contains("only 40 usable readings") == true)
        let empty = MagnetometerCalibration.fit(readings: [])
        #expect(empty.calibration == nil)
        #expect(empty.failures.first == .tooFewSamples(count: 0, needed: 100))
    }

    @Test func applySubtractsThenReshapes() {
        let calibration = MagnetometerCalibration(
            hardIronOffset: Vector3(10, 20, 30), softIron: .diagonal(Vector3(2, 1, 0.5)),
            fieldStrength: 50, residualRMS: 0.3, coverage: 1, expectedHeadingError: 1)
        #expect(calibration.apply(Vector3(11, 22, 34)) == Vector3(2, 2, 2))
        #expect(MagnetometerCalibration.identity.apply(Vector3(1, 2, 3)) == Vector3(1, 2, 3))
    }

    @Test func headingErrorEstimateFollowsTheHorizontalField() {
        // 1 uT against a 50 uT field at a 60 degree dip: 25 uT horizontal, atan(1/25) = 2.29 degrees.
        let e = MagnetometerCalibration.expectedHeadingError(residualRMS: 1, fieldStrength: 50, inclination: 60)
        #expect(abs(e - 2.2906) < 1e-3)
        // The same residual near the magnetic pole is far worse.
        #expect(MagnetometerCalibration.expectedHeadingError(residualRMS: 1, fieldStrength: 50, inclination: 85) > 10)
        #expect(MagnetometerCalibration.expectedHeadingError(residualRMS: 1, fieldStrength: 50, inclination: 90) > 80)
    }
}

/// Whatever a file holds, the fit answers with reasons rather than trapping.
@Suite struct CalibrationDegenerateInputTests {
    static let cases: [[Vector3]] = {
        var all: [[Vector3]] = []
        all.append([Vector3](repeating: Vector3(10, 20, 30), count: 300))
        all.append((0..<300).map { (i: Int) -> Vector3 in Vector3(Double(i), 2 * Double(i), -Double(i)) })
        all.append((0..<300).map { (i: Int) -> Vector3 in Vector3(Double(i % 7) * 1e200, 1, 2) })
        all.append([Vector3](repeating: .zero, count: 300))
        all.append((0..<300).map { (i: Int) -> Vector3 in Vector3(cos(Double(i)) * 1e-9, sin(Double(i)) * 1e-9, 0) })
        return all
    }()

    @Test(arguments: 0..<5)
    func degenerateReadingsAreRefused(index: Int) {
        let outcome = MagnetometerCalibration.fit(readings: CalibrationDegenerateInputTests.cases[index])
        #expect(!outcome.isAccepted)
        #expect(!outcome.failures.isEmpty)
        for failure in outcome.failures { #expect(!failure.reason.isEmpty) }
        if let c = outcome.calibration {
            #expect(c.softIron.isFinite && c.hardIronOffset.length.isFinite)
        }
    }
}
