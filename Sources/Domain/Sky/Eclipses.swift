import Glibc
import LodestoneCore

/// One eclipse of the Sun or the Moon, as the eclipse canons list it.
public struct Eclipse: Sendable, Equatable {
    public enum Kind: String, Sendable { case solar, lunar }
    public enum EclipseType: String, Sendable { case total, annular, hybrid, partial, penumbral }

    public var kind: Kind
    public var type: EclipseType
    /// Greatest eclipse, UTC seconds: solar, the shadow axis closest to the Earth's centre;
    /// lunar, the Moon's centre closest to the axis of the Earth's shadow.
    public var greatest: Double
    /// Solar: the Moon's apparent diameter over the Sun's, (L1 - L2)/(L1 + L2), on the central
    /// line, or the fraction of the Sun's diameter covered at the limb point nearest the axis
    /// when the axis misses the Earth. Lunar: the umbral magnitude (negative when only the
    /// penumbra touches the Moon).
    public var magnitude: Double
    /// Lunar: the fraction of the Moon's diameter inside the penumbra.
    public var penumbralMagnitude: Double?
    /// Solar: the axis's least distance from the Earth's centre, equatorial Earth radii,
    /// positive when it passes north of it.
    public var gamma: Double?

    public init(kind: Kind, type: EclipseType, greatest: Double, magnitude: Double, penumbralMagnitude: Double? = nil, gamma: Double? = nil) {
        (self.kind, self.type, self.greatest, self.magnitude) = (kind, type, greatest, magnitude)
        (self.penumbralMagnitude, self.gamma) = (penumbralMagnitude, gamma)
    }
}

/// Every eclipse in a span: each new moon and full moon near a node of the Moon's orbit is
/// examined with the full geometry; the rest cannot be eclipses.
public enum Eclipses {
    /// The Moon's ecliptic latitude beyond which no eclipse happens at a syzygy: about 1.6° for
    /// either kind, with a margin for the change between conjunction and greatest eclipse.
    static let nodeLatitude = 1.9

    /// The first `count` eclipses whose greatest eclipse is at or after `time`, in order.
    public static func upcoming(after time: Double, count: Int) -> [Eclipse] {
        var found: [Eclipse] = []
        guard count > 0 else { return found }
        forEach(from: time) { eclipse in
            found.append(eclipse)
            return found.count < count
        }
        return found
    }

    /// The eclipses whose greatest eclipse falls in [start, end), in order.
    public static func between(_ start: Double, _ end: Double) -> [Eclipse] {
        var found: [Eclipse] = []
        forEach(from: start) { eclipse in
            guard eclipse.greatest < end else { return false }
            found.append(eclipse)
            return true
        }
        return found
    }

    /// Calls `body` with each eclipse from `start` on, while it returns true.
    static func forEach(from start: Double, _ body: (Eclipse) -> Bool) {
        // Greatest eclipse is within hours of the syzygy: begin a day early and drop the
        // eclipses that fall before `start`.
        var newMoon = MoonPhases.next(.newMoon, after: start - 86_400)
        var fullMoon = MoonPhases.next(.fullMoon, after: start - 86_400)
        // A bound: more than a thousand years of lunations without an answer means a caller
        // asked for more than there is.
        for _ in 0..<30_000 {
            let solar = newMoon < fullMoon
            let syzygy = solar ? newMoon : fullMoon
            if solar {
                newMoon = MoonPhases.next(.newMoon, after: syzygy + 20 * 86_400)
            } else {
                fullMoon = MoonPhases.next(.fullMoon, after: syzygy + 20 * 86_400)
            }
            guard nearNode(syzygy) else { continue }
            guard let eclipse = solar ? SolarEclipses.at(newMoon: syzygy) : LunarEclipses.at(fullMoon: syzygy),
                eclipse.greatest >= start
            else { continue }
            if !body(eclipse) { return }
        }
    }

    static func nearNode(_ time: Double) -> Bool {
        let jd = time / 86_400 + 2_440_587.5
        return abs(MoonPosition.at(julianEphemerisDay: jd + DeltaT.seconds(julianDay: jd) / 86_400).latitude) < nodeLatitude
    }
}
