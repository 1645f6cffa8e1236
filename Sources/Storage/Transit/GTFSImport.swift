import Glibc
import LodestoneCore
import LodestoneDomain

/// Reads a GTFS static feed (a zip, or its folder unzipped): agency, stops, routes, trips,
/// stop_times, calendar and calendar_dates, into a `Timetable`; optionally only the stops near
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

    /// The largest file read from a feed (a national stop_times.txt is a few hundred MB).
    static let fileLimit = 1 << 30

    public static func read(_ source: String, filter: Filter = Filter()) throws(Failure) -> (Timetable, Summary) {
        let files = try sourceFiles(source)
        func table(_ name: String, required: [String], optional: Bool = false) throws(Failure) -> CSVReader? {
            guard let bytes = try files(name) else {
                if optional { return nil }
                throw Failure(description: "\(source): no \(name) (a GTFS feed needs it)")
            }
            do {
                let csv = try CSVReader(file: name, bytes: bytes)
                try csv.require(required)
                return csv
            } catch {
                throw Failure(description: "\(source): \(error.description)")
            }
        }
        var summary = Summary()
        var timetable = Timetable()
        // The agencies' zones: a stop without its own takes its agency's (the first one's).
        let agencies = try table("agency.txt", required: ["agency_name", "agency_timezone"])
        let agencyZone = agencies.flatMap { a in a.rows.first.map { a.value($0.fields, "agency_timezone") } } ?? "UTC"
        guard (try? TimeZoneRules(agencyZone)) != nil else { throw Failure(description: "\(source): agency.txt names an unknown time zone '\(agencyZone)'") }

        // Routes first (a route type filter keeps the routes and so their trips and stops).
        let routesCSV = try table("routes.txt", required: ["route_id", "route_type"])
        var routeIndex: [String: Int] = [:]
        var skippedRoutes = 0
        for row in routesCSV?.rows ?? [] {
            guard let csv = routesCSV else { break }
            guard let type = Int(csv.value(row.fields, "route_type")) else {
                throw Failure(description: "\(source): routes.txt line \(row.line): route_type '\(csv.value(row.fields, "route_type"))' is not a number")
            }
            if let wanted = filter.routeType, wanted != type { skippedRoutes += 1; continue }
            routeIndex[csv.value(row.fields, "route_id")] = timetable.routes.count
            timetable.routes.append(Timetable.Route(id: csv.value(row.fields, "route_id"), shortName: csv.value(row.fields, "route_short_name"),
                                                    longName: csv.value(row.fields, "route_long_name"), type: type))
        }
        if skippedRoutes > 0 { summary.skipped.append("\(skippedRoutes) routes of another type than \(filter.routeType ?? 0)") }

        let stopsCSV = try table("stops.txt", required: ["stop_id", "stop_name", "stop_lat", "stop_lon"])
        var stopIndex: [String: Int] = [:]
        var farStops = 0
        for row in stopsCSV?.rows ?? [] {
            guard let csv = stopsCSV else { break }
            guard let latitude = Double(csv.value(row.fields, "stop_lat")), let longitude = Double(csv.value(row.fields, "stop_lon")),
                  abs(latitude) <= 90, abs(longitude) <= 180 else {
                throw Failure(description: "\(source): stops.txt line \(row.line): the position '\(csv.value(row.fields, "stop_lat")),\(csv.value(row.fields, "stop_lon"))' is not one")
            }
            if let near = filter.near,
               Geodesy.inverse(latitude1: near.latitude, longitude1: near.longitude, latitude2: latitude, longitude2: longitude).distance > filter.radiusKilometres * 1000 {
                farStops += 1
                continue
            }
            let zone = csv.value(row.fields, "stop_timezone")
            stopIndex[csv.value(row.fields, "stop_id")] = timetable.stops.count
            timetable.stops.append(Timetable.Stop(id: csv.value(row.fields, "stop_id"), name: csv.value(row.fields, "stop_name"),
                                                  latitude: latitude, longitude: longitude, timeZone: zone.isEmpty ? agencyZone : zone))
        }
        if farStops > 0 { summary.skipped.append("\(farStops) stops farther than \(fixed(filter.radiusKilometres, 1)) km") }

        let tripsCSV = try table("trips.txt", required: ["route_id", "service_id", "trip_id"])
        var tripIndex: [String: Int] = [:]
        var otherTrips = 0
        for row in tripsCSV?.rows ?? [] {
            guard let csv = tripsCSV else { break }
            guard let route = routeIndex[csv.value(row.fields, "route_id")] else { otherTrips += 1; continue }
            tripIndex[csv.value(row.fields, "trip_id")] = timetable.trips.count
            timetable.trips.append(Timetable.Trip(id: csv.value(row.fields, "trip_id"), route: route, service: csv.value(row.fields, "service_id"),
                                                  headsign: csv.value(row.fields, "trip_headsign")))
        }
        if otherTrips > 0 { summary.skipped.append("\(otherTrips) trips of routes not kept") }

        let timesCSV = try table("stop_times.txt", required: ["trip_id", "stop_id"])
        timetable.calls = [[Timetable.Call]](repeating: [], count: timetable.stops.count)
        var calls = 0, elsewhere = 0
        for row in timesCSV?.rows ?? [] {
            guard let csv = timesCSV else { break }
            guard let trip = tripIndex[csv.value(row.fields, "trip_id")], let stop = stopIndex[csv.value(row.fields, "stop_id")] else { elsewhere += 1; continue }
            let text = csv.value(row.fields, "departure_time").isEmpty ? csv.value(row.fields, "arrival_time") : csv.value(row.fields, "departure_time")
            guard !text.isEmpty else { continue }   // a timepoint without a time: interpolated by the feed's readers, not shown
            guard let seconds = Self.seconds(text) else {
                throw Failure(description: "\(source): stop_times.txt line \(row.line): '\(text)' is not a time as H:MM:SS")
            }
            timetable.calls[stop].append(Timetable.Call(trip: trip, seconds: seconds))
            calls += 1
        }
        for index in timetable.calls.indices { timetable.calls[index].sort { $0.seconds < $1.seconds } }
        if elsewhere > 0 { summary.skipped.append("\(elsewhere) stop times at stops or of trips not kept") }

        if let calendar = try table("calendar.txt", required: ["service_id", "monday", "tuesday", "wednesday", "thursday", "friday",
                                                                "saturday", "sunday", "start_date", "end_date"], optional: true) {
            for row in calendar.rows {
                let days = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"].map { calendar.value(row.fields, $0) == "1" }
                guard let start = Int(calendar.value(row.fields, "start_date")), let end = Int(calendar.value(row.fields, "end_date")),
                      (19_000_101...29_991_231).contains(start), (19_000_101...29_991_231).contains(end) else {
                    throw Failure(description: "\(source): calendar.txt line \(row.line): dates must be YYYYMMDD")
                }
                timetable.calendar.weeks[calendar.value(row.fields, "service_id")] = ServiceCalendar.Week(days: days, start: start, end: end)
            }
        }
        if let dates = try table("calendar_dates.txt", required: ["service_id", "date", "exception_type"], optional: true) {
            for row in dates.rows {
                guard let date = Int(dates.value(row.fields, "date")), (19_000_101...29_991_231).contains(date),
                      let kind = Int(dates.value(row.fields, "exception_type")), kind == 1 || kind == 2 else {
                    throw Failure(description: "\(source): calendar_dates.txt line \(row.line): a date as YYYYMMDD and exception_type 1 or 2")
                }
                timetable.calendar.exceptions[dates.value(row.fields, "service_id"), default: [:]][date] = kind == 1
            }
        }
        summary.kept = [("stops", timetable.stops.count), ("routes", timetable.routes.count), ("trips", timetable.trips.count), ("stop times", calls)]
        return (timetable, summary)
    }

    /// "H:MM:SS" (hours may pass 24) as seconds.
    static func seconds(_ text: String) -> Int? {
        let parts = text.split(separator: ":")
        guard parts.count == 3, let h = Int(parts[0].trimmingSpaces()), let m = Int(parts[1]), let s = Int(parts[2]),
              (0...72).contains(h), (0...59).contains(m), (0...59).contains(s) else { return nil }
        return h * 3600 + m * 60 + s
    }

    /// A way to read the feed's files by name: from a zip archive or a folder.
    static func sourceFiles(_ source: String) throws(Failure) -> (String) throws(Failure) -> [UInt8]? {
        var info = stat()
        guard stat(source, &info) == 0 else { throw Failure(description: "\(source): \(String(cString: strerror(errno)))") }
        if info.st_mode & S_IFMT == S_IFDIR {
            return { (name: String) throws(Failure) -> [UInt8]? in
                let path = source + "/" + name
                guard fileExists(path) else { return nil }
                guard let bytes = readFileBytes(path) else { throw Failure(description: "\(path) cannot be read") }
                return bytes
            }
        }
        guard let bytes = readFileBytes(source) else { throw Failure(description: "\(source) cannot be read") }
        let archive: ZipArchive
        do { archive = try ZipArchive(bytes) } catch { throw Failure(description: "\(source): \(error.description)") }
        return { (name: String) throws(Failure) -> [UInt8]? in
            guard let entry = archive.entry(name) else { return nil }
            do throws(ZipArchive.Failure) { return try archive.contents(entry, limit: fileLimit) } catch {
                throw Failure(description: "\(source): \(error.description)")
            }
        }
    }
}
