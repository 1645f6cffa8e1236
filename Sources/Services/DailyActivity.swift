import LodestoneCore
import LodestoneDomain
import LodestoneStorage

/// Steps, distance on foot, floors and active time per local day, across restarts: the step
/// counter counts from the start of the process; this adds what the day had before it (from
/// `<dataDir>/activity.json`) and starts again at local midnight. Floors come from the
/// barometer's altitude while walking; active time is the time spent walking or running.
package final class DailyActivity {
    /// The device's one local time: the day ends at its midnight, in the zone in force now
    /// (a zone set while running moves the day's end with it).
    let clock: LocalClock
    var zone: TimeZoneRules { clock.zone }
    private let file: DailyActivityFile?
    /// The local day, as days since 1970 (a number: worked out every second without allocating).
    private var day = 0
    /// The local day as "2026-06-21", as the file keeps it (made when the day begins, not at each save).
    private var date: String
    /// The steps the day had before this process counted any (negative after a midnight
    /// passed while running: the steps before it belong to yesterday).
    private var stepsBefore = 0
    private var distanceBefore = 0.0
    package private(set) var stepsToday = 0
    /// The day's steps by local hour (0 to 23), for the day page's bars.
    package private(set) var stepsByHour = [Int](repeating: 0, count: 24)
    /// Metres on foot today (the step counter's distance), and seconds walking or running.
    package private(set) var distanceToday = 0.0
    package private(set) var activeSecondsToday = 0.0
    private var lastUpdate: Double?
    package private(set) var floors = FloorCounter()
    private var lastSaved = -Double.infinity
    static let saveInterval = 60.0

    package init(clock: LocalClock, dataDirectory: String?, now: Double) {
        self.clock = clock
        let zone = clock.zone
        file = dataDirectory.map(DailyActivityFile.init)
        day = Self.localDay(now, zone: zone)
        date = Self.localDate(now, zone: zone)
        if let saved = file?.load(), saved.date == date {
            stepsBefore = saved.steps
            stepsToday = saved.steps
            (distanceBefore, distanceToday, activeSecondsToday) = (saved.distance, saved.distance, saved.activeSeconds)
            floors = FloorCounter(up: saved.floorsUp, down: saved.floorsDown)
            stepsByHour = saved.hours
        }
    }

    static func localDate(_ time: Double, zone: TimeZoneRules) -> String {
        String(zone.iso8601(time).prefix(10))
    }

    static func localDay(_ time: Double, zone: TimeZoneRules) -> Int {
        localSeconds(time, zone: zone).map { Int(($0 / 86_400).rounded(.down)) } ?? 0
    }

    /// The local hour, 0 to 23 (0 for a time that is not one).
    static func localHour(_ time: Double, zone: TimeZoneRules) -> Int {
        localSeconds(time, zone: zone).map { CivilTime(unixSeconds: $0.rounded(.down)).hour } ?? 0
    }

    /// Seconds since 1970 on the local clock; nil for a time no clock shows.
    private static func localSeconds(_ time: Double, zone: TimeZoneRules) -> Double? {
        let local = time + Double(zone.offset(at: time))
        return local.isFinite && abs(local) < 1e14 ? local : nil
    }

    /// The local hour at `time`, in the zone in force.
    package func hour(at time: Double) -> Int { Self.localHour(time, zone: zone) }

    /// Once a second: the process's step count and distance, the altitude, whether walking or
    /// running.
    package func update(stepsSinceStart: Int, distanceSinceStart: Double = 0, altitude: Double, moving: Bool, time: Double) {
        let today = Self.localDay(time, zone: zone)
        let distance = distanceSinceStart.isFinite ? max(0, distanceSinceStart) : 0
        if today != day {
            day = today
            date = Self.localDate(time, zone: zone)
            stepsBefore = -stepsSinceStart
            distanceBefore = -distance
            activeSecondsToday = 0
            floors.startDay()
            stepsToday = 0
            for hour in stepsByHour.indices { stepsByHour[hour] = 0 }
        }
        let before = stepsToday
        stepsToday = max(0, stepsBefore + stepsSinceStart)
        // The steps since the last second belong to this local hour.
        if stepsToday > before { stepsByHour[Self.localHour(time, zone: zone)] += stepsToday - before }
        distanceToday = max(0, distanceBefore + distance)
        // A second at a time while moving (a gap of more, a pause or a clock step, counts none).
        if moving, let last = lastUpdate, time > last, time - last <= 5 { activeSecondsToday += time - last }
        lastUpdate = time
        floors.update(altitude: altitude, moving: moving)
        if time - lastSaved >= Self.saveInterval || time < lastSaved { save(time: time) }
    }

    package func save(time: Double) {
        lastSaved = time
        file?.save(
            DailyActivityFile.Day(
                date: Self.localDay(time, zone: zone) == day ? date : Self.localDate(time, zone: zone), steps: stepsToday, floorsUp: floors.up,
                floorsDown: floors.down,
                distance: distanceToday, activeSeconds: activeSecondsToday, hours: stepsByHour))
    }
}
