import Glibc
import LodestoneCore

/// Eclipses of the Moon: the Moon's centre against the Earth's umbra and penumbra, with the
/// shadow radii of NASA's Five Millennium Canon of Lunar Eclipses (Espenak and Meeus 2009):
/// Danjon's enlargement, the Sun's 959.63" at 1 au and the Moon's radius 0.2725076.
public enum LunarEclipses {
    /// The shadow seen from the Earth's centre at one instant, radians: the Moon's centre from
    /// the shadow's axis, the umbra's and penumbra's radii, and the Moon's semi-diameter.
    struct Shadow {
        var separation: Double, umbra: Double, penumbra: Double, moon: Double

        var umbralMagnitude: Double { (umbra + moon - separation) / (2 * moon) }
        var penumbralMagnitude: Double { (penumbra + moon - separation) / (2 * moon) }
    }

    static func shadow(at unixTime: Double) -> Shadow {
        let place = SunAndMoon.at(unixTime)
        let sunDistance = place.sun.length, moonDistance = place.moon.length
        let moonParallax = asin(1 / moonDistance), sunParallax = asin(1 / sunDistance)
        let sunRadius = asin(EclipseConstants.sunRadius / sunDistance)
        let cosine = -place.sun.dot(place.moon) / (sunDistance * moonDistance)
        return Shadow(
            separation: acos(max(-1, min(1, cosine))),
            umbra: EclipseConstants.shadowEnlargement * moonParallax - sunRadius + sunParallax,
            penumbra: EclipseConstants.shadowEnlargement * moonParallax + sunRadius + sunParallax,
            moon: asin(EclipseConstants.moonRadius / moonDistance))
    }

    /// The Moon's direction less the anti-Sun's (unit vectors): its length grows with the
    /// separation, so its least length is greatest eclipse.
    static func offset(at unixTime: Double) -> Vector3 {
        let place = SunAndMoon.at(unixTime)
        return place.moon.normalized + place.sun.normalized
    }

    /// The lunar eclipse around the full moon at `fullMoon` (UTC seconds), or nil when the
    /// Moon misses the penumbra.
    public static func at(fullMoon: Double) -> Eclipse? {
        let greatest = ClosestApproach.time(near: fullMoon, offset)
        let shadow = shadow(at: greatest)
        let penumbral = shadow.penumbralMagnitude, umbral = shadow.umbralMagnitude
        guard penumbral > 0 else { return nil }
        let type: Eclipse.EclipseType = umbral >= 1 ? .total : (umbral > 0 ? .partial : .penumbral)
        return Eclipse(kind: .lunar, type: type, greatest: greatest, magnitude: umbral, penumbralMagnitude: penumbral)
    }

    /// The contacts of the Moon's limb with the shadows, UTC seconds: P1 and P4 with the
    /// penumbra, U1 and U4 with the umbra (partial phase), U2 and U3 inner (totality); nil for
    /// a phase that does not happen.
    public struct Contacts: Sendable, Equatable {
        public var p1: Double, u1: Double?, u2: Double?, greatest: Double, u3: Double?, u4: Double?, p4: Double

        /// The phases' names and instants in order, those that happen.
        public var all: [(name: String, time: Double)] {
            [("p1", p1), ("u1", u1), ("u2", u2), ("greatest", greatest), ("u3", u3), ("u4", u4), ("p4", p4)]
                .compactMap { name, time in time.map { (name, $0) } }
        }
    }

    /// The contacts of `eclipse` (a lunar one).
    public static func contacts(of eclipse: Eclipse) -> Contacts {
        let greatest = eclipse.greatest
        // A penumbral eclipse lasts at most about six hours.
        func contact(_ edge: (Shadow) -> Double, before: Bool) -> Double? {
            Crossing.root(
                of: { t in
                    let s = shadow(at: t)
                    return s.separation - edge(s)
                }, from: greatest, to: greatest + (before ? -4 : 4) * 3600)
        }
        let penumbra = { (s: Shadow) in s.penumbra + s.moon }
        let partial = { (s: Shadow) in s.umbra + s.moon }
        let total = { (s: Shadow) in s.umbra - s.moon }
        return Contacts(
            p1: contact(penumbra, before: true) ?? greatest, u1: contact(partial, before: true),
            u2: contact(total, before: true), greatest: greatest, u3: contact(total, before: false),
            u4: contact(partial, before: false), p4: contact(penumbra, before: false) ?? greatest)
    }
}
