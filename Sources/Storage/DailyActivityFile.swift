import LodestoneCore
import LodestoneOutputs
import LodestoneEncoding

/// The day's steps and floors, `<dataDir>/activity.json`, so a restart does not start the
/// day's count again: `{"date":"2026-06-21","steps":..,"floorsUp":..,"floorsDown":..}` (the
/// local date). Written atomically; a damaged file is ignored (the day starts from zero).
package struct DailyActivityFile {
    let path: String

    package init(dataDirectory: String) { path = dataDirectory + "/activity.json" }

    package struct Day: Equatable {
        package var date: String
        package var steps: Int
        package var floorsUp: Int
        package var floorsDown: Int

        package init(date: String, steps: Int, floorsUp: Int, floorsDown: Int) {
            self.date = date
            self.steps = steps
            self.floorsUp = floorsUp
            self.floorsDown = floorsDown
        }
    }

    package func load() -> Day? {
        guard let text = readStoreTextIfPresent(path, limit: 4096), let json = try? JSONValue.parse(text),
              let date = json["date"]?.stringValue, date.utf8.count == 10 else { return nil }
        func count(_ key: String) -> Int { json[key]?.numberValue.flatMap { Int(whole: $0, in: 0...100_000_000) } ?? 0 }
        return Day(date: date, steps: count("steps"), floorsUp: count("floorsUp"), floorsDown: count("floorsDown"))
    }

    package func save(_ day: Day) {
        var w = JSONObjectWriter()
        w.string("date", day.date)
        w.integer("steps", day.steps)
        w.integer("floorsUp", day.floorsUp)
        w.integer("floorsDown", day.floorsDown)
        writeFileAtomically(path, Array((w.finished + "\n").utf8))
    }
}
