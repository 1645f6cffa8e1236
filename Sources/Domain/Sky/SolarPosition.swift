import Glibc
import LodestoneCore

/// Where the Sun is, by the Solar Position Algorithm of Reda and Andreas (Solar Energy 76,
/// 2004): VSOP87 for the Earth, IAU 1980 nutation, aberration, apparent sidereal time and
/// topocentric parallax; about 0.0003 degrees, 2000 BC to 6000 AD.
public struct SolarPosition: Sendable, Equatable {
    /// Apparent geocentric ecliptic longitude, right ascension and declination, degrees.
    public var longitude: Double
    public var rightAscension: Double
    public var declination: Double
    /// Earth-Sun distance, astronomical units.
    public var distance: Double
    /// Topocentric altitude of the Sun's centre without refraction, and azimuth from north
    /// through east, degrees; the local hour angle (topocentric, -180..180, 0 at transit).
    public var altitude: Double
    public var azimuth: Double
    public var hourAngle: Double

    /// The Sun at `unixTime` (UTC seconds) for an observer; `deltaT` (TT - UT, seconds)
    /// defaults to the model in `DeltaT`.
    public static func at(
        _ unixTime: Double, latitude: Double, longitude: Double, elevation: Double = 0,
        deltaT: Double? = nil
    ) -> SolarPosition {
        let jd = unixTime / 86_400 + 2_440_587.5
        let dt = deltaT ?? DeltaT.seconds(julianDay: jd)
        let jce = (jd + dt / 86_400 - 2_451_545) / 36_525
        return seen(apparentPlace(jce: jce, jme: jce / 10), at: unixTime, latitude: latitude, longitude: longitude, elevation: elevation)
    }

    /// The Sun at its apparent geocentric place `geocentric` (for `unixTime`), as an observer
    /// sees it: the hour angle from apparent sidereal time, then topocentric parallax. No
    /// series: a few trigonometric functions, which is what a day's ephemeris leaves to do
    /// at each instant (`SolarEphemeris`).
    static func seen(_ geocentric: Geocentric, at unixTime: Double, latitude: Double, longitude: Double, elevation: Double) -> SolarPosition {
        let jd = unixTime / 86_400 + 2_440_587.5
        let jc = (jd - 2_451_545) / 36_525
        // Apparent sidereal time at Greenwich.
        let meanSidereal = Angle.heading(280.460_618_37 + 360.985_647_366_29 * (jd - 2_451_545) + 0.000_387_933 * jc * jc - jc * jc * jc / 38_710_000)
        let sidereal = meanSidereal + geocentric.nutationLongitude * cos(Angle.radians(geocentric.obliquity))
        let h = Angle.heading(sidereal + longitude - geocentric.rightAscension)
        // Topocentric parallax (the Sun's equatorial horizontal parallax is 8.794").
        let xi = Angle.radians(8.794 / (3600 * geocentric.distance))
        let phi = Angle.radians(latitude)
        let u = atan(0.996_647_19 * tan(phi))
        let x = cos(u) + elevation / 6_378_140 * cos(phi)
        let y = 0.996_647_19 * sin(u) + elevation / 6_378_140 * sin(phi)
        let delta = Angle.radians(geocentric.declination), hr = Angle.radians(h)
        let deltaAlpha = atan2(-x * sin(xi) * sin(hr), cos(delta) - x * sin(xi) * cos(hr))
        let deltaPrime = atan2((sin(delta) - y * sin(xi)) * cos(deltaAlpha), cos(delta) - x * sin(xi) * cos(hr))
        let hPrime = hr - deltaAlpha
        let altitude = asin(sin(phi) * sin(deltaPrime) + cos(phi) * cos(deltaPrime) * cos(hPrime))
        let gamma = atan2(sin(hPrime), cos(hPrime) * sin(phi) - tan(deltaPrime) * cos(phi))
        return SolarPosition(
            longitude: geocentric.longitude, rightAscension: geocentric.rightAscension,
            declination: geocentric.declination, distance: geocentric.distance,
            altitude: Angle.degrees(altitude), azimuth: Angle.heading(Angle.degrees(gamma) + 180),
            hourAngle: Angle.signed(Angle.degrees(hPrime)))
    }

    struct Geocentric {
        var longitude: Double, rightAscension: Double, declination: Double, distance: Double
        var nutationLongitude: Double, obliquity: Double
        /// The Earth's heliocentric longitude and latitude (degrees, of date).
        var heliocentricLongitude: Double, heliocentricLatitude: Double
    }

    /// The apparent geocentric place at Julian ephemeris century `jce` (TT).
    static func apparentPlace(jce: Double, jme: Double) -> Geocentric {
        func series(_ groups: [[EarthPeriodicTerms.Term]]) -> Double {
            var total = 0.0, power = 1.0
            for group in groups {
                var sum = 0.0
                for t in group { sum += t.amplitude * cos(t.phase + t.frequency * jme) }
                total += sum * power
                power *= jme
            }
            return total / 1e8
        }
        let heliocentricLongitude = Angle.heading(Angle.degrees(series(EarthPeriodicTerms.longitude)))
        let heliocentricLatitude = Angle.degrees(series(EarthPeriodicTerms.latitude))
        let r = series(EarthPeriodicTerms.radius)
        let theta = Angle.heading(heliocentricLongitude + 180)
        let beta = -heliocentricLatitude
        let (dPsi, dEpsilon) = nutation(jce: jce)
        let epsilon = meanObliquity(jme: jme) + dEpsilon
        let lambda = theta + dPsi - 20.4898 / (3600 * r)
        let l = Angle.radians(lambda), e = Angle.radians(epsilon), b = Angle.radians(beta)
        let alpha = Angle.heading(Angle.degrees(atan2(sin(l) * cos(e) - tan(b) * sin(e), cos(l))))
        let delta = Angle.degrees(asin(sin(b) * cos(e) + cos(b) * sin(e) * sin(l)))
        return Geocentric(
            longitude: Angle.heading(lambda), rightAscension: alpha, declination: delta, distance: r,
            nutationLongitude: dPsi, obliquity: epsilon, heliocentricLongitude: heliocentricLongitude,
            heliocentricLatitude: heliocentricLatitude)
    }

    /// The mean obliquity of the ecliptic (Laskar 1986), degrees, at Julian ephemeris
    /// millennium `jme`.
    static func meanObliquity(jme: Double) -> Double {
        let u = jme / 10
        var arcseconds = 84_381.448
        for (index, c) in [-4_680.93, -1.55, 1_999.25, -51.38, -249.67, -39.05, 7.12, 27.87, 5.79, 2.45].enumerated() {
            arcseconds += c * pow(u, Double(index + 1))
        }
        return arcseconds / 3600
    }

    /// Apparent sidereal time at Greenwich, degrees.
    static func apparentSiderealTime(unixTime: Double) -> Double {
        let jd = unixTime / 86_400 + 2_440_587.5
        let jc = (jd - 2_451_545) / 36_525
        let jce = (jd + DeltaT.seconds(julianDay: jd) / 86_400 - 2_451_545) / 36_525
        let mean = Angle.heading(280.460_618_37 + 360.985_647_366_29 * (jd - 2_451_545) + 0.000_387_933 * jc * jc - jc * jc * jc / 38_710_000)
        let (dPsi, dEpsilon) = nutation(jce: jce)
        return Angle.heading(mean + dPsi * cos(Angle.radians(meanObliquity(jme: jce / 10) + dEpsilon)))
    }

    /// Nutation in longitude and obliquity, degrees.
    static func nutation(jce: Double) -> (Double, Double) {
        let t = jce
        let x = (
            297.850_36 + 445_267.111_480 * t - 0.001_914_2 * t * t + t * t * t / 189_474,
            357.527_72 + 35_999.050_340 * t - 0.000_160_3 * t * t - t * t * t / 300_000,
            134.962_98 + 477_198.867_398 * t + 0.008_697_2 * t * t + t * t * t / 56_250,
            93.271_91 + 483_202.017_538 * t - 0.003_682_5 * t * t + t * t * t / 327_270,
            125.044_52 - 1_934.136_261 * t + 0.002_070_8 * t * t + t * t * t / 450_000
        )
        var psi = 0.0, epsilon = 0.0
        for term in NutationTerms.terms {
            let m = term.multiples
            let argument = Angle.radians(m.0 * x.0 + m.1 * x.1 + m.2 * x.2 + m.3 * x.3 + m.4 * x.4)
            psi += (term.a + term.b * t) * sin(argument)
            epsilon += (term.c + term.d * t) * cos(argument)
        }
        return (psi / 36_000_000, epsilon / 36_000_000)
    }

    /// The altitude seen through a standard atmosphere (1010 hPa, 10 °C): refraction lifts the
    /// Sun by about 0.57° at the horizon.
    public var apparentAltitude: Double {
        guard altitude > -1 else { return altitude }
        let refraction = 1.02 / (60 * tan(Angle.radians(altitude + 10.3 / (altitude + 5.11))))
        return altitude + refraction
    }
}

/// TT - UT in seconds: the polynomials of Espenak and Meeus (NASA, Five Millennium Canon of
/// Solar Eclipses, 2006) for 1900-2150, and Morrison and Stephenson's parabola outside them.
public enum DeltaT {
    public static func seconds(julianDay: Double) -> Double {
        let year = 2000 + (julianDay - 2_451_544.5) / 365.2425
        let t: Double
        switch year {
        case 1900..<1920:
            t = year - 1900
            return -2.79 + 1.494_119 * t - 0.059_893_9 * t * t + 0.006_196_6 * t * t * t - 0.000_197 * t * t * t * t
        case 1920..<1941:
            t = year - 1920
            return 21.20 + 0.844_93 * t - 0.076_100 * t * t + 0.002_093_6 * t * t * t
        case 1941..<1961:
            t = year - 1950
            return 29.07 + 0.407 * t - t * t / 233 + t * t * t / 2547
        case 1961..<1986:
            t = year - 1975
            return 45.45 + 1.067 * t - t * t / 260 - t * t * t / 718
        case 1986..<2005:
            t = year - 2000
            return 63.86 + 0.3345 * t - 0.060_374 * t * t + 0.001_727_5 * t * t * t + 0.000_651_814 * pow(t, 4) + 0.000_023_735_99 * pow(t, 5)
        case 2005..<2050:
            t = year - 2000
            return 62.92 + 0.322_17 * t + 0.005_589 * t * t
        case 2050..<2150:
            let u = (year - 1820) / 100
            return -20 + 32 * u * u - 0.5628 * (2150 - year)
        default:
            let u = (year - 1820) / 100
            return -20 + 32 * u * u
        }
    }
}
