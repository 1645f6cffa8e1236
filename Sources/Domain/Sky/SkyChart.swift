import Glibc
import LodestoneCore

/// What is in the sky over a place at a moment, for the sky chart: the Sun, the Moon with its
/// phase, the five planets seen by eye, a satellite when it is up, and the bright stars, each
/// with its altitude and azimuth (degrees; those below the horizon are left out).
public struct SkyChart: Sendable {
    public enum Kind: Sendable, Equatable {
        case sun
        /// The Moon's lit fraction and whether it is waxing (lit on the right seen from the north).
        case moon(illuminated: Double, waxing: Bool)
        case planet
        case star(magnitude: Double)
        case satellite(sunlit: Bool)
    }

    public struct Object: Sendable {
        public var name: String
        public var kind: Kind
        public var altitude: Double, azimuth: Double
    }

    public var objects: [Object] = []

    public init(objects: [Object]) { self.objects = objects }

    /// The sky at UTC `time` over a place; `satellite` is where one is now, when it is up.
    public static func at(
        _ time: Double, latitude: Double, longitude: Double,
        satellite: (name: String, altitude: Double, azimuth: Double, sunlit: Bool)? = nil
    ) -> SkyChart {
        var objects: [Object] = []
        let sun = SolarPosition.at(time, latitude: latitude, longitude: longitude)
        if sun.apparentAltitude > -1 { objects.append(Object(name: "Sun", kind: .sun, altitude: sun.apparentAltitude, azimuth: sun.azimuth)) }
        let julianDay = time / 86_400 + 2_440_587.5
        let moon = MoonPosition.at(julianEphemerisDay: julianDay + DeltaT.seconds(julianDay: julianDay) / 86_400)
        let moonSky = moon.horizontal(unixTime: time, latitude: latitude, longitude: longitude)
        if moonSky.altitude > -1 {
            let elongation = MoonPhases.elongation(at: time)
            objects.append(
                Object(
                    name: "Moon", kind: .moon(illuminated: MoonPhases.illumination(at: time), waxing: elongation < 180),
                    altitude: moonSky.altitude, azimuth: moonSky.azimuth))
        }
        for planet in [Planet.mercury, .venus, .mars, .jupiter, .saturn] {
            let position = PlanetPosition.of(planet, at: time).horizontal(unixTime: time, latitude: latitude, longitude: longitude)
            if position.altitude > 0 { objects.append(Object(name: planet.name, kind: .planet, altitude: position.altitude, azimuth: position.azimuth)) }
        }
        if let satellite, satellite.altitude > 0 {
            objects.append(Object(name: satellite.name, kind: .satellite(sunlit: satellite.sunlit), altitude: satellite.altitude, azimuth: satellite.azimuth))
        }
        // The stars: J2000 positions carried to the date by the precession in right ascension and
        // declination (about 50″ a year: a third of a degree since 2000, which a chart shows).
        let years = (julianDay - 2_451_545.0) / 365.25
        let sidereal = SolarPosition.apparentSiderealTime(unixTime: time)
        let phi = Angle.radians(latitude)
        for star in BrightStars.all {
            let ra = Angle.radians(star.rightAscension), dec = Angle.radians(star.declination)
            let m = 3.075 * 15 / 3600 * years, n = 1.336 * 15 / 3600 * years  // degrees
            let raDate = star.rightAscension + m + n * sin(ra) * tan(dec), decDate = star.declination + n * cos(ra)
            let hourAngle = Angle.radians(sidereal + longitude - raDate), delta = Angle.radians(decDate)
            let altitude = Angle.degrees(asin(sin(phi) * sin(delta) + cos(phi) * cos(delta) * cos(hourAngle)))
            guard altitude > 0 else { continue }
            let azimuth = Angle.heading(Angle.degrees(atan2(sin(hourAngle), cos(hourAngle) * sin(phi) - tan(delta) * cos(phi))) + 180)
            objects.append(Object(name: star.name, kind: .star(magnitude: star.magnitude), altitude: altitude, azimuth: azimuth))
        }
        return SkyChart(objects: objects)
    }

    /// Where an altitude and azimuth go on a dome chart of radius 1 centred on the zenith:
    /// north up, east to the left (the sky seen from below), the horizon the rim.
    public static func position(altitude: Double, azimuth: Double) -> (x: Double, y: Double) {
        let r = (90 - max(0, altitude)) / 90
        let a = Angle.radians(azimuth)
        return (-r * sin(a), -r * cos(a))
    }
}
