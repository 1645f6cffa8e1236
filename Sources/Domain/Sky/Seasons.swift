import Glibc
import LodestoneCore

/// Equinoxes and solstices: the instants the Sun's apparent geocentric longitude reaches
/// 0, 90, 180 and 270 degrees, found by iterating on the full solar position (not a table).
public enum Seasons {
    public enum Event: Int, Sendable, CaseIterable {
        case marchEquinox = 0, juneSolstice, septemberEquinox, decemberSolstice

        public var name: String {
            switch self {
            case .marchEquinox: return "March equinox"
            case .juneSolstice: return "June solstice"
            case .septemberEquinox: return "September equinox"
            case .decemberSolstice: return "December solstice"
            }
        }

        /// What it means where the person is.
        public func description(northern: Bool) -> String {
            switch (self, northern) {
            case (.marchEquinox, true), (.septemberEquinox, false): return "Spring begins: day and night are about equal"
            case (.marchEquinox, false), (.septemberEquinox, true): return "Autumn begins: day and night are about equal"
            case (.juneSolstice, true), (.decemberSolstice, false): return "Summer begins: the longest day of the year"
            case (.juneSolstice, false), (.decemberSolstice, true): return "Winter begins: the shortest day of the year"
            }
        }

        /// The astronomical season that begins with this event in a hemisphere.
        public func season(northern: Bool) -> String {
            let north = ["spring", "summer", "autumn", "winter"]
            return north[(rawValue + (northern ? 0 : 2)) % 4]
        }
    }

    /// The instant (UTC seconds) of `event` in `year`.
    public static func instant(_ event: Event, year: Int) -> Double {
        // Start from the mean date, then correct by the longitude still to go (the Sun moves
        // about 360/365.25 degrees a day); converges to well under a second in a few steps.
        let target = Double(event.rawValue) * 90
        var t = CivilTime(year: year, month: 3 + 3 * event.rawValue, day: 21).unixSeconds
        for _ in 0..<8 {
            let jd = t / 86_400 + 2_440_587.5
            let jce = (jd + DeltaT.seconds(julianDay: jd) / 86_400 - 2_451_545) / 36_525
            let longitude = SolarPosition.apparentPlace(jce: jce, jme: jce / 10).longitude
            let behind = Angle.signed(target - longitude)
            t += behind / 360 * 365.242_19 * 86_400
            if abs(behind) < 1e-7 { break }
        }
        return t
    }

    /// The next `count` events after `time`.
    public static func upcoming(after time: Double, count: Int) -> [(event: Event, time: Double)] {
        var year = CivilTime(unixSeconds: time).year - 1
        var out: [(Event, Double)] = []
        while out.count < count {
            for event in Event.allCases {
                let t = instant(event, year: year)
                if t > time && out.count < count { out.append((event, t)) }
            }
            year += 1
        }
        return out
    }

    /// The astronomical season at `time` for a hemisphere: its name, days gone and its length.
    public static func progress(at time: Double, northern: Bool) -> (season: String, elapsed: Double, total: Double)? {
        let year = CivilTime(unixSeconds: time).year
        var instants: [(Event, Double)] = []
        for y in (year - 1)...(year + 1) { for e in Event.allCases { instants.append((e, instant(e, year: y))) } }
        guard let index = instants.lastIndex(where: { $0.1 <= time }), index + 1 < instants.count else { return nil }
        let (event, began) = instants[index]
        return (event.season(northern: northern), (time - began) / 86_400, (instants[index + 1].1 - began) / 86_400)
    }
}
