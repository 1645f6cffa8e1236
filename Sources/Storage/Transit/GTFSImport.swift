import Glibc
import LodestoneCore
import LodestoneDomain

/// Reads a GTFS static feed (a zip, or its folder unzipped): agency, stops, routes, trips,
/// stop_times, calendar, calendar_dates and the trips' shapes, into a `Timetable`; optionally only the stops near
/// a place and the routes of a type (4 is a ferry), and what serves them, so a national feed
/// fits a small card. Says what was kept and what was skipped, and why; a malformed file is
/// refused with its name and line.
public enum GTFSImport {
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    public struct Filter: Sendable {
        public var near: (latitude: Double, longitude: Double)?
        public var radiusKilometres = 10.0
        public var routeType: Int?
        public init(near: (latitude: Double, longitude: Double)? = nil, radiusKilometres: Double = 10, routeType: Int? = nil) {
            (self.near, self.radiusKilometres, self.routeType) = (near, radiusKilometres, routeType)
        }
    }

    /// What was kept of each table, and what was skipped with the reason.
    public struct Summary: Sendable {
        public var kept: [(table: String, count: Int)] = []
        public var skipped: [String] = []
    }

    /// `progress`: the table being read, its bytes so far and in all (when known).
    public static func read(
        _ source: String, filter: Filter = Filter(),
        progress: ((_ table: String, _ done: Int, _ total: Int?) -> Void)? = nil
    ) throws(Failure) -> (Timetable, Summary) {
        let files = try FeedFiles(source)
        /// Reads the table `name` row by row into `each`; false when the feed has none (and it
        /// is optional). A refusal names the source, the file and the line.
        @discardableResult
        func table(
            _ name: String, required: [String], optional: Bool = false,
            each: @escaping (CSVReader.Row) throws(CSVReader.Failure) -> Void
        ) throws(Failure) -> Bool {
            var csv = CSVReader(file: name, required: required)
            var refusal: CSVReader.Failure?
            let found: Bool
            let size = files.size(name)
            var done = 0
            do throws(Failure) {
                found = try files.read(name) { piece in
                    done += piece.count
                    progress?(name, done, size)
                    do throws(CSVReader.Failure) { try csv.feed(piece, each: each) } catch {
                        refusal = error
                        return false
                    }
                    return true
                }
            } catch {
                // Stopped by a row the import refused: that refusal is the reason, not the stop.
                throw refusal.map { Failure(description: "\(source): \($0.description)") } ?? error
            }
            if let refusal { throw Failure(description: "\(source): \(refusal.description)") }
            guard found else {
                if optional { return false }
                throw Failure(description: "\(source): no \(name) (a GTFS feed needs it)")
            }
            do { try csv.finish(each: each) } catch { throw Failure(description: "\(source): \(error.description)") }
            return true
        }
        var summary = Summary()
        var timetable = Timetable()
        var zones = ZoneCheck()
        // The agencies' zones: a stop without its own takes its agency's (the first one's).
        var agencyZone: String?
        try table("agency.txt", required: ["agency_name", "agency_timezone"]) { row throws(CSVReader.Failure) in
            let zone = row["agency_timezone"]
            try zones.check(zone, "agency_timezone", row, file: "agency.txt")
            if agencyZone == nil { agencyZone = zone }
        }
        let defaultZone = agencyZone ?? "UTC"
        timetable.agencyZone = defaultZone
        // The device's own kept copy says so: its pickup_type already marks every arrival,
        // including trips whose later calls an import's filter left out.
        var keptCopy = false
        try table("feed_info.txt", required: ["feed_publisher_name"], optional: true) { row throws(CSVReader.Failure) in
            if row["feed_publisher_name"] == TimetableStore.keptPublisher { keptCopy = true }
        }

        // Routes first (a route type filter keeps the routes and so their trips and stops).
        var routeIndex: [String: Int] = [:]
        var skippedRoutes = 0
        try table("routes.txt", required: ["route_id", "route_type"]) { row throws(CSVReader.Failure) in
            guard let type = Int(row["route_type"]) else {
                throw CSVReader.Failure(description: "routes.txt line \(row.line): route_type '\(row["route_type"])' is not a number")
            }
            if let wanted = filter.routeType, wanted != type { skippedRoutes += 1; return }
            routeIndex[row["route_id"]] = timetable.routes.count
            timetable.routes.append(Timetable.Route(id: row["route_id"], shortName: row["route_short_name"], longName: row["route_long_name"], type: type))
        }
        if skippedRoutes > 0 { summary.skipped.append("\(skippedRoutes) routes of another type than \(filter.routeType ?? 0)") }

        var stopIndex: [String: Int] = [:]
        var stopIDs = Set<String>()
        var farStops = 0
        try table("stops.txt", required: ["stop_id", "stop_name", "stop_lat", "stop_lon"]) { row throws(CSVReader.Failure) in
            let id = row["stop_id"]
            // A second stop under one id would hide one of them: which one is meant is unknowable.
            guard stopIDs.insert(id).inserted else {
                throw CSVReader.Failure(description: "stops.txt line \(row.line): stop_id '\(id)' a second time (each stop is named once)")
            }
            guard let latitude = Double(row["stop_lat"]), let longitude = Double(row["stop_lon"]), abs(latitude) <= 90, abs(longitude) <= 180 else {
                throw CSVReader.Failure(description: "stops.txt line \(row.line): the position '\(row["stop_lat"]),\(row["stop_lon"])' is not one")
            }
            let zone = row["stop_timezone"]
            if !zone.isEmpty { try zones.check(zone, "stop_timezone", row, file: "stops.txt") }
            if let near = filter.near,
                Geodesy.inverse(latitude1: near.latitude, longitude1: near.longitude, latitude2: latitude, longitude2: longitude).distance > filter
                    .radiusKilometres * 1000
            {
                farStops += 1
                return
            }
            stopIndex[id] = timetable.stops.count
            timetable.stops.append(
                Timetable.Stop(id: id, name: row["stop_name"], latitude: latitude, longitude: longitude, timeZone: zone.isEmpty ? defaultZone : zone))
        }
        if farStops > 0 { summary.skipped.append("\(farStops) stops farther than \(fixed(filter.radiusKilometres, 1)) km") }

        var tripIndex: [String: Int] = [:]
        var tripIDs = Set<String>()
        var otherTrips = 0
        // The shapes the kept trips follow, numbered in the order first named.
        var shapeIndex: [String: Int] = [:]
        try table("trips.txt", required: ["route_id", "service_id", "trip_id"]) { row throws(CSVReader.Failure) in
            let id = row["trip_id"]
            guard tripIDs.insert(id).inserted else {
                throw CSVReader.Failure(description: "trips.txt line \(row.line): trip_id '\(id)' a second time (each trip is named once)")
            }
            guard let route = routeIndex[row["route_id"]] else { otherTrips += 1; return }
            tripIndex[id] = timetable.trips.count
            let shapeID = row["shape_id"]
            var shape: Int?
            if !shapeID.isEmpty {
                shape = shapeIndex[shapeID] ?? shapeIndex.count
                shapeIndex[shapeID] = shape
            }
            timetable.trips.append(Timetable.Trip(id: id, route: route, service: row["service_id"], headsign: row["trip_headsign"], shape: shape))
        }
        tripIDs = []
        if otherTrips > 0 { summary.skipped.append("\(otherTrips) trips of routes not kept") }

        timetable.calls = [[Timetable.Call]](repeating: [], count: timetable.stops.count)
        // Each call's place in its trip (stop_sequence, else its time), to find each call's next
        // stop and the trip's last call once every row is in: beside the calls, 4 bytes each;
        // the calls of kept trips at stops not kept, 8 bytes each (a trip may end there).
        var sequences = [[UInt32]](repeating: [], count: timetable.stops.count)
        var elsewhereCalls: [(trip: UInt32, sequence: UInt32)] = []
        var tripCallCount = [UInt32](repeating: 0, count: timetable.trips.count)
        var calls = 0, elsewhere = 0
        try table("stop_times.txt", required: ["trip_id", "stop_id"]) { row throws(CSVReader.Failure) in
            // Both times held to H:MM:SS, the one not shown too: a feed that writes one wrong is wrong.
            func time(_ column: String) throws(CSVReader.Failure) -> Int? {
                let text = row[column]
                if text.isEmpty { return nil }
                guard let seconds = Self.seconds(text) else {
                    throw CSVReader.Failure(description: "stop_times.txt line \(row.line): \(column) '\(text)' is not a time as H:MM:SS")
                }
                return seconds
            }
            let departure = try time("departure_time"), arrival = try time("arrival_time")
            let sequenceText = row["stop_sequence"], pickup = row["pickup_type"], distanceText = row["shape_dist_traveled"]
            guard sequenceText.isEmpty || Int(sequenceText).map({ $0 >= 0 }) == true else {
                throw CSVReader.Failure(description: "stop_times.txt line \(row.line): stop_sequence '\(sequenceText)' is not a whole number")
            }
            guard pickup.isEmpty || ["0", "1", "2", "3"].contains(pickup) else {
                throw CSVReader.Failure(description: "stop_times.txt line \(row.line): pickup_type '\(pickup)' is not 0, 1, 2 or 3")
            }
            let along = Double(distanceText)
            guard distanceText.isEmpty || along.map({ $0.isFinite && $0 >= 0 && $0 < 1e9 }) == true else {
                throw CSVReader.Failure(description: "stop_times.txt line \(row.line): shape_dist_traveled '\(distanceText)' is not a distance of 0 or more")
            }
            guard let trip = tripIndex[row["trip_id"]] else { elsewhere += 1; return }
            // A timepoint without a time: interpolated by the feed's readers, not shown.
            guard let seconds = departure ?? arrival else { return }
            let sequence = UInt32(clamping: Int(sequenceText) ?? seconds)
            tripCallCount[trip] &+= 1
            guard let stop = stopIndex[row["stop_id"]] else {
                // A call at a stop not kept still orders the trip: its end may be there.
                elsewhereCalls.append((UInt32(trip), sequence))
                elsewhere += 1
                return
            }
            sequences[stop].append(sequence)
            timetable.calls[stop].append(Timetable.Call(trip: trip, seconds: seconds, departs: pickup != "1", along: along))
            calls += 1
        }
        TripOrder.link(&timetable.calls, sequences: sequences, elsewhere: elsewhereCalls, counts: tripCallCount, arrivalsMarked: keptCopy)
        sequences = []
        elsewhereCalls = []
        for index in timetable.calls.indices { timetable.calls[index].sort { $0.seconds < $1.seconds } }
        if elsewhere > 0 { summary.skipped.append("\(elsewhere) stop times at stops or of trips not kept") }

        try readShapes(
            table: { name, required, optional, each throws(Failure) in try table(name, required: required, optional: optional, each: each) },
            named: shapeIndex, into: &timetable, summary: &summary)

        let weekdays = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
        try table("calendar.txt", required: ["service_id"] + weekdays + ["start_date", "end_date"], optional: true) { row throws(CSVReader.Failure) in
            let days = weekdays.map { row[$0] == "1" }
            guard let start = Self.date(row["start_date"]), let end = Self.date(row["end_date"]) else {
                throw CSVReader.Failure(description: "calendar.txt line \(row.line): '\(row["start_date"])' to '\(row["end_date"])' are not dates as YYYYMMDD")
            }
            guard start <= end else {
                throw CSVReader.Failure(description: "calendar.txt line \(row.line): the dates run backwards, \(start) to \(end)")
            }
            timetable.calendar.weeks[row["service_id"]] = ServiceCalendar.Week(days: days, start: start, end: end)
        }
        try table("calendar_dates.txt", required: ["service_id", "date", "exception_type"], optional: true) { row throws(CSVReader.Failure) in
            guard let date = Self.date(row["date"]), let kind = Int(row["exception_type"]), kind == 1 || kind == 2 else {
                throw CSVReader.Failure(description: "calendar_dates.txt line \(row.line): a date as YYYYMMDD and exception_type 1 or 2")
            }
            timetable.calendar.exceptions[row["service_id"], default: [:]][date] = kind == 1
        }
        summary.kept =
            [("stops", timetable.stops.count), ("routes", timetable.routes.count), ("trips", timetable.trips.count), ("stop times", calls)] + summary.kept
        return (timetable, summary)
    }

    /// "H:MM:SS" (hours may pass 24, up to 72) as seconds: digits only, the minutes and
    /// seconds two each and 0-59, so `+8:00:00`, `8:-0:00` and `9h10` are refused.
    package static func seconds(_ text: String) -> Int? {
        let parts = Substring(text).trimmingSpaces().split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, (1...2).contains(parts[0].utf8.count), parts[1].utf8.count == 2, parts[2].utf8.count == 2,
            parts.allSatisfy({ $0.utf8.allSatisfy { (48...57).contains($0) } }),
            let h = Int(parts[0]), let m = Int(parts[1]), let s = Int(parts[2]), h <= 72, m <= 59, s <= 59
        else { return nil }
        return h * 3600 + m * 60 + s
    }

    /// "YYYYMMDD" as a number, when it is a date of the calendar (no 31 April, no 29 February
    /// outside a leap year), between 1900 and 2999.
    package static func date(_ text: String) -> Int? {
        guard text.utf8.count == 8, text.utf8.allSatisfy({ (48...57).contains($0) }), let number = Int(text) else { return nil }
        let year = number / 10_000, month = number / 100 % 100, day = number % 100
        guard (1900...2999).contains(year), (1...12).contains(month), day >= 1, day <= CivilTime.daysIn(month: month, year: year) else { return nil }
        return number
    }

    /// The time zones a feed names, each checked once: a name of the system's time-zone
    /// database, held to what such a name looks like before it is used as a path.
    package struct ZoneCheck {
        var zoneDirectory = "/usr/share/zoneinfo"
        private var known = Set<String>()

        mutating func check(_ name: String, _ column: String, _ row: CSVReader.Row, file: String) throws(CSVReader.Failure) {
            if known.contains(name) { return }
            guard Self.isZoneName(name) else {
                throw CSVReader.Failure(description: "\(file) line \(row.line): \(column) '\(name)' is not a time zone's name (Europe/Zurich)")
            }
            var status = stat()
            guard stat(zoneDirectory + "/" + name, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
                (try? TimeZoneRules(name, zoneDirectory: zoneDirectory)) != nil
            else {
                throw CSVReader.Failure(
                    description: "\(file) line \(row.line): \(column) '\(name)' is not a zone of this system's time-zone database (\(zoneDirectory))")
            }
            known.insert(name)
        }

        /// Letters, digits, `_`, `+` and `-` in parts that start with a letter, joined by `/`:
        /// never `..`, a leading `/` or anything else a path could be turned with.
        package static func isZoneName(_ name: String) -> Bool {
            let parts = name.split(separator: "/", omittingEmptySubsequences: false)
            guard (1...64).contains(name.utf8.count), (1...3).contains(parts.count) else { return false }
            return parts.allSatisfy { part in
                guard let first = part.utf8.first, (65...90).contains(first) || (97...122).contains(first) else { return false }
                return part.utf8.allSatisfy { (65...90).contains($0) || (97...122).contains($0) || (48...57).contains($0) || $0 == 95 || $0 == 43 || $0 == 45 }
            }
        }
    }
}
