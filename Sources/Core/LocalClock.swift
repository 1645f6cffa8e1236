/// The device's one local time: the zone every face shows its times in (the display's header,
/// the sky, departures, waves, reminders, the web app, the terminal, the CLI's text) and
/// whether people here read a 24-hour or a 12-hour clock. One object, shared by the services
/// that show times and changed in place when the `timeZone` or `clock` setting changes, so no
/// face can keep an older zone than another. Output thread (or a command's one thread).
public final class LocalClock: @unchecked Sendable {
    public private(set) var zone: TimeZoneRules
    public private(set) var twelveHour: Bool
    /// Counts the changes, for the caches that hold local days worked out in an older zone.
    public private(set) var generation = 0

    public init(zone: TimeZoneRules, twelveHour: Bool = false) {
        (self.zone, self.twelveHour) = (zone, twelveHour)
    }

    /// The zone and the clock a changed setting asks for.
    public func set(zone: TimeZoneRules, twelveHour: Bool) {
        guard zone.name != self.zone.name || twelveHour != self.twelveHour else { return }
        (self.zone, self.twelveHour) = (zone, twelveHour)
        generation += 1
    }

    /// The time of day at `unixTime`: "14:32", or "2:32 pm" on a 12-hour clock.
    public func timeOfDay(_ unixTime: Double) -> String { Self.timeOfDay(unixTime, zone: zone, twelveHour: twelveHour) }

    /// The time of day with the zone's name, for a time standing alone: "14:32 CEST".
    public func timeOfDayWithZone(_ unixTime: Double) -> String { timeOfDay(unixTime) + " " + zone.abbreviation(at: unixTime) }

    /// An hour's mark on a timeline: "06" on a 24-hour clock; "12a", "6a", "12p", "3p" on a
    /// 12-hour one.
    public static func hourMark(_ hour: Int, twelveHour: Bool) -> String {
        guard twelveHour else { return (hour < 10 ? "0" : "") + String(hour) }
        return String(hour % 12 == 0 ? 12 : hour % 12) + (hour < 12 ? "a" : "p")
    }

    public static func timeOfDay(_ unixTime: Double, zone: TimeZoneRules, twelveHour: Bool) -> String {
        guard unixTime.isFinite else { return "--:--" }
        let local = CivilTime(unixSeconds: (unixTime + Double(zone.offset(at: unixTime))).rounded(.down))
        let minute = (local.minute < 10 ? "0" : "") + String(local.minute)
        guard twelveHour else { return (local.hour < 10 ? "0" : "") + String(local.hour) + ":" + minute }
        let hour = local.hour % 12 == 0 ? 12 : local.hour % 12
        return String(hour) + ":" + minute + (local.hour < 12 ? " am" : " pm")
    }
}
