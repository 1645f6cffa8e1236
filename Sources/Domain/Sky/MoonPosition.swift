import Glibc
import LodestoneCore

/// Where the Moon is (Meeus, Astronomical Algorithms, chapter 47, from ELP-2000/82): apparent
/// geocentric ecliptic and equatorial coordinates, distance and parallax; and for an observer
/// its altitude and azimuth. About 10" in longitude, 4" in latitude.
public struct MoonPosition: Sendable, Equatable {
    /// Apparent geocentric longitude and latitude (ecliptic of date), right ascension and
    /// declination, degrees; distance from the Earth's centre, km; horizontal parallax, degrees.
    public var longitude: Double, latitude: Double
    public var rightAscension: Double, declination: Double
    public var distance: Double, parallax: Double

    /// The Moon at Julian ephemeris day `jde` (TT).
    public static func at(julianEphemerisDay jde: Double) -> MoonPosition {
        let t = (jde - 2_451_545) / 36_525
        func reduce(_ x: Double) -> Double { Angle.radians(Angle.heading(x)) }
        let lPrime = 218.316_447_7 + 481_267.881_234_21 * t - 0.001_578_6 * t * t + t * t * t / 538_841 - t * t * t * t / 65_194_000
        let d = reduce(297.850_192_1 + 445_267.111_403_4 * t - 0.001_881_9 * t * t + t * t * t / 545_868 - t * t * t * t / 113_065_000)
        let m = reduce(357.529_109_2 + 35_999.050_290_9 * t - 0.000_153_6 * t * t + t * t * t / 24_490_000)
        let mPrime = reduce(134.963_396_4 + 477_198.867_505_5 * t + 0.008_741_4 * t * t + t * t * t / 69_699 - t * t * t * t / 14_712_000)
        let f = reduce(93.272_095_0 + 483_202.017_523_3 * t - 0.003_653_9 * t * t - t * t * t / 3_526_000 + t * t * t * t / 863_310_000)
        let a1 = reduce(119.75 + 131.849 * t), a2 = reduce(53.09 + 479_264.290 * t), a3 = reduce(313.45 + 481_266.484 * t)
        let e = 1 - 0.002_516 * t - 0.000_007_4 * t * t
        let lp = reduce(lPrime)
        func eccentricity(_ multiple: Double) -> Double { abs(multiple) == 1 ? e : (abs(multiple) == 2 ? e * e : 1) }
        var sigmaL = 0.0, sigmaR = 0.0, sigmaB = 0.0
        for term in MoonPeriodicTerms.longitudeAndDistance {
            let argument = term.d * d + term.m * m + term.mPrime * mPrime + term.f * f
            let scale = eccentricity(term.m)
            sigmaL += term.sine * scale * sin(argument)
            sigmaR += term.cosine * scale * cos(argument)
        }
        for term in MoonPeriodicTerms.latitude {
            sigmaB += term.sine * eccentricity(term.m) * sin(term.d * d + term.m * m + term.mPrime * mPrime + term.f * f)
        }
        // Venus (A1), Jupiter (A2) and the Earth's flattening (L' - F) add their bit.
        sigmaL += 3958 * sin(a1) + 1962 * sin(lp - f) + 318 * sin(a2)
        sigmaB += -2235 * sin(lp) + 382 * sin(a3) + 175 * sin(a1 - f) + 175 * sin(a1 + f) + 127 * sin(lp - mPrime) - 115 * sin(lp + mPrime)
        let (nutationLongitude, nutationObliquity) = SolarPosition.nutation(jce: t)
        let lambda = Angle.heading(lPrime + sigmaL / 1_000_000 + nutationLongitude)
        let beta = sigmaB / 1_000_000
        let distance = 385_000.56 + sigmaR / 1000
        let epsilon = SolarPosition.meanObliquity(jme: t / 10) + nutationObliquity
        let (ra, dec) = equatorial(longitude: lambda, latitude: beta, obliquity: epsilon)
        return MoonPosition(
            longitude: lambda, latitude: beta, rightAscension: ra, declination: dec, distance: distance,
            parallax: Angle.degrees(asin(6378.14 / distance)))
    }

    /// Ecliptic to equatorial coordinates, degrees.
    static func equatorial(longitude: Double, latitude: Double, obliquity: Double) -> (Double, Double) {
        let l = Angle.radians(longitude), b = Angle.radians(latitude), e = Angle.radians(obliquity)
        let ra = Angle.heading(Angle.degrees(atan2(sin(l) * cos(e) - tan(b) * sin(e), cos(l))))
        let dec = Angle.degrees(asin(sin(b) * cos(e) + cos(b) * sin(e) * sin(l)))
        return (ra, dec)
    }

    /// Geocentric altitude and azimuth (from north) for an observer at UTC `unixTime`.
    public func horizontal(unixTime: Double, latitude: Double, longitude: Double) -> (altitude: Double, azimuth: Double) {
        let hourAngle = Angle.radians(SolarPosition.apparentSiderealTime(unixTime: unixTime) + longitude - rightAscension)
        let phi = Angle.radians(latitude), delta = Angle.radians(declination)
        let altitude = asin(sin(phi) * sin(delta) + cos(phi) * cos(delta) * cos(hourAngle))
        let azimuth = atan2(sin(hourAngle), cos(hourAngle) * sin(phi) - tan(delta) * cos(phi))
        return (Angle.degrees(altitude), Angle.heading(Angle.degrees(azimuth) + 180))
    }
}
