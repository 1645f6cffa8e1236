import Glibc
import LodestoneCore

/// The Moon's phase: its elongation from the Sun (apparent ecliptic longitudes), the
/// illuminated fraction, the age, the instants of new moon, first quarter, full moon and last
/// quarter (the elongation reaching 0, 90, 180, 270 degrees, found by iteration), and
/// moonrise and moonset.
public enum MoonPhases {
    public enum Phase: Int, Sendable, CaseIterable {
        case newMoon = 0, firstQuarter, fullMoon, lastQuarter

        public var name: String { ["New Moon", "First Quarter", "Full Moon", "Last Quarter"][rawValue] }
    }

    /// The Moon's elongation east of the Sun, 0..360 degrees, at UTC `unixTime`.
    public static func elongation(at unixTime: Double) -> Double {
        let jd = unixTime / 86_400 + 2_440_587.5
        let jde = jd + DeltaT.seconds(julianDay: jd) / 86_400
        let jce = (jde - 2_451_545) / 36_525
        let sun = SolarPosition.apparentPlace(jce: jce, jme: jce / 10)
        return Angle.heading(MoonPosition.at(julianEphemerisDay: jde).longitude - sun.longitude)
    }

    /// The illuminated fraction 0..1 (Meeus 48.4 with the geocentric elongation).
    public static func illumination(at unixTime: Double) -> Double {
        let jd = unixTime / 86_400 + 2_440_587.5
        let jde = jd + DeltaT.seconds(julianDay: jd) / 86_400
        let jce = (jde - 2_451_545) / 36_525
        let sun = SolarPosition.apparentPlace(jce: jce, jme: jce / 10)
        let moon = MoonPosition.at(julianEphemerisDay: jde)
        let psi = acos(cos(Angle.radians(moon.latitude)) * cos(Angle.radians(moon.longitude - sun.longitude)))
        let sunDistance = sun.distance * 149_597_870.7
        let i = atan2(sunDistance * sin(psi), moon.distance - sunDistance * cos(psi))
        return (1 + cos(i)) / 2
    }

    /// The phase's common name: the four principal phases within 6.5 degrees (about half a
    /// day) of their instant, and the crescents and gibbous moons between them.
    public static func name(elongation e: Double) -> String {
        let principal = [(0.0, "New Moon"), (90, "First Quarter"), (180, "Full Moon"), (270, "Last Quarter"), (360, "New Moon")]
        for (angle, name) in principal where abs(e - angle) < 6.5 { return name }
        switch e {
        case ..<90: return "Waxing Crescent"
        case ..<180: return "Waxing Gibbous"
        case ..<270: return "Waning Gibbous"
        default: return "Waning Crescent"
        }
    }

    /// The first instant after `time` when the Moon reaches `phase`.
    public static func next(_ phase: Phase, after time: Double) -> Double {
        let target = Double(phase.rawValue) * 90
        let ahead = Angle.heading(target - elongation(at: time))
        // The elongation grows about 12.19 degrees a day; Newton steps at that rate.
        var t = time + max(ahead, 0.5) / 12.190_749 * 86_400
        for _ in 0..<20 {
            let behind = Angle.signed(target - elongation(at: t))
            t += behind / 12.190_749 * 86_400
            if abs(behind) < 1e-6 { break }
        }
        return t
    }

    /// The principal phases after `time`, in order.
    public static func upcoming(after time: Double, count: Int) -> [(phase: Phase, time: Double)] {
        var out: [(Phase, Double)] = []
        var t = time
        while out.count < count {
            let candidates = Phase.allCases.map { ($0, next($0, after: t)) }
            guard let first = candidates.min(by: { $0.1 < $1.1 }) else { break }
            out.append(first)
            t = first.1 + 3600
        }
        return out
    }

    /// Days since the last new moon.
    public static func age(at time: Double) -> Double {
        let e = elongation(at: time)
        let approximate = time - e / 12.190_749 * 86_400
        let newMoon = next(.newMoon, after: approximate - 3 * 86_400)
        return (time - (newMoon <= time ? newMoon : next(.newMoon, after: approximate - 33 * 86_400))) / 86_400
    }

    /// Moonrise and moonset within [start, end): the centre's geocentric altitude at
    /// 0.7275 times the parallax minus 0.5667 degrees (refraction, semi-diameter and parallax,
    /// Meeus chapter 15). Nil when the Moon does not rise (or set) that day.
    public static func riseAndSet(from start: Double, to end: Double, latitude: Double, longitude: Double) -> (rise: Double?, set: Double?) {
        func height(_ t: Double) -> Double {
            let jd = t / 86_400 + 2_440_587.5
            let moon = MoonPosition.at(julianEphemerisDay: jd + DeltaT.seconds(julianDay: jd) / 86_400)
            return moon.horizontal(unixTime: t, latitude: latitude, longitude: longitude).altitude - (0.7275 * moon.parallax - 0.5667)
        }
        return (
            AltitudeCrossing.first(of: height, level: 0, rising: true, from: start, to: end),
            AltitudeCrossing.first(of: height, level: 0, rising: false, from: start, to: end)
        )
    }
}

/// The first time a slowly varying altitude crosses a level, found by sampling every
/// `step` seconds and bisecting to a millisecond.
enum AltitudeCrossing {
    static func first(
        of altitude: (Double) -> Double, level: Double, rising: Bool, from start: Double, to end: Double,
        step: Double = 600
    ) -> Double? {
        var t = start
        var a = altitude(t) - level
        while t < end {
            let next = min(t + step, end)
            let b = altitude(next) - level
            if rising ? (a < 0 && b >= 0) : (a >= 0 && b < 0) {
                var low = t, high = next
                while high - low > 0.001 {
                    let middle = (low + high) / 2
                    if (altitude(middle) - level < 0) == rising { low = middle } else { high = middle }
                }
                return (low + high) / 2
            }
            (t, a) = (next, b)
        }
        return nil
    }
}
