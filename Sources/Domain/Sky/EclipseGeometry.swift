import Glibc
import LodestoneCore

/// The sizes the NASA Five Millennium Canons use (Espenak and Meeus 2006 and 2009), so that
/// types and magnitudes agree with the published tables.
enum EclipseConstants {
    /// The Earth's equatorial radius, km: every length below is in these radii.
    static let earthRadius = 6378.137
    static let flattening = 1 / 298.257
    static let eccentricitySquared = flattening * (2 - flattening)
    /// The Moon's mean radius, for the penumbra and the partial phases.
    static let moonRadius = 0.272_507_6
    /// A smaller radius for the umbra: light shines through the valleys of the Moon's limb
    /// before totality ends.
    static let moonUmbralRadius = 0.272_281_0
    /// The Sun's radius, Earth radii: 959.63" seen from 1 au.
    static let sunRadius = tan(Angle.radians(959.63 / 3600)) * 149_597_870.7 / earthRadius
    /// Danjon's enlargement of the Earth's shadow (1/85 of the radius, less 0.99834 for the
    /// flattening), the canon's instead of the Astronomical Almanac's 1/50.
    static let shadowEnlargement = 1.01
}

/// The apparent geocentric Sun and Moon as vectors, equator and equinox of date, in Earth
/// radii: the project's own VSOP87 (Reda and Andreas) Sun and ELP-2000/82 (Meeus) Moon.
struct SunAndMoon {
    var sun: Vector3
    var moon: Vector3

    /// At UTC `unixTime`.
    static func at(_ unixTime: Double) -> SunAndMoon {
        let jd = unixTime / 86_400 + 2_440_587.5
        let jde = jd + DeltaT.seconds(julianDay: jd) / 86_400
        let jce = (jde - 2_451_545) / 36_525
        let sun = SolarPosition.apparentPlace(jce: jce, jme: jce / 10)
        let moon = MoonPosition.at(julianEphemerisDay: jde)
        return SunAndMoon(
            sun: vector(sun.rightAscension, sun.declination, sun.distance * 149_597_870.7 / EclipseConstants.earthRadius),
            moon: vector(moon.rightAscension, moon.declination, moon.distance / EclipseConstants.earthRadius))
    }

    static func vector(_ rightAscension: Double, _ declination: Double, _ distance: Double) -> Vector3 {
        let a = Angle.radians(rightAscension), d = Angle.radians(declination)
        return Vector3(cos(d) * cos(a), cos(d) * sin(a), sin(d)) * distance
    }
}

/// The Moon's shadow at one instant in the fundamental plane (through the Earth's centre,
/// perpendicular to the shadow axis, x east along the equator, y north): Bessel's elements
/// computed from the ephemerides directly rather than from fitted polynomials.
struct BesselianElements {
    /// The shadow axis's place in the plane and the Moon's distance along it, Earth radii.
    var x: Double, y: Double, z: Double
    /// The radii of the penumbra (l1) and umbra (l2, negative where the umbra's cone has
    /// closed: a total eclipse) in the plane, and the tangents of their cones' half-angles.
    var l1: Double, l2: Double, tanF1: Double, tanF2: Double
    /// The axis's declination (radians) and the plane's unit vectors in equatorial coordinates.
    var declination: Double
    var axis: Vector3, east: Vector3, north: Vector3
    var moon: Vector3
    var unixTime: Double

    static func at(_ unixTime: Double) -> BesselianElements {
        let place = SunAndMoon.at(unixTime)
        let toSun = place.sun - place.moon
        let separation = toSun.length
        let w = toSun / separation
        let a = atan2(w.y, w.x)
        let east = Vector3(-sin(a), cos(a), 0)
        let north = w.cross(east)
        let m = place.moon
        let z = m.dot(w)
        let f1 = asin((EclipseConstants.sunRadius + EclipseConstants.moonRadius) / separation)
        let f2 = asin((EclipseConstants.sunRadius - EclipseConstants.moonUmbralRadius) / separation)
        return BesselianElements(
            x: m.dot(east), y: m.dot(north), z: z,
            l1: z * tan(f1) + EclipseConstants.moonRadius / cos(f1),
            l2: z * tan(f2) - EclipseConstants.moonUmbralRadius / cos(f2),
            tanF1: tan(f1), tanF2: tan(f2), declination: asin(w.z),
            axis: w, east: east, north: north, moon: m, unixTime: unixTime)
    }

    /// How far the axis passes from the Earth's centre, Earth radii.
    var distanceFromCentre: Double { (x * x + y * y).squareRoot() }

    /// Where the axis meets the ellipsoid on the sunward side: that point's coordinate along
    /// the axis (its height above the fundamental plane), or nil when the axis misses the Earth.
    var surfaceHeight: Double? {
        let q = 1 / (1 - EclipseConstants.eccentricitySquared)
        let w = axis
        let a = w.x * w.x + w.y * w.y + q * w.z * w.z
        let b = 2 * (moon.x * w.x + moon.y * w.y + q * moon.z * w.z)
        let c = moon.x * moon.x + moon.y * moon.y + q * moon.z * moon.z - 1
        let discriminant = b * b - 4 * a * c
        guard discriminant >= 0 else { return nil }
        return z + (-b + discriminant.squareRoot()) / (2 * a)
    }

    /// The distance from the axis to the Earth's outline in the plane: an ellipse of semi-axes
    /// 1 (east) and sqrt(1 - e² cos² d) (north). Only meaningful when the axis misses the Earth.
    var distanceFromLimb: Double {
        let rho = (1 - EclipseConstants.eccentricitySquared * cos(declination) * cos(declination)).squareRoot()
        func distance(_ theta: Double) -> Double { hypot(x - cos(theta), y - rho * sin(theta)) }
        let start = atan2(y / rho, x)
        return GoldenSection.minimum(of: distance, from: start - 0.3, to: start + 0.3, tolerance: 1e-9).value
    }

    /// An observer's place in the plane (ξ, η) and height above it (ζ), Earth radii: `site`
    /// is the observer's geocentric vector in Earth radii at the Greenwich sidereal angle.
    func observer(_ site: ObserverSite) -> (xi: Double, eta: Double, zeta: Double) {
        let theta = Angle.radians(SolarPosition.apparentSiderealTime(unixTime: unixTime)) + site.longitude
        let p = Vector3(site.rhoCosPhi * cos(theta), site.rhoCosPhi * sin(theta), site.rhoSinPhi)
        return (p.dot(east), p.dot(north), p.dot(axis))
    }
}

/// An observer's geocentric place on the ellipsoid (Meeus chapter 11).
struct ObserverSite {
    var rhoSinPhi: Double, rhoCosPhi: Double
    /// East longitude, radians.
    var longitude: Double

    init(latitude: Double, longitude: Double, elevation: Double) {
        let phi = Angle.radians(latitude)
        let ratio = 1 - EclipseConstants.flattening
        let u = atan(ratio * tan(phi))
        let h = elevation / (EclipseConstants.earthRadius * 1000)
        rhoSinPhi = ratio * sin(u) + h * sin(phi)
        rhoCosPhi = cos(u) + h * cos(phi)
        self.longitude = Angle.radians(longitude)
    }
}

/// The instant a point moving almost uniformly in a plane (or in space) passes closest to the
/// origin: Newton steps on the linear motion through the current guess, so a few evaluations
/// reach a hundredth of a second.
enum ClosestApproach {
    static func time(near guess: Double, limit: Double = 4 * 3600, _ offset: (Double) -> Vector3) -> Double {
        var t = guess
        let h = 60.0
        for _ in 0..<12 {
            let before = offset(t - h), after = offset(t + h)
            let velocity = (after - before) / (2 * h)
            let speed = velocity.dot(velocity)
            guard speed > 0 else { break }
            let step = -offset(t).dot(velocity) / speed
            t += max(-limit, min(limit, step))
            if abs(step) < 0.01 { break }
        }
        return t
    }
}

enum GoldenSection {
    /// The minimum of a unimodal `f` on [low, high].
    static func minimum(of f: (Double) -> Double, from low: Double, to high: Double, tolerance: Double) -> (at: Double, value: Double) {
        let r = (5.0.squareRoot() - 1) / 2
        var (a, b) = (low, high)
        var c = b - r * (b - a), d = a + r * (b - a)
        var fc = f(c), fd = f(d)
        while b - a > tolerance {
            if fc < fd {
                (b, d, fd) = (d, c, fc)
                c = b - r * (b - a)
                fc = f(c)
            } else {
                (a, c, fc) = (c, d, fd)
                d = a + r * (b - a)
                fd = f(d)
            }
        }
        let t = (a + b) / 2
        return (t, f(t))
    }
}

enum Crossing {
    /// The instant in [from, to] where `f` changes sign, by bisection to `tolerance` seconds;
    /// nil when it has the same sign at both ends.
    static func root(of f: (Double) -> Double, from: Double, to: Double, tolerance: Double = 0.05) -> Double? {
        var (a, b) = (from, to)
        let fa = f(a)
        guard (fa < 0) != (f(b) < 0) else { return nil }
        let negativeFirst = fa < 0
        while abs(b - a) > tolerance {
            let middle = (a + b) / 2
            if (f(middle) < 0) == negativeFirst { a = middle } else { b = middle }
        }
        return (a + b) / 2
    }
}
