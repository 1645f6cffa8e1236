import Glibc
import LodestoneCore
import LodestoneDomain
import Testing

/// The ellipsoid and sphere fits and the small linear algebra under them.
@Suite struct EllipsoidFitTests {
    let truth = SyntheticMagnetometer()

    /// cbrt(det D) D^-1: the correction the fit should find for a symmetric distortion D, given
    /// that it reports the determinant-1 matrix (the overall gain goes into the field strength).
    func expectedSoftIron(_ d: Matrix3) throws -> Matrix3 {
        try #require(d.inverse) * cbrt(d.determinant)
    }

    @Test func noiselessEllipsoidIsRecoveredExactly() throws {
        var model = truth
        model.noise = 0
        var fit = EllipsoidFit()
        for r in model.readings(SyntheticMagnetometer.randomAttitudes(500, seed: 1), seed: 2) { fit.add(r) }
        let result = try fit.ellipsoid().get()
        #expect(result.model == .ellipsoid)
        #expect((result.hardIronOffset - model.hardIron).length < 1e-6)
        #expect((result.softIron - (try expectedSoftIron(model.distortion))).maximumAbsoluteElement < 1e-8)
        #expect(abs(result.fieldStrength - 50 * cbrt(model.distortion.determinant)) < 1e-6)
        // The residual comes from the accumulated sums (c^T S c), so rounding leaves a floor of
        // a few 1e-6 uT, far below any sensor's noise.
        #expect(result.residualRMS < 1e-4)
        #expect(abs(result.softIron.determinant - 1) < 1e-9)
        #expect(result.softIron.asymmetry < 1e-12)
        // Axis ratio of the raw ellipsoid: 1.2 / 0.8.
        #expect(abs(result.axisRatio - 1.5) < 1e-6)
    }

    @Test func residualMatchesTheNoise() throws {
        var fit = EllipsoidFit()
        for r in truth.readings(SyntheticMagnetometer.randomAttitudes(4000, seed: 3), seed: 4) { fit.add(r) }
        let result = try fit.ellipsoid().get()
        // Only the radial part of isotropic noise shows: about one sigma, 0.3 uT.
        #expect(abs(result.residualRMS - truth.noise) < 0.05, "residual \(result.residualRMS)")
        #expect((result.hardIronOffset - truth.hardIron).length < 0.1)
    }

    @Test func hugeOffsetKeepsItsPrecision() throws {
        var model = truth
        model.noise = 0
        model.hardIron = Vector3(4000, -2500, 3100)
        var fit = EllipsoidFit()
        for r in model.readings(SyntheticMagnetometer.randomAttitudes(300, seed: 5), seed: 6) { fit.add(r) }
        let result = try fit.ellipsoid().get()
        #expect((result.hardIronOffset - model.hardIron).length < 1e-5)
        #expect((result.softIron - (try expectedSoftIron(model.distortion))).maximumAbsoluteElement < 1e-7)
    }

    @Test func resetForgetsEverything() throws {
        var fit = EllipsoidFit()
        var other = truth
        other.hardIron = Vector3(-300, 200, 100)
        for r in other.readings(SyntheticMagnetometer.randomAttitudes(200, seed: 7), seed: 8) { fit.add(r) }
        fit.reset()
        #expect(fit.count == 0)
        if case .failure(let problem) = fit.ellipsoid() {
            #expect(problem == .tooFewSamples(count: 0, needed: 20))
        } else {
            Issue.record("an empty fit gave an answer")
        }
        var model = truth
        model.noise = 0
        for r in model.readings(SyntheticMagnetometer.randomAttitudes(200, seed: 9), seed: 10) { fit.add(r) }
        #expect((try fit.ellipsoid().get().hardIronOffset - model.hardIron).length < 1e-6)
    }

    @Test func nonFiniteReadingsAreIgnored() throws {
        var model = truth
        model.noise = 0
        var fit = EllipsoidFit()
        for (i, r) in model.readings(SyntheticMagnetometer.randomAttitudes(200, seed: 11), seed: 12).enumerated() {
            fit.add(r)
            if i % 10 == 0 { fit.add(Vector3(.nan, 1, 2)); fit.add(Vector3(1, .infinity, 2)) }
        }
        #expect(fit.count == 200)
        #expect((try fit.ellipsoid().get().hardIronOffset - model.hardIron).length < 1e-6)
    }

    @Test func sphereFitFindsTheOffsetFromAHemisphere() throws {
        var model = truth
        model.distortion = .identity
        // Only attitudes where the field is seen in the +z half: a half-done calibration.
        let attitudes = SyntheticMagnetometer.randomAttitudes(800, seed: 13) {
            model.trueField(yaw: $0.yaw, pitch: $0.pitch, roll: $0.roll).z > 0
        }
        var fit = EllipsoidFit()
        for r in model.readings(attitudes, seed: 14) { fit.add(r) }
        let sphere = try fit.sphere().get()
        #expect(sphere.model == .sphere)
        #expect(sphere.softIron == .identity)
        #expect((sphere.hardIronOffset - model.hardIron).length < 0.3, "offset \(sphere.hardIronOffset)")
        #expect(abs(sphere.fieldStrength - 50) < 0.3)
        #expect(abs(sphere.residualRMS - 0.3) < 0.06)
    }

    @Test func readingsOnOneCircleAreSingular() throws {
        var model = truth
        model.noise = 0
        model.distortion = .identity
        // Turning about the vertical only: the readings trace one circle.
        var fit = EllipsoidFit()
        for i in 0..<360 { fit.add(model.noiseless(yaw: Double(i), pitch: 0, roll: 0)) }
        switch fit.ellipsoid() {
        case .success(let f): Issue.record("a circle gave an ellipsoid \(f)")
        case .failure(let problem): #expect(problem == .singular || problem == .notAnEllipsoid)
        }
        let spread = try #require(fit.spread())
        #expect(spread.x < 1e-6 * spread.z)
    }

    @Test func spreadOfASphereIsRound() throws {
        var model = truth
        model.distortion = .identity
        var fit = EllipsoidFit()
        for r in model.readings(SyntheticMagnetometer.randomAttitudes(3000, seed: 15), seed: 16) { fit.add(r) }
        let spread = try #require(fit.spread())
        // Uniform on a sphere of radius 50: each axis has variance 50^2 / 3.
        for s in [spread.x, spread.y, spread.z] { #expect(abs(s - 50 / 3.0.squareRoot()) < 1.5) }
    }

    @Test func jacobiDiagonalisesASymmetricMatrix() throws {
        let m = Matrix3(Vector3(4, 1, -2), Vector3(1, 3, 0.5), Vector3(-2, 0.5, 6))
        let eigen = try #require(SymmetricEigen3(m))
        #expect(eigen.values.x <= eigen.values.y && eigen.values.y <= eigen.values.z)
        let v = eigen.vectors
        #expect((v.transposed * v - .identity).maximumAbsoluteElement < 1e-12)
        #expect((eigen.mapped { $0 } - m).maximumAbsoluteElement < 1e-12)
        // Trace and determinant are the sum and product of the eigenvalues.
        #expect(abs(eigen.values.x + eigen.values.y + eigen.values.z - 13) < 1e-12)
        #expect(abs(eigen.values.x * eigen.values.y * eigen.values.z - m.determinant) < 1e-10)
        let root = eigen.mapped { $0.squareRoot() }
        #expect((root * root - m).maximumAbsoluteElement < 1e-12)
    }

    @Test func jacobiHandlesRepeatedEigenvalues() throws {
        let eigen = try #require(SymmetricEigen3(Matrix3.diagonal(Vector3(2, 2, 2))))
        #expect(eigen.values == Vector3(2, 2, 2))
        #expect(SymmetricEigen3(Matrix3.diagonal(Vector3(.nan, 1, 1))) == nil)
    }

    @Test func choleskySolvesAndRefusesSingularSystems() throws {
        // [[4,2,0],[2,5,1],[0,1,3]] x = [2, 2, 3] has x = [0.5, 0, 1].
        let x = try #require(LinearSolve.cholesky([4, 2, 0, 2, 5, 1, 0, 1, 3], [2, 2, 3]))
        #expect(abs(x[0] - 0.5) < 1e-12 && abs(x[1]) < 1e-12 && abs(x[2] - 1) < 1e-12)
        #expect(LinearSolve.cholesky([1, 2, 2, 4], [1, 2]) == nil)  // rank 1
        #expect(LinearSolve.cholesky([1, 0, 0, -1], [1, 1]) == nil)  // indefinite
        #expect(LinearSolve.cholesky([1, 0, 0], [1, 1]) == nil)  // wrong shape
    }

    @Test func matrixInverseAndProducts() throws {
        let m = Matrix3(Vector3(2, 1, 0), Vector3(0, 3, 1), Vector3(1, 0, 4))
        let inverse = try #require(m.inverse)
        #expect((m * inverse - .identity).maximumAbsoluteElement < 1e-12)
        #expect(Matrix3(Vector3(1, 2, 3), Vector3(2, 4, 6), Vector3(0, 0, 1)).inverse == nil)
        #expect(Matrix3(rowMajor: m.rowMajor) == m)
        #expect(Matrix3(rowMajor: [1, 2]) == nil)
    }
}
