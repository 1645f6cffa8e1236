import Glibc
import LodestoneCore
import LodestoneDomain
import Testing
@testable import LodestoneSim

/// Apparent and true wind: the vector triangle with the boat's motion over the ground.
@Suite struct WindTriangleTests {
    typealias Motion = WindTriangle.Motion

    /// Motoring north at 5 m/s through still air: 5 m/s from dead ahead, and no true wind.
    /// With a 5 m/s true wind from the east, the apparent wind comes from 45° to starboard at
    /// 7.07 m/s; the triangle gives back the east wind.
    @Test func theTriangleUnderWay() throws {
        let calm = WindTriangle.resolve(speed: 5, vane: 0, aboard: true, heading: 0, motion: Motion(speed: 5, course: 0))
        #expect(abs(try #require(calm.true).speed) < 1e-9)
        let beam = WindTriangle.resolve(speed: 50.0.squareRoot(), vane: 45, aboard: true, heading: 0, motion: Motion(speed: 5, course: 0))
        let trueWind = try #require(beam.true)
        #expect(abs(trueWind.speed - 5) < 1e-9 && abs(trueWind.angle - 90) < 1e-9, "\(trueWind)")
        #expect(beam.apparent == WindTriangle.Wind(speed: 50.0.squareRoot(), angle: 45))
        // Heading 200, the vane 30 to port, going 3 m/s on course 210 (a current sets her off).
        let any = try #require(WindTriangle.resolve(speed: 8, vane: 330, aboard: true, heading: 200, motion: Motion(speed: 3, course: 210)).true)
        // Independently: the true wind vector plus the boat's velocity is the apparent wind vector.
        let apparentFrom = Angle.radians(200 - 30), boat = Angle.radians(210), trueFrom = Angle.radians(any.angle)
        let north = -any.speed * cos(trueFrom) - 3 * cos(boat), east = -any.speed * sin(trueFrom) - 3 * sin(boat)
        #expect(abs(north + 8 * cos(apparentFrom)) < 1e-9 && abs(east + 8 * sin(apparentFrom)) < 1e-9)
    }

    /// At rest the two are one: true speed is the apparent speed, from the heading plus the
    /// vane's angle; a fixed mast's vane gives the true direction itself.
    @Test func atRestTheyAreOne() throws {
        let rest = WindTriangle.resolve(speed: 6, vane: 90, aboard: true, heading: 300, motion: Motion(speed: 0.1, course: 12))
        let still = try #require(rest.true)
        #expect(abs(still.speed - 6) < 1e-9 && abs(still.angle - 30) < 1e-9, "\(still)")
        #expect(rest.apparent == WindTriangle.Wind(speed: 6, angle: 90))
        let mast = WindTriangle.resolve(speed: 4, vane: 250, aboard: false, heading: nil, motion: nil)
        #expect(mast.true == WindTriangle.Wind(speed: 4, angle: 250) && mast.apparent == nil)
        // Aboard without a heading there is no true direction.
        #expect(WindTriangle.resolve(speed: 4, vane: 10, aboard: true, heading: nil, motion: nil).true == nil)
    }

    /// A shore station (the vane on a fixed mast) gives the true wind only: with a heading, a
    /// moving hand or a fix, still no apparent wind, since there is no bow to measure from.
    @Test func aShoreStationGivesTheTrueWindOnly() throws {
        let held = WindTriangle.resolve(speed: 5, vane: 240, aboard: false, heading: 90, motion: Motion(speed: 1.4, course: 90))
        #expect(held.apparent == nil)
        #expect(held.true == WindTriangle.Wind(speed: 5, angle: 240))
    }
}
