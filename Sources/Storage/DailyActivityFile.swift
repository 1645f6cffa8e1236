import LodestoneCore
import LodestoneOutputs
import LodestoneEncoding

/// The day's steps, floors, distance on foot and active time, `<dataDir>/activity.json`, so a
/// restart does not start the day's count again: `{"date":"2026-06-21","steps":..,"floorsUp":..,
/// "floorsDown":..,"distance":M,"activeSeconds":S}` (the local date; a file without the last
/// two, from before they were kept, reads them as 0). Written atomically; a damaged file is ignored (the day starts from zero).
package struct DailyActivityFile {
    let path: String

    package init(dataDirectory: String) { path = dataDirectory + "/activity.json" }

    package struct Day: Equatable {
        package var date: String
        package var steps: Int
        package var floorsUp: Int
        package var floorsDown: Int
        package var distance: Double
        package var activeSeconds: Double

        package init(date: String, steps: Int, floorsUp: Int, floorsDown: Int, distance: Double = 0, activeSeconds: Double = 0) {
            self.date = date
            self.steps = steps
            self.floorsUp = floorsUp
            self.floorsDown = floorsDown
            self.distance = distance
            self.activeSeconds = activeSeconds
        }
    }

    package func load() -> Day? {
        guard let text = readStoreTextIfPresent(path, limit: 4096), let json = try? JSONValue.parse(text),
            let date = json["date"]?.stringValue, date.utf8.count == 10
        else { return nil }
        func count(_ key: String) -> Int { json[key]?.numberValue.flatMap { Int(whole: $0, in: 0...100_000_000) } ?? 0 }
        func amount(_ key: String, _ most: Double) -> Double { json[key]?.numberValue.flatMap { $0.isFinite && $0 >= 0 && $0 <= most ? $0 : nil } ?? 0 }
        return Day(
            date: date, steps: count("steps"), floorsUp: count("floorsUp"), floorsDown: count("floorsDown"),
            distance: amount("distance", 1_000_000), activeSeconds: amount("activeSeconds", 86_400))
    }

    package func save(_ day: Day) {
        var w = JSONObjectWriter()
        w.string("date", day.date)
        w.integer("steps", day.steps)
        w.integer("floorsUp", day.floorsUp)
        w.integer("floorsDown", day.floorsDown)
        w.number("distance", day.distance, decimals: 1)
        w.number("activeSeconds", day.activeSeconds, decimals: 0)
        writeFileAtomically(path, Array((w.finished + "\n").utf8))
    }
}
