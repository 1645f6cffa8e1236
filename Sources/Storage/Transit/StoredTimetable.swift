import Glibc
import LodestoneCore
import LodestoneDomain

/// A timetable answered from an open `index.bin` (`TimetableIndex`): the calendars and shapes
/// decoded as it opens, each stop, route and trip made from its bytes when asked for, and a
/// stop found by its id by comparing bytes, so an answer makes the Strings it shows and no
/// others.
final class StoredTimetable: TimetableLookups {
    typealias Failure = TimetableIndex.Failure
    typealias Section = TimetableIndex.Section

    struct Counts: Sendable {
        var stops: Int, routes: Int, services: Int, trips: Int, calls: Int, zones: Int
    }

    let file: IndexFile
    let counts: Counts
    /// A call's bytes (with or without its distance along the shape).
    let callStride: Int
    let serviceNames: [String]
    let shapeCount: Int
    /// The stops' rows, checked as the index opened: every answer starts from a stop.
    let stopRows: [UInt8]

    private init(file: IndexFile, counts: Counts, callStride: Int, serviceNames: [String], shapeCount: Int, stopRows: [UInt8]) {
        (self.file, self.counts, self.callStride, self.serviceNames, self.shapeCount, self.stopRows) = (
            file, counts, callStride, serviceNames, shapeCount, stopRows
        )
    }

    /// The timetable in `file`, once its header and the sections every answer needs are whole.
    static func open(_ file: IndexFile, verifying: Bool) throws(Failure) -> Timetable {
        try file.openHeader(verifying: verifying)
        let spans = file.spans
        func length(_ section: Section) -> Int { spans.indices.contains(section.rawValue) ? spans[section.rawValue].length : 0 }

        var meta = ByteReader(try file.required(.meta), at: 0)
        var numbers: [Int] = []
        for _ in 0..<TimetableIndex.metaCounts { numbers.append(Int(try meta.u32())) }
        let counts = Counts(stops: numbers[0], routes: numbers[1], services: numbers[2], trips: numbers[3], calls: numbers[4], zones: numbers[5])
        let distances = try meta.u8()
        guard distances <= 1 else { throw Failure(description: "its calls' distance flag is \(distances), not 0 or 1") }
        let agency = try meta.string()
        let callStride = TimetableIndex.stride(distances: distances == 1)
        // Each count against the bytes its section holds, before anything is reserved for it.
        let fixed: [(Section, Int, Int)] = [
            (.stops, counts.stops, TimetableIndex.stopSize), (.routes, counts.routes, TimetableIndex.routeSize),
            (.trips, counts.trips, TimetableIndex.tripSize), (.calls, counts.calls, callStride)
        ]
        for (section, count, size) in fixed where count > length(section) / size || count * size != length(section) {
            throw Failure(description: "\(count) \(section.name) where its \(section.name) hold \(length(section)) bytes")
        }
        for section in [Section.stopIDs, .stopNames, .zones, .routeIDs, .routeShortNames, .routeLongNames, .tripIDs, .headsigns] {
            let rows = textRows(section, counts)
            guard rows <= length(section) / TimetableIndex.textRowSize else {
                throw Failure(description: "\(rows) \(section.name), more than its \(length(section)) bytes can hold")
            }
        }
        guard counts.services <= length(.services) / 17 else { throw Failure(description: "\(counts.services) services, more than its bytes can hold") }
        // A trip always has a route to name, even one whose row is damaged.
        guard counts.trips == 0 || counts.routes > 0 else { throw Failure(description: "\(counts.trips) trips and no route") }

        var t = Timetable()
        t.agencyZone = agency.isEmpty ? nil : agency
        let serviceNames = try services(try file.required(.services), count: counts.services, into: &t.calendar)
        t.shapes = try shapes(try file.required(.shapes))
        let stopRows = try file.required(.stops) { validStops($0, counts) }
        let stored = StoredTimetable(
            file: file, counts: counts, callStride: callStride, serviceNames: serviceNames, shapeCount: t.shapes.count, stopRows: stopRows)
        t.stops = TimetableRows(count: counts.stops) { stored.stop($0) }
        t.routes = TimetableRows(count: counts.routes) { stored.route($0) }
        t.trips = TimetableRows(count: counts.trips) { stored.trip($0) }
        t.callSource = { stored.calls(at: $0) }
        t.lookups = stored
        return t
    }

    /// How many rows a text table holds.
    static func textRows(_ section: Section, _ counts: Counts) -> Int {
        switch section {
        case .stopIDs, .stopNames: counts.stops
        case .zones: counts.zones
        case .routeIDs, .routeShortNames, .routeLongNames: counts.routes
        default: counts.trips
        }
    }

    /// What damage the reports found since the index was opened, each with its reason.
    var reports: [String] { file.reports }

    // MARK: Rows

    func stop(_ index: Int) -> Timetable.Stop {
        let at = index * TimetableIndex.stopSize
        guard index >= 0, at + TimetableIndex.stopSize <= stopRows.count else {
            return Timetable.Stop(id: "", name: "", latitude: 0, longitude: 0, timeZone: "UTC")
        }
        let zone = Int(u32(stopRows, at + 12)), place = stopPosition(index)
        return Timetable.Stop(
            id: text(.stopIDs, index), name: text(.stopNames, index), latitude: place.latitude, longitude: place.longitude, timeZone: text(.zones, zone))
    }

    func route(_ index: Int) -> Timetable.Route {
        let rows = file.section(.routes) ?? []
        let type = index >= 0 && index * 4 + 4 <= rows.count ? Int(Int32(bitPattern: u32(rows, index * 4))) : 0
        return Timetable.Route(id: text(.routeIDs, index), shortName: text(.routeShortNames, index), longName: text(.routeLongNames, index), type: type)
    }

    /// A trip; one whose row is damaged, or names what the index does not have, names route 0
    /// and no service (it runs on no day).
    func trip(_ index: Int) -> Timetable.Trip {
        var trip = Timetable.Trip(id: text(.tripIDs, index), route: 0, service: "", headsign: text(.headsigns, index))
        let at = index * TimetableIndex.tripSize
        guard let rows = file.section(.trips), index >= 0, at + TimetableIndex.tripSize <= rows.count else { return trip }
        let route = Int(u32(rows, at)), service = Int(u32(rows, at + 4)), shape = u32(rows, at + 8)
        // Checked here, as the row is read, not over all trips when the section is.
        guard route < counts.routes, serviceNames.indices.contains(service), shape == TimetableIndex.noStop || Int(shape) < shapeCount else {
            file.report(
                "\(file.name): trip \(index) names route \(route) of \(counts.routes), service \(service) of \(counts.services) or shape \(shape) of \(shapeCount)"
            )
            return trip
        }
        (trip.route, trip.service, trip.shape) = (route, serviceNames[service], shape == TimetableIndex.noStop ? nil : Int(shape))
        return trip
    }

    /// Row `row` of a text table ("" where the table is damaged or the row reaches past it).
    func text(_ section: Section, _ row: Int) -> String {
        let rows = Self.textRows(section, counts)
        guard row >= 0, row < rows, let bytes = file.section(section, validate: { Self.validTexts($0, rows: rows) }) else { return "" }
        let pool = rows * TimetableIndex.textRowSize, poolSize = bytes.count - pool
        let offset = Int(u32(bytes, row * TimetableIndex.textRowSize)), length = Int(u32(bytes, row * TimetableIndex.textRowSize + 4))
        // Checked as the row is read: a table's whole check would cost more than a cold answer's reading.
        guard offset <= poolSize, length <= poolSize - offset else {
            file.report("\(file.name): its \(section.name) have text \(row) at \(offset)..<\(offset + length) of \(poolSize) bytes")
            return ""
        }
        return String(decoding: bytes[(pool + offset)..<(pool + offset + length)], as: UTF8.self)
    }

    /// Why a text table cannot be read: rows that do not fit in it.
    static func validTexts(_ bytes: [UInt8], rows: Int) -> String? {
        rows <= bytes.count / TimetableIndex.textRowSize ? nil : "\(rows) rows do not fit in \(bytes.count) bytes"
    }

    // MARK: Lookups

    func stopIndex(id: String) -> Int? {
        let rows = counts.stops
        guard let bytes = file.section(.stopIDs, validate: { Self.validTexts($0, rows: rows) }) else { return nil }
        let wanted = Array(id.utf8), pool = rows * TimetableIndex.textRowSize
        return bytes.withUnsafeBytes { raw -> Int? in
            guard let base = raw.baseAddress else { return nil }
            let poolSize = raw.count - pool
            for row in 0..<rows {
                let offset = Int(u32(raw, row * TimetableIndex.textRowSize)), length = Int(u32(raw, row * TimetableIndex.textRowSize + 4))
                guard length == wanted.count, offset <= poolSize, length <= poolSize - offset else { continue }
                if length == 0 || wanted.withUnsafeBytes({ $0.baseAddress.map { memcmp($0, base + pool + offset, length) == 0 } ?? false }) { return row }
            }
            return nil
        }
    }

    func stopName(_ stop: Int) -> String { text(.stopNames, stop) }

    func stopPosition(_ stop: Int) -> (latitude: Double, longitude: Double) {
        let at = stop * TimetableIndex.stopSize
        guard stop >= 0, at + TimetableIndex.stopSize <= stopRows.count else { return (0, 0) }
        return (Double(bitPattern: u64(stopRows, at + 16)), Double(bitPattern: u64(stopRows, at + 24)))
    }

    /// The trips' services, when every part of a departure (trips, their texts, their routes)
    /// can be read; else nil and no departures, never one with a damaged part.
    func tripServices() -> [Int32]? {
        for section in [Section.tripIDs, .headsigns, .routeIDs, .routeShortNames, .routeLongNames] {
            let rows = Self.textRows(section, counts)
            guard file.section(section, validate: { Self.validTexts($0, rows: rows) }) != nil else { return nil }
        }
        // Each number is checked where it is used (ServiceDays): a service the index lacks runs on no day.
        guard file.section(.routes) != nil, let rows = file.section(.trips) else { return nil }
        return rows.withUnsafeBytes { raw in
            (0..<counts.trips).map { Int32(truncatingIfNeeded: u32(raw, $0 * TimetableIndex.tripSize + 4)) }
        }
    }
}
