import Glibc
import LodestoneCore
import LodestoneDomain
import Testing

/// Passes: the look angles' geometry and what a pass must be.
@Suite struct SatellitePassesTests {
    static let debris = try! TwoLineElements(
        name: "DELTA 1 DEB",
        line1: "1 06251U 62025E   06176.82412014  .00008885  00000-0  12808-3 0  3985",
        line2: "2 06251  58.0579  54.0425 0030035 139.1568 221.1854 15.56387291  6774")

    /// Standing under the satellite, it is at the zenith; on the other side of the Earth it is
    /// far below the horizon.
    @Test func theSubSatellitePointSeesItOverhead() throws {
        let satellite = try SGP4(Self.debris)
        let time = (Self.debris.epochJulianDay - 2_440_587.5) * 86_400 + 3600
        let state = try satellite.propagate(minutes: 60)
        // The sub-satellite point from the Earth-fixed position (geodetic latitude by iteration).
        let g = SatellitePasses.greenwichMeanSiderealTime(julianDay: time / 86_400 + 2_440_587.5)
        let x = cos(g) * state.position.0 + sin(g) * state.position.1, y = -sin(g) * state.position.0 + cos(g) * state.position.1
        let z = state.position.2
        let longitude = Angle.degrees(atan2(y, x))
        var latitude = Angle.degrees(atan2(z, (x * x + y * y).squareRoot()))
        let e2 = (1 / 298.257_223_563) * (2 - 1 / 298.257_223_563)
        for _ in 0..<10 {
            let phi = Angle.radians(latitude)
            let n = 6378.137 / (1 - e2 * sin(phi) * sin(phi)).squareRoot()
            latitude = Angle.degrees(atan2(z + e2 * n * sin(phi), (x * x + y * y).squareRoot()))
        }
        let overhead = try #require(SatellitePasses.look(satellite, at: time, latitude: latitude, longitude: longitude))
        #expect(overhead.altitude > 89.9, "\(overhead.altitude)")
        #expect(overhead.range > 300 && overhead.range < 450, "the debris is a low orbiter: \(overhead.range) km")
        let antipode = try #require(SatellitePasses.look(satellite, at: time, latitude: -latitude, longitude: longitude + 180))
        #expect(antipode.altitude < -60)
    }

    @Test func passesRiseCulminateAndSet() throws {
        let satellite = try SGP4(Self.debris)
        let start = (Self.debris.epochJulianDay - 2_440_587.5) * 86_400
        let passes = SatellitePasses.passes(satellite, from: start, to: start + 86_400, latitude: 46.95, longitude: 7.45)
        // A 58° orbit at 15.6 revolutions a day crosses 47° N several times a day.
        #expect(passes.count >= 4 && passes.count <= 12, "\(passes.count) passes")
        for pass in passes {
            #expect(pass.rise < pass.culmination && pass.culmination < pass.set)
            #expect(pass.set - pass.rise < 15 * 60, "a low orbiter crosses the sky in minutes")
            for t in [pass.rise, pass.set] {
                let look = try #require(SatellitePasses.look(satellite, at: t, latitude: 46.95, longitude: 7.45))
                #expect(abs(look.altitude) < 0.05)
            }
            for t in stride(from: pass.rise + 10, to: pass.set, by: 10) {
                let look = try #require(SatellitePasses.look(satellite, at: t, latitude: 46.95, longitude: 7.45))
                #expect(look.altitude <= pass.maximumAltitude + 0.01)
            }
        }
        let low = SatellitePasses.passes(satellite, from: start, to: start + 86_400, latitude: 46.95, longitude: 7.45, minimumAltitude: 30)
        #expect(low.count < passes.count && low.allSatisfy { $0.maximumAltitude >= 30 })
    }

    @Test func elementSetsAreReadFromAFileWithNames() {
        let text =
            "# stations\nISS (ZARYA)\n1 25544U 98067A   24001.50000000  .00016717  00000-0  10270-3 0  9005\n2 25544  51.6416 247.4627 0006703 130.5360 325.0288 15.72125391563537\n"
            + "garbage line\n1 bad\n2 bad\n"
        let (sets, problems) = TwoLineElements.all(in: text)
        #expect(sets.count == 1 && sets[0].name == "ISS (ZARYA)" && sets[0].catalogNumber == 25544)
        #expect(abs(sets[0].bstar - 0.10270e-3) < 1e-12 && problems.count == 1)
    }
}
