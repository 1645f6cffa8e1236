import LodestoneCore
import LodestoneEncoding

/// The departure reminders, kept in `<dataDir>/timetable-reminders.json` (a JSON array, replaced
/// whole at each change) so that one set before a restart or a power cut still sounds.
public struct ReminderStore {
    public struct Reminder: Sendable, Equatable {
        public var id: String
        /// The stop's id in the timetable, and the trip's.
        public var stop: String, trip: String
        public var route: String, headsign: String
        /// When the trip leaves, and when the reminder sounds (UTC seconds).
        public var departure: Double, at: Double
        public init(id: String, stop: String, trip: String, route: String, headsign: String, departure: Double, at: Double) {
            (self.id, self.stop, self.trip, self.route, self.headsign, self.departure, self.at) = (id, stop, trip, route, headsign, departure, at)
        }
    }

    public let path: String

    public init(dataDirectory: String) { path = dataDirectory + "/timetable-reminders.json" }

    /// The reminders kept; an entry that is not whole is skipped and said, the rest kept.
    public func load() -> (reminders: [Reminder], problems: [String]) {
        guard let text = readStoreTextIfPresent(path) else { return ([], []) }
        guard let list = (try? JSONValue.parse(text))?.arrayValue else { return ([], ["\(path): not a JSON array of reminders; none kept"]) }
        var reminders: [Reminder] = [], problems: [String] = []
        for (index, entry) in list.enumerated() {
            // Times within 1970-2100: anything else is not a reminder this device set.
            func time(_ key: String) -> Double? { entry[key]?.numberValue.flatMap { (0...4_102_444_800).contains($0) ? $0 : nil } }
            func text(_ key: String) -> String? { entry[key]?.stringValue.flatMap { $0.utf8.count <= 200 ? $0 : nil } }
            guard let id = text("id"), !id.isEmpty, let stop = text("stop"), let trip = text("trip"), let departure = time("departure"),
                let at = time("at")
            else {
                problems.append("\(path): reminder \(index + 1) is not whole; skipped")
                continue
            }
            reminders.append(
                Reminder(
                    id: id, stop: stop, trip: trip, route: text("route") ?? "", headsign: text("headsign") ?? "",
                    departure: departure, at: at))
        }
        return (reminders, problems)
    }

    public func save(_ reminders: [Reminder]) throws(WriteFailure) {
        let items = reminders.map { r in
            var w = JSONObjectWriter()
            w.string("id", r.id)
            w.string("stop", r.stop)
            w.string("trip", r.trip)
            w.string("route", r.route)
            w.string("headsign", r.headsign)
            w.number("departure", r.departure, decimals: 0)
            w.number("at", r.at, decimals: 0)
            return w.finished
        }
        try replaceFile(path, with: Array(("[" + items.joined(separator: ",\n") + "]\n").utf8))
    }
}
