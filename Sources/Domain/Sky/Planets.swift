import Glibc
import LodestoneCore

/// The naked-eye and binocular planets: apparent place (VSOP87D with light time, the FK5
/// correction, aberration and nutation, as in Meeus chapter 33), magnitude (the Astronomical
/// Almanac's formulas, Meeus chapter 41), the illuminated fraction, and for an observer the
/// altitude, azimuth, rise, transit and set.
public enum Planet: String, Sendable, CaseIterable {
    case mercury, venus, mars, jupiter, saturn, uranus, neptune

    public var name: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }

    var terms: (l: [[Double]], b: [[Double]], r: [[Double]]) {
        switch self {
        case .mercury: return (PlanetTerms.mercuryL, PlanetTerms.mercuryB, PlanetTerms.mercuryR)
        case .venus: return (PlanetTerms.venusL, PlanetTerms.venusB, PlanetTerms.venusR)
        case .mars: return (PlanetTerms.marsL, PlanetTerms.marsB, PlanetTerms.marsR)
        case .jupiter: return (PlanetTerms.jupiterL, PlanetTerms.jupiterB, PlanetTerms.jupiterR)
        case .saturn: return (PlanetTerms.saturnL, PlanetTerms.saturnB, PlanetTerms.saturnR)
        case .uranus: return (PlanetTerms.uranusL, PlanetTerms.uranusB, PlanetTerms.uranusR)
        case .neptune: return (PlanetTerms.neptuneL, PlanetTerms.neptuneB, PlanetTerms.neptuneR)
        }
    }

    /// Heliocentric ecliptic longitude and latitude (radians, of date) and distance (AU).
    func heliocentric(jme: Double) -> (l: Double, b: Double, r: Double) {
        func series(_ groups: [[Double]]) -> Double {
            var total = 0.0, power = 1.0
            for group in groups {
                var sum = 0.0
                var i = 0
                while i < group.count {
                    sum += group[i] * cos(group[i + 1] + group[i + 2] * jme)
                    i += 3
                }
                total += sum * power
                power *= jme
            }
            return total / 1e8
        }
        let t = terms
        return (series(t.l), series(t.b), series(t.r))
    }
}

public struct PlanetPosition: Sendable, Equatable {
    public var planet: Planet
    /// Apparent geocentric right ascension and declination (true equator and equinox of date), degrees.
    public var rightAscension: Double
    public var declination: Double
    /// Distance from the Earth and from the Sun (AU), phase angle (degrees), illuminated fraction.
    public var distance: Double
    public var sunDistance: Double
    public var phaseAngle: Double
    public var illuminated: Double
    public var magnitude: Double

    /// The planet at UTC `unixTime`.
    public static func of(_ planet: Planet, at unixTime: Double) -> PlanetPosition {
        let jd = unixTime / 86_400 + 2_440_587.5
        return of(planet, julianEphemerisDay: jd + DeltaT.seconds(julianDay: jd) / 86_400)
    }

    /// The planet at Julian ephemeris day `jde` (TT).
    public static func of(_ planet: Planet, julianEphemerisDay jde: Double) -> PlanetPosition {
        let jme = (jde - 2_451_545) / 365_250
        // The Earth from the same theory (of date), heliocentric.
        let earthPlace = SolarPosition.apparentPlace(jce: jme * 10, jme: jme)
        let earthL = Angle.radians(Angle.heading(earthPlace.heliocentricLongitude)), earthB = Angle.radians(earthPlace.heliocentricLatitude)
        let earthR = earthPlace.distance
        // Light time: the planet where it was when the light left it.
        var tau = 0.0
        var x = 0.0, y = 0.0, z = 0.0, helio = (l: 0.0, b: 0.0, r: 0.0)
        for _ in 0..<3 {
            helio = planet.heliocentric(jme: jme - tau / 365_250)
            x = helio.r * cos(helio.b) * cos(helio.l) - earthR * cos(earthB) * cos(earthL)
            y = helio.r * cos(helio.b) * sin(helio.l) - earthR * cos(earthB) * sin(earthL)
            z = helio.r * sin(helio.b) - earthR * sin(earthB)
            tau = 0.005_775_518_3 * (x * x + y * y + z * z).squareRoot()
        }
        let delta = (x * x + y * y + z * z).squareRoot()
        var lambda = Angle.degrees(atan2(y, x))
        var beta = Angle.degrees(atan2(z, (x * x + y * y).squareRoot()))
        // FK5: from VSOP87's dynamical frame (Meeus 32.3).
        let tc = jme * 10
        let lambdaPrime = Angle.radians(lambda - 1.397 * tc - 0.000_31 * tc * tc)
        lambda += (-0.090_33 + 0.039_16 * (cos(lambdaPrime) + sin(lambdaPrime)) * tan(Angle.radians(beta))) / 3600
        beta += 0.039_16 * (cos(lambdaPrime) - sin(lambdaPrime)) / 3600
        // Annual aberration (Meeus 23.2) with the Sun's true longitude and the Earth's perihelion.
        let kappa = 20.495_52 / 3600
        let sunLongitude = Angle.heading(Angle.degrees(earthL) + 180)
        let e = 0.016_708_634 - 0.000_042_037 * tc - 0.000_000_126_7 * tc * tc
        let perihelion = 102.937_35 + 1.719_46 * tc + 0.000_46 * tc * tc
        let l = Angle.radians(lambda), b = Angle.radians(beta)
        let s = Angle.radians(sunLongitude), p = Angle.radians(perihelion)
        lambda += (-kappa * cos(s - l) + e * kappa * cos(p - l)) / cos(b)
        beta += -kappa * sin(b) * (sin(s - l) - e * sin(p - l))
        // Nutation and the true obliquity.
        let (dPsi, dEpsilon) = SolarPosition.nutation(jce: tc)
        lambda += dPsi
        let epsilon = SolarPosition.meanObliquity(jme: jme) + dEpsilon
        let (ra, dec) = MoonPosition.equatorial(longitude: Angle.heading(lambda), latitude: beta, obliquity: epsilon)
        // Phase and brightness.
        let r = helio.r, earthSun = earthR
        let cosPhase = max(-1, min(1, (r * r + delta * delta - earthSun * earthSun) / (2 * r * delta)))
        let i = Angle.degrees(acos(cosPhase))
        let k = ((r + delta) * (r + delta) - earthSun * earthSun) / (4 * r * delta)
        let base = 5 * log10(r * delta)
        let magnitude: Double
        switch planet {
        case .mercury: magnitude = -0.42 + base + 0.0380 * i - 0.000_273 * i * i + 0.000_002 * i * i * i
        case .venus: magnitude = -4.40 + base + 0.0009 * i + 0.000_239 * i * i - 0.000_000_65 * i * i * i
        case .mars: magnitude = -1.52 + base + 0.016 * i
        case .jupiter: magnitude = -9.40 + base + 0.005 * i
        case .saturn: magnitude = -8.88 + base + 0.044 * i  // without the rings' tilt (up to -1.3)
        case .uranus: magnitude = -7.19 + base
        case .neptune: magnitude = -6.87 + base
        }
        return PlanetPosition(
            planet: planet, rightAscension: ra, declination: dec, distance: delta, sunDistance: r,
            phaseAngle: i, illuminated: max(0, min(1, k)), magnitude: magnitude)
    }

    /// Geocentric altitude and azimuth (from north) for an observer at UTC `unixTime`.
    public func horizontal(unixTime: Double, latitude: Double, longitude: Double) -> (altitude: Double, azimuth: Double) {
        MoonPosition(longitude: 0, latitude: 0, rightAscension: rightAscension, declination: declination, distance: 1, parallax: 0)
            .horizontal(unixTime: unixTime, latitude: latitude, longitude: longitude)
    }

    /// Rise, transit and set within [start, end): the centre at -0.5667° (refraction), and the
    /// hour angle passing zero. Nil for an event that does not happen that day.
    public static func events(_ planet: Planet, from start: Double, to end: Double, latitude: Double, longitude: Double)
        -> (rise: Double?, transit: Double?, set: Double?)
    {
        func altitude(_ t: Double) -> Double { of(planet, at: t).horizontal(unixTime: t, latitude: latitude, longitude: longitude).altitude }
        func hourAngle(_ t: Double) -> Double {
            Angle.signed(SolarPosition.apparentSiderealTime(unixTime: t) + longitude - of(planet, at: t).rightAscension)
        }
        let rise = AltitudeCrossing.first(of: altitude, level: -0.5667, rising: true, from: start, to: end, step: 1200)
        let set = AltitudeCrossing.first(of: altitude, level: -0.5667, rising: false, from: start, to: end, step: 1200)
        // Transit: the hour angle going from negative to positive (not the jump at 180°).
        let transit = AltitudeCrossing.first(
            of: { t in
                let h = hourAngle(t); return abs(h) > 90 ? -1 : h
            }, level: 0, rising: true,
            from: start, to: end, step: 1200)
        return (rise, transit, set)
    }
}
