import LodestoneCore
import LodestoneEncoding

/// The day's steps, floors, distance on foot and active time, `<dataDir>/activity.json`, so a
/// restart does not start the day's count again: `{"date":"2026-06-21","steps":..,"floorsUp":..,
/// "floorsDown":..,"distance":M,"activeSeconds":S,"hours":[24 step counts]}` (the local date;
/// the steps of each local hour; a file without the later keys, from before they were kept,
/// reads them as 0). Written atomically; a damaged file is ignored (the day starts from zero).
package final class DailyActivityFile {
    let path: String
    private let file: ReplacedFile
    /// The line, built where the last save's was (a save a minute allocates nothing).
    private var line = JSONBuffer(capacity: 256)

    package init(dataDirectory: String) {
        path = dataDirectory + "/activity.json"
        file = ReplacedFile(path: path)
    }

    package struct Day: Equatable {
        package var date: String
        package var steps: Int
        package var floorsUp: Int
        package var floorsDown: Int
        package var distance: Double
        package var activeSeconds: Double
        /// The steps taken in each local hour, 0 to 23 (all 0 when the file did not keep them).
        package var hours = [Int](repeating: 0, count: 24)

        package init(
            date: String, steps: Int, floorsUp: Int, floorsDown: Int, distance: Double = 0, activeSeconds: Double = 0,
            hours: [Int] = [Int](repeating: 0, count: 24)
        ) {
            self.hours = hours.count == 24 ? hours : [Int](repeating: 0, count: 24)
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
        var day = Day(
            date: date, steps: count("steps"), floorsUp: count("floorsUp"), floorsDown: count("floorsDown"),
            distance: amount("distance", 1_000_000), activeSeconds: amount("activeSeconds", 86_400))
        // Each hour's count as the day's: a damaged entry reads 0, the others are kept.
        if let hours = json["hours"]?.arrayValue, hours.count == 24 {
            day.hours = hours.map { $0.numberValue.flatMap { Int(whole: $0, in: 0...100_000_000) } ?? 0 }
        }
        return day
    }

    package func save(_ day: Day) {
        line.reset()
        line.beginObject()
        line.string("date", day.date)
        line.integer("steps", day.steps)
        line.integer("floorsUp", day.floorsUp)
        line.integer("floorsDown", day.floorsDown)
        line.number("distance", day.distance, decimals: 1)
        line.number("activeSeconds", day.activeSeconds, decimals: 0)
        line.beginArray("hours")
        for steps in day.hours { line.element(integer: steps) }
        line.endArray()
        line.endObject()
        do {
            try file.replace { bytes in
                line.withBytes { bytes.append(contentsOf: $0) }
                bytes.append(UInt8(ascii: "\n"))
            }
        } catch {
            Log.warning("cannot write \(path): today's steps will start again from zero after a restart (\(error.reason))")
        }
    }
}
