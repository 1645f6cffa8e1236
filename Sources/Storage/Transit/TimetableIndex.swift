import LodestoneCore
import Glibc
import LodestoneDomain
import LodestoneEncoding

/// `<dataDir>/timetable/index.bin`: the kept timetable in a compact binary form beside its
/// CSV files, so `lodestone departures` answers in milliseconds instead of parsing a national
/// feed's million stop times on every query. An answer reads only the sections it needs, and a
/// stop's calls only when that stop is asked for; every part is checked (CRC-32) when it is
/// first read, so damage anywhere an answer reads is found, and a cold answer at the busiest
/// stop reads about a tenth of the file.
///
/// Layout, little-endian; a string is a u32 byte count and its UTF-8:
///
///     header    magic "LDTTIDX1", version u32, section count u32, then for each section its
///               offset u32, length u32 and CRC-32 u32; then the CRC-32 of the header before it
///     sections, in this order, each at its offset:
///     meta      counts u32: stops, routes, services, trips, calls, zones; distances u8 (1 when
///               the calls carry their distance along the shape); the agency's time zone
///     services  name, days u8 (bit 0 Monday ... bit 6 Sunday, bit 7 has a week),
///               start u32, end u32 (YYYYMMDD), exception count u32, then (date u32, added u8)
///     shapes    count u32, then each: id, point count u32, points (latitude f64,
///               longitude f64, distance along f64)
///     stops     32 bytes a stop: first call u32, call count u32, CRC-32 of its calls u32,
///               zone u32 (a row of zones), latitude f64, longitude f64
///     texts     stop ids, stop names, zones, route ids, route short names, route long names,
///               trip ids, headsigns: each row's offset u32 and length u32 into the UTF-8 pool
///               after the rows (a text that repeats is kept once)
///     routes    type i32 a route (its texts are in the route text tables)
///     trips     12 bytes a trip: route u32, service u32, shape u32 (0xFFFFFFFF none)
///     calls     trip u32, seconds u32, next stop u32 (0xFFFFFFFF at a trip's end),
///               flags u8 (bit 0: people board), then with distances the distance
///               along its shape f32 (NaN none): stop by stop, each stop's in time order
///
/// The header, meta, services, shapes and stops are checked as the index is opened: damage
/// there refuses it (and the store reads the feed). The other sections are checked when an
/// answer first reads them, the calls stop by stop against the CRC-32 in their stop's row
/// (the calls section's own CRC-32 covers them all, for a check of the whole file);
/// damage found then is reported (a warning with the reason) and what it holds is left out of
/// answers, never shown wrong. CRC-32 costs 3.75 instructions a byte here: checking what is
/// read, not the whole file, is what keeps a cold answer fast, so no weaker checksum is needed.
/// Every number read is checked against what the file can hold before it is used.
public enum TimetableIndex {
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    enum Section: Int, CaseIterable, Sendable {
        case meta, services, shapes, stops
        case stopIDs, stopNames, zones, routeIDs, routeShortNames, routeLongNames, tripIDs, headsigns
        case routes, trips, calls

        /// The name a report of damage gives it.
        var name: String {
            switch self {
            case .meta: "counts"
            case .services: "service calendars"
            case .shapes: "shapes"
            case .stops: "stops"
            case .stopIDs: "stop ids"
            case .stopNames: "stop names"
            case .zones: "time zones"
            case .routeIDs: "route ids"
            case .routeShortNames: "route short names"
            case .routeLongNames: "route long names"
            case .tripIDs: "trip ids"
            case .headsigns: "headsigns"
            case .routes: "routes"
            case .trips: "trips"
            case .calls: "calls"
            }
        }
    }

    static let magic = Array("LDTTIDX1".utf8)
    static let version: UInt32 = 4
    /// A section's place in the header: offset, length, CRC-32.
    static let sectionEntrySize = 12
    static let sectionTableOffset = 16
    static let headerSize = sectionTableOffset + Section.allCases.count * sectionEntrySize + 4
    static let stopSize = 32
    static let tripSize = 12
    static let routeSize = 4
    static let textRowSize = 8
    static let metaCounts = 6
    /// A call's bytes, and the distance's more where the timetable's calls carry one (a feed
    /// without shapes keeps 13 bytes a call: a national one has a million).
    static let callSize = 13
    static let distanceSize = 4
    static func stride(distances: Bool) -> Int { callSize + (distances ? distanceSize : 0) }
    static let noStop = UInt32.max
    /// GTFSImport accepts hours up to 72: nothing later is a time it wrote.
    static let latestSeconds = 73 * 3600
    static let dates = 19_000_101...29_991_231

    // MARK: Writing

    /// The index of `t`, header and all.
    public static func encode(_ t: Timetable) -> [UInt8] {
        // Services by name: the trips' and the calendars', so each trip keeps a small number.
        var names = Set(t.trips.map(\.service))
        names.formUnion(t.calendar.weeks.keys)
        names.formUnion(t.calendar.exceptions.keys)
        let services = names.sorted()
        var serviceNumber: [String: Int] = [:]
        for (number, name) in services.enumerated() { serviceNumber[name] = number }
        var zones: [String] = [], zoneNumber: [String: Int] = [:]
        for stop in t.stops where zoneNumber[stop.timeZone] == nil {
            zoneNumber[stop.timeZone] = zones.count
            zones.append(stop.timeZone)
        }
        let stopCalls = t.stops.indices.map { t.calls(at: $0) }
        let callCount = stopCalls.reduce(0) { $0 + $1.count }
        let distances = stopCalls.contains { $0.contains { $0.along != nil } }

        var sections = [[UInt8]](repeating: [], count: Section.allCases.count)
        func section(_ s: Section, _ fill: (inout ByteWriter) -> Void) {
            var out = ByteWriter()
            fill(&out)
            sections[s.rawValue] = out.bytes
        }
        section(.meta) { out in
            for count in [t.stops.count, t.routes.count, services.count, t.trips.count, callCount, zones.count] { out.u32(count) }
            out.bytes.append(distances ? 1 : 0)
            // The zone the kept feed's agency.txt declares (a timetable made without one: its first stop's).
            out.string(t.agencyZone ?? t.stops.first?.timeZone ?? "")
        }
        section(.services) { out in
            for name in services {
                out.string(name)
                let week = t.calendar.weeks[name]
                var days: UInt8 = week == nil ? 0 : 0x80
                for (day, runs) in (week?.days ?? []).prefix(7).enumerated() where runs { days |= 1 << UInt8(day) }
                out.bytes.append(days)
                out.u32(week?.start ?? 0)
                out.u32(week?.end ?? 0)
                let exceptions = (t.calendar.exceptions[name] ?? [:]).sorted { $0.key < $1.key }
                out.u32(exceptions.count)
                for (date, added) in exceptions {
                    out.u32(date)
                    out.bytes.append(added ? 1 : 0)
                }
            }
        }
        section(.shapes) { out in
            out.u32(t.shapes.count)
            for shape in t.shapes {
                out.string(shape.id)
                out.u32(shape.points.count)
                for point in shape.points {
                    out.u64(point.latitude.bitPattern)
                    out.u64(point.longitude.bitPattern)
                    out.u64(point.along.bitPattern)
                }
            }
        }
        // Each stop's calls encoded once here for their CRC-32 and again straight into the file
        // at the end: a national feed's 13 MB of calls are never held twice.
        var scratch = ByteWriter()
        section(.stops) { out in
            var first = 0
            for (stop, calls) in zip(t.stops, stopCalls) {
                scratch.bytes.removeAll(keepingCapacity: true)
                scratch.calls(calls, distances: distances)
                out.u32(first)
                out.u32(calls.count)
                out.u32(CRC32.checksum(scratch.bytes))
                out.u32(zoneNumber[stop.timeZone] ?? 0)
                out.u64(stop.latitude.bitPattern)
                out.u64(stop.longitude.bitPattern)
                first += calls.count
            }
        }
        section(.stopIDs) { $0.texts(t.stops.lazy.map(\.id)) }
        section(.stopNames) { $0.texts(t.stops.lazy.map(\.name)) }
        section(.zones) { $0.texts(zones) }
        section(.routeIDs) { $0.texts(t.routes.lazy.map(\.id)) }
        section(.routeShortNames) { $0.texts(t.routes.lazy.map(\.shortName)) }
        section(.routeLongNames) { $0.texts(t.routes.lazy.map(\.longName)) }
        section(.tripIDs) { $0.texts(t.trips.lazy.map(\.id)) }
        section(.headsigns) { $0.texts(t.trips.lazy.map(\.headsign)) }
        section(.routes) { out in for route in t.routes { out.u32(route.type) } }
        section(.trips) { out in
            for trip in t.trips {
                out.u32(trip.route)
                out.u32(serviceNumber[trip.service] ?? 0)
                out.u32(trip.shape.map { UInt32(truncatingIfNeeded: $0) } ?? noStop)
            }
        }

        let callsLength = callCount * stride(distances: distances)
        // The header's room first, filled in at the end, then room for the whole file: grown
        // by doubling, a national index would pass through twice its size.
        var out = ByteWriter()
        out.bytes = [UInt8](repeating: 0, count: headerSize)
        out.bytes.reserveCapacity(headerSize + sections.reduce(0) { $0 + $1.count } + callsLength)
        var spans: [(offset: Int, length: Int, checksum: UInt32)] = []
        for (number, bytes) in sections.enumerated() where number != Section.calls.rawValue {
            spans.append((out.bytes.count, bytes.count, CRC32.checksum(bytes)))
            out.bytes.append(contentsOf: bytes)
        }
        let callsStart = out.bytes.count
        var callsChecksum: UInt32 = 0
        for calls in stopCalls {
            let start = out.bytes.count
            out.calls(calls, distances: distances)
            callsChecksum = out.bytes.withUnsafeBytes { CRC32.checksum(UnsafeRawBufferPointer(rebasing: $0[start...]), continuing: callsChecksum) }
        }
        spans.append((callsStart, out.bytes.count - callsStart, callsChecksum))

        var header = ByteWriter()
        header.bytes = magic
        header.u32(version)
        header.u32(spans.count)
        for span in spans {
            header.u32(span.offset)
            header.u32(span.length)
            header.u32(span.checksum)
        }
        header.u32(CRC32.checksum(header.bytes))
        out.bytes.replaceSubrange(0..<headerSize, with: header.bytes)
        return out.bytes
    }

    // MARK: Reading

    /// The timetable kept in the index at `path`: the sections every answer needs checked and
    /// decoded, the others read (and checked) when first asked for, through the file kept open.
    public static func read(_ path: String) throws(Failure) -> Timetable {
        // The index is a store: never read through a link or from a pipe (see GuardedOpen).
        let fd: Int32
        do { fd = try GuardedOpen.store(path, O_RDONLY) } catch {
            throw Failure(description: error.found.map { "refused: it is " + $0 } ?? "cannot be opened: \(String(cString: strerror(error.errno)))")
        }
        var status = stat()
        guard fstat(fd, &status) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw Failure(description: "cannot be read: \(reason)")
        }
        // The file owns the descriptor from here: closed when the last timetable reading it goes.
        let file = IndexFile(.descriptor(fd), size: Int(status.st_size), name: path)
        return try StoredTimetable.open(file, verifying: true)
    }

    /// The timetable in the index bytes `bytes` (header and all), read as from a file; with
    /// `verifying` false the checksums are not compared, so what a crafted file with right
    /// ones would reach is what is tested.
    package static func decode(_ bytes: [UInt8], verifying: Bool = true) throws(Failure) -> Timetable {
        try StoredTimetable.open(IndexFile(.bytes(bytes), size: bytes.count, name: "index"), verifying: verifying)
    }
}
