import LodestoneCore

/// A departure's time as a person reads it, in the stop's zone: "09:34", "Sat 11-28", and the
/// countdown "in 37 min", "in 1 h 37 min", "tomorrow 09:34" or "in 3 days".
public enum DepartureWords {
    /// The weekdays' codes, Monday first: their names are the table of words' ("label.weekdayMon").
    static let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]

    public static func clock(_ time: Double, zone: TimeZoneRules) -> String {
        String(zone.iso8601(time).dropFirst(11).prefix(5))
    }

    /// The weekday and the date, "Sat 11-28" ("Sa 11-28" in German).
    public static func day(_ time: Double, zone: TimeZoneRules, _ language: Language = .en) -> String {
        let date = date(time, zone: zone)
        return weekday(date.weekday, language) + " " + date.monthAndDay
    }

    /// The local weekday (0 Monday to 6 Sunday) and the month and day, "11-28".
    public static func date(_ time: Double, zone: TimeZoneRules) -> (weekday: Int, monthAndDay: String) {
        let local = CivilTime(unixSeconds: time + Double(zone.offset(at: time)))
        let weekday = CivilTime.weekday(days: CivilTime.days(year: local.year, month: local.month, day: local.day))
        return (weekday, zeroPadded(local.month, 2) + "-" + zeroPadded(local.day, 2))
    }

    /// A weekday's short name (0 Monday), "Sat"; empty for a number that is none.
    public static func weekday(_ index: Int, _ language: Language = .en) -> String {
        guard weekdays.indices.contains(index) else { return "" }
        return Words.text("label", "weekday" + weekdays[index], language)
    }

    /// Today's and the next three hours' in hours and minutes (late at night a boat just
    /// after midnight is still counted down), tomorrow's by its time, later ones in days.
    public static func countdown(to time: Double, from now: Double, zone: TimeZoneRules) -> String {
        let minutes = Int(((time - now) / 60).rounded(.down))
        let days = zone.localDays(from: now, to: time)
        if minutes < 1 { return "now" }
        if days <= 0 || minutes < 180 { return minutes < 60 ? "in \(minutes) min" : "in \(minutes / 60) h \(minutes % 60) min" }
        return days == 1 ? "tomorrow " + clock(time, zone: zone) : "in \(days) days"
    }
}
