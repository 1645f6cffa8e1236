import LodestoneDomain
import Testing

/// Against the ICAO Standard Atmosphere table (ICAO Doc 7488/3): pressure at geopotential altitude.
@Suite struct BarometricAltitudeTests {
    @Test(arguments: [
        (0.0, 101_325.0), (500, 95_460.8), (1000, 89_874.6), (2000, 79_495.2), (3000, 70_108.5),
        (5000, 54_019.9)
    ])
    func matchesTheStandardAtmosphere(altitude: Double, pressure: Double) {
        #expect(abs(BarometricAltitude.altitude(pressure: pressure) - altitude) < 2.0)
    }

    @Test func qnhShiftsTheZero() {
        let qnh = 102_000.0
        #expect(abs(BarometricAltitude.altitude(pressure: qnh, reference: qnh)) < 1e-9)
        let station = 95_000.0
        let sealevel = BarometricAltitude.seaLevelPressure(pressure: station, altitude: 600)
        #expect(abs(BarometricAltitude.altitude(pressure: station, reference: sealevel) - 600) < 1e-6)
    }

    @Test func badInputIsNaNNotACrash() {
        #expect(BarometricAltitude.altitude(pressure: 0).isNaN)
        #expect(BarometricAltitude.altitude(pressure: -5).isNaN)
        #expect(BarometricAltitude.altitude(pressure: 100_000, reference: 0).isNaN)
    }
}
