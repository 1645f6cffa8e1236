import Glibc
import LodestoneCore

/// Eclipses of the Sun, from the Moon's shadow in the fundamental plane (Besselian geometry,
/// Explanatory Supplement to the Astronomical Almanac, chapter 8), with the conventions of
/// NASA's Five Millennium Canon of Solar Eclipses (Espenak and Meeus 2006).
public enum SolarEclipses {
    /// The solar eclipse around the new moon at `newMoon` (UTC seconds), or nil when the
    /// Moon's penumbra misses the Earth.
    public static func at(newMoon: Double) -> Eclipse? {
        let greatest = ClosestApproach.time(near: newMoon) { t in
            let b = BesselianElements.at(t)
            return Vector3(b.x, b.y, 0)
        }
        let b = BesselianElements.at(greatest)
        let gamma = copysign(b.distanceFromCentre, b.y)
        if let height = b.surfaceHeight {
            let l1 = b.l1 - height * b.tanF1, l2 = b.l2 - height * b.tanF2
            let magnitude = (l1 - l2) / (l1 + l2)
            let type: Eclipse.EclipseType = isHybrid(around: greatest, magnitude: magnitude) ? .hybrid : (l2 < 0 ? .total : .annular)
            return Eclipse(kind: .solar, type: type, greatest: greatest, magnitude: magnitude, gamma: gamma)
        }
        // The axis misses the Earth: the eclipse is greatest at the limb point nearest it, where
        // the observer's plane is the fundamental plane itself.
        let distance = b.distanceFromLimb
        guard distance < b.l1 else { return nil }
        let magnitude = (b.l1 - distance) / (b.l1 + b.l2)
        // Non-central total or annular: part of the umbra (or antumbra) still grazes the Earth.
        let type: Eclipse.EclipseType = distance < abs(b.l2) ? (b.l2 < 0 ? .total : .annular) : .partial
        return Eclipse(kind: .solar, type: type, greatest: greatest, magnitude: magnitude, gamma: gamma)
    }

    /// Whether the eclipse is total along part of the central line and annular along another:
    /// the umbra's radius where the axis meets the ground changes sign. Only the eclipses whose
    /// Moon and Sun are within 3% of the same size can be; the line is sampled each minute, as
    /// the canon's tables were.
    static func isHybrid(around greatest: Double, magnitude: Double) -> Bool {
        guard abs(magnitude - 1) < 0.03 else { return false }
        var total = false, annular = false
        for direction in [-1.0, 1.0] {
            // A central line lasts at most about four hours.
            for minute in 0...300 {
                let b = BesselianElements.at(greatest + direction * Double(minute) * 60)
                guard let height = b.surfaceHeight else { break }
                if b.l2 - height * b.tanF2 < 0 { total = true } else { annular = true }
            }
        }
        return total && annular
    }
}
