import Glibc
import LodestoneCore
import LodestoneDomain
import Testing

/// Heading and level from accelerometer and magnetometer, checked against vectors built by
/// rotating a known field and gravity through known attitudes (an independent construction:
/// explicit rotation matrices, not the inverse formulas under test).
@Suite struct TiltCompensatedHeadingTests {
    /// Zurich's field, microtesla, north/east/down.
    let field = Vector3(21.6, 1.3, 42.9)

    /// Rotation of a navigation-frame vector into the body frame for yaw-pitch-roll (degrees),
    /// as the product Rx(roll)^T Ry(pitch)^T Rz(yaw)^T applied step by step.
    func toBody(_ v: Vector3, yaw: Double, pitch: Double, roll: Double) -> Vector3 {
        let y = yaw * .pi / 180, p = pitch * .pi / 180, r = roll * .pi / 180
        let a = Vector3(cos(y) * v.x + sin(y) * v.y, -sin(y) * v.x + cos(y) * v.y, v.z)
        let b = Vector3(cos(p) * a.x - sin(p) * a.z, a.y, sin(p) * a.x + cos(p) * a.z)
        return Vector3(b.x, cos(r) * b.y + sin(r) * b.z, -sin(r) * b.y + cos(r) * b.z)
    }

    @Test(arguments: [
        (0.0, 0.0, 0.0), (90, 0, 0), (225, 0, 0), (359.5, 0, 0), (30, 20, 0), (30, 0, -25),
        (300, -35, 40), (135, 60, 10), (10, 10, 170)
    ])
    func recoversAttitude(yaw: Double, pitch: Double, roll: Double) throws {
        let gravity = toBody(Vector3(0, 0, -9.80665), yaw: yaw, pitch: pitch, roll: roll)
        let magnetic = toBody(field, yaw: yaw, pitch: pitch, roll: roll)
        let result = try #require(TiltCompensatedHeading(specificForce: gravity, field: magnetic))
        // Heading is measured from magnetic north: the field's own east component is its declination.
        let declination = atan2(field.y, field.x) * 180 / .pi
        #expect(abs(Angle.signed(result.magneticHeading - (yaw - declination))) < 1e-9)
        #expect(abs(result.pitch - pitch) < 1e-9)
        #expect(abs(Angle.signed(result.roll - roll)) < 1e-9)
    }

    @Test func flatOnlyCompassWouldBeWrongWhenTilted() throws {
        let gravity = toBody(Vector3(0, 0, -9.80665), yaw: 0, pitch: 20, roll: 0)
        let magnetic = toBody(field, yaw: 0, pitch: 20, roll: 0)
        let flat = atan2(-magnetic.y, magnetic.x) * 180 / .pi
        let compensated = try #require(TiltCompensatedHeading(specificForce: gravity, field: magnetic))
        #expect(abs(compensated.magneticHeading - Angle.heading(-atan2(field.y, field.x) * 180 / .pi)) < 1e-9)
        // At a 20 degree tilt under a 63 degree dip, ignoring the tilt is off by almost 10 degrees.
        #expect(abs(Angle.signed(flat - compensated.magneticHeading)) > 5)
    }

    @Test func refusesMissingVectors() {
        #expect(TiltCompensatedHeading(specificForce: .zero, field: field) == nil)
        #expect(TiltCompensatedHeading(specificForce: Vector3(0, 0, -9.8), field: .zero) == nil)
        #expect(TiltCompensatedHeading(specificForce: Vector3(.nan, 0, -9.8), field: field) == nil)
    }
}
