import Glibc
import LodestoneCore

/// A solar eclipse as one place sees it: the contacts of the Moon's and Sun's limbs, the
/// greatest magnitude and obscuration there, and the Sun's altitude at each.
public struct SolarEclipseLocal: Sendable, Equatable {
    /// First contact, inner contacts (when the place is inside the path of totality or
    /// annularity), last contact and the local maximum, UTC seconds.
    public var c1: Double, c2: Double?, maximum: Double, c3: Double?, c4: Double
    /// Total, annular or partial here.
    public var type: Eclipse.EclipseType
    /// The magnitude at maximum: the fraction of the Sun's diameter covered, or inside the
    /// path of totality or annularity the Moon's apparent diameter over the Sun's (NASA's
    /// convention); and the fraction of the Sun's disc's area covered.
    public var magnitude: Double, obscuration: Double
    /// The Sun's topocentric altitude (centre, without refraction) at c1, maximum, c4 and,
    /// when they happen, c2 and c3, degrees.
    public var sunAltitudeAtC1: Double, sunAltitudeAtMaximum: Double, sunAltitudeAtC4: Double
    public var sunAltitudeAtC2: Double?, sunAltitudeAtC3: Double?
    /// The Sun's upper limb above the horizon (-0.833° for the centre, as at sunrise) at some
    /// moment between c1 and c4.
    public var visible: Bool
}

/// A lunar eclipse as one place sees it: the same instants everywhere, but the Moon may be
/// below the horizon.
public struct LunarEclipseLocal: Sendable, Equatable {
    public var contacts: LunarEclipses.Contacts
    /// The Moon's topocentric altitude (centre, without refraction) at greatest eclipse, degrees.
    public var moonAltitudeAtGreatest: Double
    /// The Moon's upper limb above the horizon (the project's moonrise level) during some part
    /// of the umbral phases, or of the penumbral phase for a penumbral eclipse.
    public var visible: Bool
}

public enum EclipseLocal {
    /// The local circumstances of a solar eclipse, or nil when the penumbra never reaches the
    /// place. Contacts found while the Sun is down are still given (with a negative altitude):
    /// the eclipse happens there, out of sight.
    public static func solar(_ eclipse: Eclipse, latitude: Double, longitude: Double, elevation: Double = 0) -> SolarEclipseLocal? {
        let site = ObserverSite(latitude: latitude, longitude: longitude, elevation: elevation)
        /// The axis's offset from the observer in the plane, and the penumbra's and umbra's radii
        /// in the observer's own plane parallel to it.
        func shadow(_ t: Double) -> (u: Double, v: Double, l1: Double, l2: Double) {
            let b = BesselianElements.at(t)
            let o = b.observer(site)
            return (b.x - o.xi, b.y - o.eta, b.l1 - o.zeta * b.tanF1, b.l2 - o.zeta * b.tanF2)
        }
        let maximum = ClosestApproach.time(near: eclipse.greatest) { t in
            let s = shadow(t)
            return Vector3(s.u, s.v, 0)
        }
        // A place sees its maximum within the few hours the penumbra is on the Earth.
        guard abs(maximum - eclipse.greatest) < 4 * 3600 else { return nil }
        let atMaximum = shadow(maximum)
        let m = hypot(atMaximum.u, atMaximum.v)
        guard m < atMaximum.l1 else { return nil }
        func outer(_ t: Double) -> Double { let s = shadow(t); return hypot(s.u, s.v) - s.l1 }
        func inner(_ t: Double) -> Double { let s = shadow(t); return hypot(s.u, s.v) - abs(s.l2) }
        // The partial phase at one place lasts at most about four hours.
        guard let c1 = Crossing.root(of: outer, from: maximum, to: maximum - 4 * 3600),
            let c4 = Crossing.root(of: outer, from: maximum, to: maximum + 4 * 3600)
        else { return nil }
        let central = m < abs(atMaximum.l2)
        let c2 = central ? Crossing.root(of: inner, from: maximum, to: c1) : nil
        let c3 = central ? Crossing.root(of: inner, from: maximum, to: c4) : nil
        func altitude(_ t: Double) -> Double { SolarPosition.at(t, latitude: latitude, longitude: longitude, elevation: elevation).altitude }
        let type: Eclipse.EclipseType = central ? (atMaximum.l2 < 0 ? .total : .annular) : .partial
        let sunRadius = (atMaximum.l1 + atMaximum.l2) / 2, moonRadius = (atMaximum.l1 - atMaximum.l2) / 2
        return SolarEclipseLocal(
            c1: c1, c2: c2, maximum: maximum, c3: c3, c4: c4, type: type,
            magnitude: central ? moonRadius / sunRadius : (atMaximum.l1 - m) / (atMaximum.l1 + atMaximum.l2),
            obscuration: obscuration(sunRadius: sunRadius, moonRadius: moonRadius, separation: m),
            sunAltitudeAtC1: altitude(c1), sunAltitudeAtMaximum: altitude(maximum), sunAltitudeAtC4: altitude(c4),
            sunAltitudeAtC2: c2.map(altitude), sunAltitudeAtC3: c3.map(altitude),
            visible: anyTime(from: c1, to: c4) { altitude($0) > SunEvents.horizon })
    }

    /// The fraction of the Sun's disc the Moon's covers: the lens where two circles overlap.
    public static func obscuration(sunRadius r1: Double, moonRadius r2: Double, separation d: Double) -> Double {
        guard r1 > 0, r2 > 0 else { return 0 }
        if d >= r1 + r2 { return 0 }
        if d <= abs(r1 - r2) { return r2 >= r1 ? 1 : (r2 * r2) / (r1 * r1) }
        let a1 = acos(max(-1, min(1, (d * d + r1 * r1 - r2 * r2) / (2 * d * r1))))
        let a2 = acos(max(-1, min(1, (d * d + r2 * r2 - r1 * r1) / (2 * d * r2))))
        let kite = 0.5 * max(0, (-d + r1 + r2) * (d + r1 - r2) * (d - r1 + r2) * (d + r1 + r2)).squareRoot()
        return (r1 * r1 * a1 + r2 * r2 * a2 - kite) / (Double.pi * r1 * r1)
    }

    /// A lunar eclipse's circumstances at a place.
    public static func lunar(_ eclipse: Eclipse, latitude: Double, longitude: Double) -> LunarEclipseLocal {
        let contacts = LunarEclipses.contacts(of: eclipse)
        func moon(_ t: Double) -> (altitude: Double, parallax: Double) {
            let jd = t / 86_400 + 2_440_587.5
            let position = MoonPosition.at(julianEphemerisDay: jd + DeltaT.seconds(julianDay: jd) / 86_400)
            return (position.horizontal(unixTime: t, latitude: latitude, longitude: longitude).altitude, position.parallax)
        }
        let atGreatest = moon(eclipse.greatest)
        // Seen from the surface the Moon stands lower by its parallax in altitude.
        let topocentric = atGreatest.altitude - Angle.degrees(asin(sin(Angle.radians(atGreatest.parallax)) * cos(Angle.radians(atGreatest.altitude))))
        let start = eclipse.type == .penumbral ? contacts.p1 : (contacts.u1 ?? contacts.p1)
        let end = eclipse.type == .penumbral ? contacts.p4 : (contacts.u4 ?? contacts.p4)
        let visible = anyTime(from: start, to: end) { t in
            let m = moon(t)
            return m.altitude > 0.7275 * m.parallax - 0.5667
        }
        return LunarEclipseLocal(contacts: contacts, moonAltitudeAtGreatest: topocentric, visible: visible)
    }

    /// Whether `condition` holds at the ends of [from, to] or at some five-minute step between.
    static func anyTime(from: Double, to: Double, _ condition: (Double) -> Bool) -> Bool {
        var t = from
        while t < to {
            if condition(t) { return true }
            t += 300
        }
        return condition(to)
    }
}
