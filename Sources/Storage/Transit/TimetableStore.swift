import CLinux
import Glibc
import LodestoneCore
import LodestoneDomain

/// The imported timetable, `<dataDir>/timetable/`: kept as a GTFS feed again (its own files,
/// only what was kept), so any GTFS tool reads it and the device reads it back with the same
/// importer. Beside the feed, `index.bin` (`TimetableIndex`) holds the same timetable in a
/// binary form that is read in milliseconds; the feed stays the reference, read when the index
/// is missing (an import by an older version) or refused (damaged).
///
/// A save never changes the kept folder in place. The new timetable is written whole into a
/// sibling, `timetable.new-PID/`, every file and the folder synced, and the two folders are
/// then exchanged in one step (renameat2 RENAME_EXCHANGE): at every instant the name
/// `timetable` is one complete timetable, the old or the new, and the old one, now under the
/// sibling's name, is removed after. The name stays a plain folder (no link to follow, no
/// pointer file to read first), so every reader, the backup included, reads it as before,
/// and a reader that has opened `index.bin` keeps reading the file it opened. Where the file
/// system cannot exchange (EINVAL), the old folder is renamed aside to `timetable.old-PID`
/// and the new one into place; a kill between the two renames is repaired at the next start,
/// which puts the old folder back. A sibling left by an import that was killed is removed
/// when the store is next opened (the next import, `departures`, `run`).
public struct TimetableStore {
    public let directory: String
    let dataDirectory: String

    static let stagingPrefix = "timetable.new-"
    /// feed_info.txt's publisher in the kept copy: its pickup_type is then the whole truth
    /// about arrivals (the import that kept it saw every call of every trip).
    package static let keptPublisher = "Lodestone kept timetable"
    static let asidePrefix = "timetable.old-"

    public init(dataDirectory: String) {
        self.dataDirectory = dataDirectory
        directory = dataDirectory + "/timetable"
        tidy()
    }

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

    /// Saves `timetable` in place of the one kept, in one step; false when it cannot be
    /// written (the one kept before stays).
    public func save(_ t: Timetable) -> Bool {
        guard makeDirectories(dataDirectory) else { return false }
        let staging = dataDirectory + "/" + Self.stagingPrefix + "\(getpid())"
        removeTree(staging)
        guard mkdir(staging, 0o700) == 0, Self.writeFeed(t, into: staging), syncFolder(staging), swapIn(staging) else {
            removeTree(staging)
            return false
        }
        return true
    }

    /// Puts the folder `staging` where the kept timetable is, in one step when the file system
    /// can (see the type's comment).
    func swapIn(_ staging: String) -> Bool {
        var status = stat()
        guard lstat(directory, &status) == 0 else {
            guard errno == ENOENT else { return false }
            CrashPoint.step("rename")
            guard rename(staging, directory) == 0 else { return false }
            _ = syncFolder(dataDirectory)
            return true
        }
        CrashPoint.step("rename")
        if lodestone_exchange_paths(staging, directory) == 0 {
            // The old timetable now sits under the staging name.
            _ = syncFolder(dataDirectory)
            removeTree(staging)
            return true
        }
        guard errno == EINVAL || errno == ENOSYS || errno == ENOTSUP else { return false }
        let aside = dataDirectory + "/" + Self.asidePrefix + "\(getpid())"
        removeTree(aside)
        CrashPoint.step("rename")
        guard rename(directory, aside) == 0 else { return false }
        CrashPoint.step("rename")
        guard rename(staging, directory) == 0 else {
            rename(aside, directory)
            return false
        }
        _ = syncFolder(dataDirectory)
        removeTree(aside)
        return true
    }

    /// Removes what an import that was killed left beside the kept timetable, and puts back
    /// a timetable it had renamed aside. An import still running (its process alive) is left
    /// alone.
    public func tidy() {
        for name in directoryEntries(dataDirectory) {
            let staged = name.hasPrefix(Self.stagingPrefix), aside = name.hasPrefix(Self.asidePrefix)
            guard staged || aside, let pid = Int32(name.dropFirst(Self.stagingPrefix.count)), pid > 0 else { continue }
            if pid != getpid() && (kill(pid, 0) == 0 || errno == EPERM) { continue }
            let path = dataDirectory + "/" + name
            var status = stat()
            if aside && lstat(directory, &status) != 0 && errno == ENOENT && rename(path, directory) == 0 {
                _ = syncFolder(dataDirectory)
                continue
            }
            removeTree(path)
        }
    }

    /// Writes the timetable's feed files and its index into `folder`, row by row (a national
    /// timetable's million stop times are never one string); false on any failure.
    static func writeFeed(_ t: Timetable, into folder: String) -> Bool {
        let zone = t.agencyZone ?? t.stops.first?.timeZone ?? "UTC"
        func table(_ name: String, _ header: [String], _ rows: (inout StagedFile) -> Void) -> Bool {
            guard var file = StagedFile(folder + "/" + name) else { return false }
            file.row(header)
            rows(&file)
            return file.close()
        }
        let weekdays = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
        guard table("agency.txt", ["agency_name", "agency_timezone"], { $0.row(["imported", zone]) }) else { return false }
        guard table("feed_info.txt", ["feed_publisher_name", "feed_publisher_url", "feed_lang"], { $0.row([keptPublisher, "http://localhost", "und"]) }) else {
            return false
        }
        guard
            table(
                "stops.txt", ["stop_id", "stop_name", "stop_lat", "stop_lon", "stop_timezone"],
                { file in
                    for stop in t.stops { file.row([stop.id, stop.name, fixed(stop.latitude, 6), fixed(stop.longitude, 6), stop.timeZone]) }
                })
        else { return false }
        guard
            table(
                "routes.txt", ["route_id", "route_short_name", "route_long_name", "route_type"],
                { file in
                    for route in t.routes { file.row([route.id, route.shortName, route.longName, String(route.type)]) }
                })
        else { return false }
        guard
            table(
                "trips.txt", ["route_id", "service_id", "trip_id", "trip_headsign", "shape_id"],
                { file in
                    for trip in t.trips {
                        let shape = trip.shape.flatMap { t.shapes.indices.contains($0) ? t.shapes[$0].id : nil } ?? ""
                        file.row([t.routes[trip.route].id, trip.service, trip.id, trip.headsign, shape])
                    }
                })
        else { return false }
        // Without stop_sequence: a trip's calls are read back in the order of their times.
        guard
            table(
                "stop_times.txt", ["trip_id", "departure_time", "stop_id", "pickup_type", "shape_dist_traveled"],
                { file in
                    for stop in t.stops.indices {
                        for call in t.calls(at: stop) {
                            let clock = "\(call.seconds / 3600):\(zeroPadded(call.seconds / 60 % 60, 2)):\(zeroPadded(call.seconds % 60, 2))"
                            file.row([t.trips[call.trip].id, clock, t.stops[stop].id, call.departs ? "0" : "1", call.along.map { fixed($0, 3) } ?? ""])
                        }
                    }
                })
        else { return false }
        // Only the shapes that place ships (a point list); the others are read back as missing.
        if t.shapes.contains(where: { !$0.points.isEmpty }) {
            guard
                table(
                    "shapes.txt", ["shape_id", "shape_pt_lat", "shape_pt_lon", "shape_pt_sequence", "shape_dist_traveled"],
                    { file in
                        for shape in t.shapes {
                            for (n, point) in shape.points.enumerated() {
                                file.row([shape.id, fixed(point.latitude, 7), fixed(point.longitude, 7), String(n), fixed(point.along, 3)])
                            }
                        }
                    })
            else { return false }
        }
        guard
            table(
                "calendar.txt", ["service_id"] + weekdays + ["start_date", "end_date"],
                { file in
                    for (service, week) in t.calendar.weeks.sorted(by: { $0.key < $1.key }) {
                        file.row([service] + week.days.map { $0 ? "1" : "0" } + [String(week.start), String(week.end)])
                    }
                })
        else { return false }
        guard
            table(
                "calendar_dates.txt", ["service_id", "date", "exception_type"],
                { file in
                    for (service, dates) in t.calendar.exceptions.sorted(by: { $0.key < $1.key }) {
                        for (date, added) in dates.sorted(by: { $0.key < $1.key }) { file.row([service, String(date), added ? "1" : "2"]) }
                    }
                })
        else { return false }
        guard var index = StagedFile(folder + "/index.bin") else { return false }
        index.append(TimetableIndex.encode(t))
        return index.close()
    }

    /// A CSV field, quoted when it holds a comma, a quote or a line break.
    static func field(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        var quoted = "\""
        for character in text { quoted += character == "\"" ? "\"\"" : String(character) }
        return quoted + "\""
    }
}
