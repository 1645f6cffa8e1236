import LodestoneCore
import LodestoneDomain
import LodestoneStorage

/// Steps and floors per local day, across restarts: the step counter counts from the start of
/// the process; this adds what the day had before it (from `<dataDir>/activity.json`) and
/// starts again at local midnight. Floors come from the barometer's altitude while walking.
package final class DailyActivity {
    let zone: TimeZoneRules
    private let file: DailyActivityFile?
    /// The local day, as days since 1970 (a number: worked out every second without allocating).
    private var day = 0
    /// The steps the day had before this process counted any (negative after a midnight
    /// passed while running: the steps before it belong to yesterday).
    private var stepsBefore = 0
    package private(set) var stepsToday = 0
    package private(set) var floors = FloorCounter()
    private var lastSaved = -Double.infinity
    static let saveInterval = 60.0

    package init(zone: TimeZoneRules, dataDirectory: String?, now: Double) {
        self.zone = zone
        file = dataDirectory.map(DailyActivityFile.init)
        day = Self.localDay(now, zone: zone)
        if let saved = file?.load(), saved.date == Self.localDate(now, zone: zone) {
            stepsBefore = saved.steps
            stepsToday = saved.steps
            floors = FloorCounter(up: saved.floorsUp, down: saved.floorsDown)
        }
    }

    static func localDate(_ time: Double, zone: TimeZoneRules) -> String {
        String(zone.iso8601(time).prefix(10))
    }

    static func localDay(_ time: Double, zone: TimeZoneRules) -> Int {
        let local = time + Double(zone.offset(at: time))
        return local.isFinite && abs(local) < 1e14 ? Int((local / 86_400).rounded(.down)) : 0
    }

    /// Once a second: the process's step count, the altitude, whether walking or running.
    package func update(stepsSinceStart: Int, altitude: Double, moving: Bool, time: Double) {
        let today = Self.localDay(time, zone: zone)
        if today != day {
            day = today
            stepsBefore = -stepsSinceStart
            floors.startDay()
        }
        stepsToday = max(0, stepsBefore + stepsSinceStart)
        floors.update(altitude: altitude, moving: moving)
        if time - lastSaved >= Self.saveInterval || time < lastSaved { save(time: time) }
    }

    package func save(time: Double) {
        lastSaved = time
        file?.save(DailyActivityFile.Day(date: Self.localDate(time, zone: zone), steps: stepsToday, floorsUp: floors.up, floorsDown: floors.down))
    }
}
