import Glibc
import LodestoneCore
import LodestoneDomain

/// The imported timetable, `<dataDir>/timetable/`: kept as a GTFS feed again (its own files,
/// only what was kept), so any GTFS tool reads it and the device reads it back with the same
/// importer. Written file by file atomically, the folder replaced only when all are written.
/// Beside the feed, `index.bin` (`TimetableIndex`) holds the same timetable in a binary form
/// that is read in milliseconds; the feed stays the reference, read when the index is
/// missing (an import by an older version) or refused (damaged).
public struct TimetableStore {
    public let directory: String

    public init(dataDirectory: String) { directory = dataDirectory + "/timetable" }

    public var exists: Bool { fileExists(directory + "/stops.txt") }

    public var indexPath: String { directory + "/index.bin" }

    /// The kept timetable; when the index is refused, a warning says why and the feed is read.
    public func load() throws(GTFSImport.Failure) -> Timetable {
        let (timetable, refusal) = try loadNotingRefusal()
        if let refusal { Log.warning(refusal) }
        return timetable
    }

    /// The kept timetable, from the index when it is there and whole, else from the feed; and
    /// why the index was refused, when it was.
    func loadNotingRefusal() throws(GTFSImport.Failure) -> (Timetable, refusal: String?) {
        guard exists else { throw GTFSImport.Failure(description: "no timetable imported yet: 'lodestone timetable import FEED.zip'") }
        var refusal: String?
        if fileExists(indexPath) {
            do { return (try TimetableIndex.read(indexPath), nil) } catch {
                refusal = "\(indexPath): \(error.description); reading the feed instead (import it again to rebuild the index)"
            }
        }
        return (try GTFSImport.read(directory).0, refusal)
    }

    /// Saves `timetable` in place of the one kept; false when it cannot be written.
    public func save(_ t: Timetable) -> Bool {
        guard makeDirectories(directory) else { return false }
        // The old index goes first and the new one is written last: a save cut short leaves
        // no index describing another feed than the files beside it, only the feed itself.
        guard unlink(indexPath) == 0 || errno == ENOENT else { return false }
        func csv(_ rows: [[String]]) -> [UInt8] {
            Array(rows.map { $0.map(Self.field).joined(separator: ",") }.joined(separator: "\n").utf8) + [0x0A]
        }
        let zone = t.stops.first?.timeZone ?? "UTC"
        var stopTimes: [[String]] = [["trip_id", "departure_time", "stop_id"]]
        for stop in t.stops.indices {
            for call in t.calls(at: stop) {
                stopTimes.append([t.trips[call.trip].id, "\(call.seconds / 3600):\(zeroPadded(call.seconds / 60 % 60, 2)):\(zeroPadded(call.seconds % 60, 2))", t.stops[stop].id])
            }
        }
        let files: [(String, [[String]])] = [
            ("agency.txt", [["agency_name", "agency_timezone"], ["imported", zone]]),
            ("stops.txt", [["stop_id", "stop_name", "stop_lat", "stop_lon", "stop_timezone"]]
                + t.stops.map { [$0.id, $0.name, fixed($0.latitude, 6), fixed($0.longitude, 6), $0.timeZone] }),
            ("routes.txt", [["route_id", "route_short_name", "route_long_name", "route_type"]]
                + t.routes.map { [$0.id, $0.shortName, $0.longName, String($0.type)] }),
            ("trips.txt", [["route_id", "service_id", "trip_id", "trip_headsign"]]
                + t.trips.map { [t.routes[$0.route].id, $0.service, $0.id, $0.headsign] }),
            ("stop_times.txt", stopTimes),
            ("calendar.txt", [["service_id", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "start_date", "end_date"]]
                + t.calendar.weeks.sorted { $0.key < $1.key }.map { [$0.key] + $0.value.days.map { $0 ? "1" : "0" } + [String($0.value.start), String($0.value.end)] }),
            ("calendar_dates.txt", [["service_id", "date", "exception_type"]]
                + t.calendar.exceptions.sorted { $0.key < $1.key }.flatMap { service in
                    service.value.sorted { $0.key < $1.key }.map { [service.key, String($0.key), $0.value ? "1" : "2"] } }),
        ]
        for (name, rows) in files where !writeFileAtomically(directory + "/" + name, csv(rows)) { return false }
        return writeFileAtomically(indexPath, TimetableIndex.encode(t))
    }

    /// A CSV field, quoted when it holds a comma, a quote or a line break.
    static func field(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        var quoted = "\""
        for character in text { quoted += character == "\"" ? "\"\"" : String(character) }
        return quoted + "\""
    }
}
