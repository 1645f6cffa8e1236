import Glibc
import LodestoneCore

/// Distances and bearings on the WGS84 ellipsoid by Vincenty's inverse method (Survey Review
/// XXIII, 176, 1975): accurate to well under a millimetre, which a track's length needs over
/// thousands of short legs. Coincident points give 0; nearly antipodal points, where the
/// iteration may not settle, fall back to the spherical answer rather than failing.
public enum Geodesy {
    static let a = 6_378_137.0
    static let f = 1 / 298.257_223_563
    static let b = a * (1 - f)

    /// Metres and the initial bearing (degrees true) from point 1 to point 2 (degrees).
    public static func inverse(latitude1: Double, longitude1: Double, latitude2: Double, longitude2: Double)
        -> (distance: Double, bearing: Double)
    {
        let L = Angle.radians(longitude2 - longitude1)
        let U1 = atan((1 - f) * tan(Angle.radians(latitude1)))
        let U2 = atan((1 - f) * tan(Angle.radians(latitude2)))
        let (sinU1, cosU1, sinU2, cosU2) = (sin(U1), cos(U1), sin(U2), cos(U2))
        var lambda = L
        var iterations = 0
        var sinSigma = 0.0, cosSigma = 0.0, sigma = 0.0, cosSquaredAlpha = 0.0, cos2SigmaM = 0.0
        var sinLambda = 0.0, cosLambda = 0.0
        while true {
            sinLambda = sin(lambda)
            cosLambda = cos(lambda)
            let t1 = cosU2 * sinLambda, t2 = cosU1 * sinU2 - sinU1 * cosU2 * cosLambda
            sinSigma = (t1 * t1 + t2 * t2).squareRoot()
            if sinSigma == 0 { return (0, 0) }  // coincident points
            cosSigma = sinU1 * sinU2 + cosU1 * cosU2 * cosLambda
            sigma = atan2(sinSigma, cosSigma)
            let sinAlpha = cosU1 * cosU2 * sinLambda / sinSigma
            cosSquaredAlpha = 1 - sinAlpha * sinAlpha
            cos2SigmaM = cosSquaredAlpha != 0 ? cosSigma - 2 * sinU1 * sinU2 / cosSquaredAlpha : 0  // equatorial line
            let C = f / 16 * cosSquaredAlpha * (4 + f * (4 - 3 * cosSquaredAlpha))
            let previous = lambda
            lambda =
                L + (1 - C) * f * sinAlpha
                * (sigma + C * sinSigma * (cos2SigmaM + C * cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)))
            iterations += 1
            if abs(lambda - previous) < 1e-12 { break }
            if iterations > 200 || !lambda.isFinite {
                return spherical(latitude1: latitude1, longitude1: longitude1, latitude2: latitude2, longitude2: longitude2)
            }
        }
        let uSquared = cosSquaredAlpha * (a * a - b * b) / (b * b)
        let A = 1 + uSquared / 16384 * (4096 + uSquared * (-768 + uSquared * (320 - 175 * uSquared)))
        let B = uSquared / 1024 * (256 + uSquared * (-128 + uSquared * (74 - 47 * uSquared)))
        let deltaSigma =
            B * sinSigma
            * (cos2SigmaM + B / 4
                * (cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)
                    - B / 6 * cos2SigmaM * (-3 + 4 * sinSigma * sinSigma) * (-3 + 4 * cos2SigmaM * cos2SigmaM)))
        let distance = b * A * (sigma - deltaSigma)
        let bearing = atan2(cosU2 * sinLambda, cosU1 * sinU2 - sinU1 * cosU2 * cosLambda)
        return (distance, Angle.heading(Angle.degrees(bearing)))
    }

    public static func distance(latitude1: Double, longitude1: Double, latitude2: Double, longitude2: Double) -> Double {
        inverse(latitude1: latitude1, longitude1: longitude1, latitude2: latitude2, longitude2: longitude2).distance
    }

    /// The great-circle answer on a sphere of the WGS84 mean radius (0.5% at worst).
    static func spherical(latitude1: Double, longitude1: Double, latitude2: Double, longitude2: Double)
        -> (distance: Double, bearing: Double)
    {
        let p1 = Angle.radians(latitude1), p2 = Angle.radians(latitude2), dl = Angle.radians(longitude2 - longitude1)
        let h = sin((p2 - p1) / 2) * sin((p2 - p1) / 2) + cos(p1) * cos(p2) * sin(dl / 2) * sin(dl / 2)
        let distance = 2 * 6_371_008.8 * asin(min(1, h.squareRoot()))
        let bearing = atan2(sin(dl) * cos(p2), cos(p1) * sin(p2) - sin(p1) * cos(p2) * cos(dl))
        return (distance, Angle.heading(Angle.degrees(bearing)))
    }
}
