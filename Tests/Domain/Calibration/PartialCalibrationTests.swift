import Glibc
import LodestoneCore
import LodestoneDomain
import Testing

/// Calibrations people and boats can really do: a figure-8 that never turns the device face
/// down, at every dip from the southern to the northern mid-latitudes, and a boat's swing,
/// judged by the heading they give where the compass is read, against the synthetic truth.
@Suite struct PartialCalibrationTests {
    /// Heading errors (calibration only: noiseless readings) over every heading and tilts up
    /// to `tilt` degrees in every direction, p95, degrees.
    static func headingErrorP95(_ calibration: MagnetometerCalibration, model: SyntheticMagnetometer, tilt: Double) throws -> Double {
        var errors: [Double] = []
        for yaw in stride(from: 0.0, to: 360, by: 10) {
            for pitch in stride(from: -tilt, through: tilt, by: max(tilt / 3, 1)) {
                for roll in stride(from: -tilt, through: tilt, by: max(tilt / 3, 1)) {
                    let heading = try #require(
                        TiltCompensatedHeading(
                            specificForce: SyntheticMagnetometer.specificForce(yaw: yaw, pitch: pitch, roll: roll),
                            field: calibration.apply(model.noiseless(yaw: yaw, pitch: pitch, roll: roll))))
                    errors.append(abs(Angle.signed(heading.magneticHeading - yaw)))
                }
            }
        }
        let sorted = errors.sorted()
        return sorted.isEmpty ? .nan : sorted[min(sorted.count - 1, Int(0.95 * Double(sorted.count)))]
    }

    /// A person's figure-8: tilted up to 70 degrees every way while turning round, never face down.
    static func partialFigureEight(_ count: Int, seed: UInt64) -> [SyntheticMagnetometer.Attitude] {
        SyntheticMagnetometer.randomAttitudes(count, seed: seed) { a in
            cos(a.roll * .pi / 180) * cos(a.pitch * .pi / 180) >= cos(70 * Double.pi / 180)
        }
    }

    @Test(arguments: [-70.0, -30, 0, 30, 56, 70])
    func aFigureEightNeverTurnedFaceDownCalibrates(dip: Double) throws {
        var model = SyntheticMagnetometer()
        model.inclination = dip
        model.fieldStrength = 48
        model.hardIron = Vector3(60, -55, 50)  // twice the field
        let attitudes = Self.partialFigureEight(1500, seed: 7)
        let readings = model.readings(attitudes, seed: 8)
        let forces = attitudes.map { SyntheticMagnetometer.specificForce(yaw: $0.yaw, pitch: $0.pitch, roll: $0.roll) }
        let outcome = MagnetometerCalibration.fit(readings: readings, specificForces: forces, up: Vector3(0, 0, -1))
        let calibration = try #require(outcome.calibration)
        let p95 = try Self.headingErrorP95(calibration, model: model, tilt: 30)
        print(
            "dip \(dip): accepted \(outcome.isAccepted), heading p95 \(p95) deg, uncertainty \(calibration.headingUncertainty ?? .nan), "
                + "expected \(calibration.expectedHeadingError), \(outcome.failures.map(\.code))")
        #expect(outcome.isAccepted, "dip \(dip): \(outcome.failures.map(\.reason))")
        #expect(p95 <= 1, "dip \(dip): heading error p95 \(p95) deg within 30 deg of level")
    }

    /// The same figure-8 from a CSV without accelerometer columns: the fit has only the
    /// field's strength to go on, and must still say honestly what it is worth.
    @Test func withoutAnAccelerometerTheUncertaintyIsHonest() throws {
        var model = SyntheticMagnetometer()
        model.inclination = 56
        let attitudes = Self.partialFigureEight(1500, seed: 9)
        let outcome = MagnetometerCalibration.fit(readings: model.readings(attitudes, seed: 10))
        let calibration = try #require(outcome.calibration)
        let p95 = try Self.headingErrorP95(calibration, model: model, tilt: 30)
        if outcome.isAccepted { #expect(p95 <= 1, "accepted, so heading error p95 \(p95) must be within 1 deg") }
        print("no accelerometer: accepted \(outcome.isAccepted), p95 \(p95), uncertainty \(calibration.headingUncertainty ?? .nan)")
    }

    /// A boat's swing: a slow full circle, heeling in the swell by up to 10 degrees. The
    /// vertical offset comes from the model's dip and the heel.
    /// A sensor on a hull: tens of microtesla of hard iron, the horizontal stretched 10% either
    /// way by the hull's steel, a little of it into the vertical.
    static var onAHull: SyntheticMagnetometer {
        var model = SyntheticMagnetometer()
        model.inclination = 62
        model.fieldStrength = 49
        model.hardIron = Vector3(25, -18, 35)
        let r = SyntheticMagnetometer.rotation(yaw: 35, pitch: 3, roll: 2)
        model.distortion = r * Matrix3.diagonal(Vector3(0.88, 1.1, 1.0)) * r.transposed
        return model
    }

    @Test func aBoatSwingCalibratesTheHorizontal() throws {
        let model = Self.onAHull
        var rng = SeededGenerator(seed: 12)
        let attitudes = (0..<900).map { i -> SyntheticMagnetometer.Attitude in
            let t = Double(i) / 900
            return SyntheticMagnetometer.Attitude(
                yaw: 360 * t, pitch: 3 * sin(t * 40) + rng.uniform(-0.5...0.5),
                roll: 10 * sin(t * 57) + rng.uniform(-0.5...0.5))
        }
        let readings = model.readings(attitudes, seed: 13)
        let forces = attitudes.map { SyntheticMagnetometer.specificForce(yaw: $0.yaw, pitch: $0.pitch, roll: $0.roll) }
        let figure8 = MagnetometerCalibration.fit(readings: readings, specificForces: forces, up: Vector3(0, 0, -1))
        #expect(!figure8.isAccepted, "a swing is not a figure-8: judged within 30 deg of tilt it must be refused")
        let outcome = MagnetometerCalibration.fit(
            readings: readings, specificForces: forces, up: Vector3(0, 0, -1),
            field: (49, 62), mode: .swing)
        let calibration = try #require(outcome.calibration)
        let level = try Self.headingErrorP95(calibration, model: model, tilt: 0)
        let heeled = try Self.headingErrorP95(calibration, model: model, tilt: 15)
        print(
            "swing: accepted \(outcome.isAccepted), level p95 \(level), 15 deg p95 \(heeled), turned \(outcome.turned ?? .nan), "
                + "uncertainty \(calibration.headingUncertainty ?? .nan), \(outcome.failures.map(\.reason))")
        #expect(outcome.isAccepted, "\(outcome.failures.map(\.reason))")
        #expect(calibration.model == .swing)
        #expect(level <= 1, "level: heading error p95 \(level)")
        #expect(heeled <= 2, "15 deg of heel: heading error p95 \(heeled)")
        #expect(outcome.turned == 360)
    }

    /// A swing cut short: a quarter circle does not place the circle's centre, and the reason
    /// says how far the turn has got; a longer arc is accepted only when it is good.
    @Test(arguments: [90.0, 200])
    func aShortSwingSaysKeepTurning(arc: Double) throws {
        let model = Self.onAHull
        let attitudes = (0..<400).map { i in
            SyntheticMagnetometer.Attitude(yaw: arc * Double(i) / 400, pitch: 2 * sin(Double(i) / 9), roll: 6 * sin(Double(i) / 7))
        }
        let forces = attitudes.map { SyntheticMagnetometer.specificForce(yaw: $0.yaw, pitch: $0.pitch, roll: $0.roll) }
        let outcome = MagnetometerCalibration.fit(
            readings: model.readings(attitudes, seed: 14), specificForces: forces,
            up: Vector3(0, 0, -1), field: (49, 62), mode: .swing)
        let calibration = try #require(outcome.calibration)
        let level = try Self.headingErrorP95(calibration, model: model, tilt: 0)
        print(
            "swing of \(arc) deg: accepted \(outcome.isAccepted), level p95 \(level), turned \(outcome.turned ?? .nan), "
                + "uncertainty \(calibration.headingUncertainty ?? .nan), \(outcome.reason ?? "")")
        let turned = outcome.turned ?? .nan
        #expect(turned >= arc - 20 && turned <= arc + 20, "\(turned) degrees seen of a \(arc) degree turn")
        if outcome.isAccepted {
            #expect(level <= 1, "accepted after \(arc) degrees, so the level heading must be within 1 deg: p95 \(level)")
        } else {
            let reason = outcome.reason ?? ""
            #expect(reason.contains("keep turning") && reason.contains("degrees done"), "\(reason)")
        }
        if arc < 100 { #expect(!outcome.isAccepted, "a quarter circle cannot place the centre") }
    }
}
