import LodestoneCore
import Glibc
import LodestoneDomain
import LodestoneEncoding

/// `<dataDir>/timetable/index.bin`: the kept timetable in a compact binary form beside its
/// CSV files, so `lodestone departures` answers in milliseconds instead of parsing a national
/// feed's million stop times on every query. The small tables (stops, routes, trips, service
/// calendars) are decoded whole; each stop's calls stay bytes until that stop is asked for.
///
/// Layout, little-endian; a string is a u32 byte count and its UTF-8:
///
///     header   magic "LDTTIDX1", version u32, content length u32, CRC-32 of the content u32
///     content  counts u32: stops, routes, services, trips, calls
///              stops     id, name, latitude f64, longitude f64, time zone, first call u32, call count u32
///              routes    id, short name, long name, type i32
///              services  name, days u8 (bit 0 Monday ... bit 6 Sunday, bit 7 has a week),
///                        start u32, end u32 (YYYYMMDD), exception count u32, then (date u32, added u8)
///              trips     id, route u32, service u32, headsign, shape u32 (0xFFFFFFFF none)
///              agency    the agency's time zone ("" when the timetable has none)
///              shapes    count u32, then each: id, point count u32, points (latitude f64,
///                        longitude f64, distance along f64)
///              distances u8: 1 when the calls carry their distance along the shape
///              calls     trip u32, seconds u32, next stop u32 (0xFFFFFFFF at a trip's end),
///                        flags u8 (bit 0: people board), then with distances the distance
///                        along its shape f32 (NaN none): stop by stop, each stop's in time order
///
/// Every number read is checked against what the file can hold before it is used: a damaged
/// or hostile index is refused with the reason (and the store reads the feed instead).
public enum TimetableIndex {
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    static let magic = Array("LDTTIDX1".utf8)
    static let version: UInt32 = 3
    static let headerSize = 20
    /// Where the header keeps the content's CRC-32.
    static let checksumOffset = 16
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
        let stopCalls = t.stops.indices.map { t.calls(at: $0) }
        let callCount = stopCalls.reduce(0) { $0 + $1.count }
        let distances = stopCalls.contains { $0.contains { $0.along != nil } }

        // The header's room first, filled in at the end: a national index is ~10 MB, and
        // joining a header to it afterwards would hold it twice.
        var out = ByteWriter()
        out.bytes = [UInt8](repeating: 0, count: headerSize)
        out.bytes.reserveCapacity(headerSize + 64 * (t.stops.count + t.trips.count) + stride(distances: distances) * callCount)
        for count in [t.stops.count, t.routes.count, services.count, t.trips.count, callCount] { out.u32(count) }
        var first = 0
        for (stop, calls) in zip(t.stops, stopCalls) {
            out.string(stop.id)
            out.string(stop.name)
            out.u64(stop.latitude.bitPattern)
            out.u64(stop.longitude.bitPattern)
            out.string(stop.timeZone)
            out.u32(first)
            out.u32(calls.count)
            first += calls.count
        }
        for route in t.routes {
            out.string(route.id)
            out.string(route.shortName)
            out.string(route.longName)
            out.u32(route.type)
        }
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
        for trip in t.trips {
            out.string(trip.id)
            out.u32(trip.route)
            out.u32(serviceNumber[trip.service] ?? 0)
            out.string(trip.headsign)
            out.u32(trip.shape.map { UInt32(truncatingIfNeeded: $0) } ?? noStop)
        }
        // The zone the kept feed's agency.txt declares (a timetable made without one: its first stop's).
        out.string(t.agencyZone ?? t.stops.first?.timeZone ?? "")
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
        out.bytes.append(distances ? 1 : 0)
        for calls in stopCalls {
            for call in calls {
                out.u32(call.trip)
                out.u32(call.seconds)
                out.u32(call.next.map { UInt32(truncatingIfNeeded: $0) } ?? noStop)
                out.bytes.append(call.departs ? 1 : 0)
                if distances { out.u32(call.along.map { Float($0).bitPattern } ?? Float.nan.bitPattern) }
            }
        }
        var header = ByteWriter()
        header.bytes = magic
        header.u32(Int(version))
        header.u32(out.bytes.count - headerSize)
        header.u32(Int(out.bytes.withUnsafeBytes { CRC32.checksum(UnsafeRawBufferPointer(rebasing: $0[headerSize...])) }))
        out.bytes.replaceSubrange(0..<headerSize, with: header.bytes)
        return out.bytes
    }

    // MARK: Reading

    /// The timetable kept in the index at `path`, its calls decoded stop by stop when asked.
    public static func read(_ path: String) throws(Failure) -> Timetable {
        let content = try verifiedContent(path)
        return try decode(content)
    }

    /// The content after the header, once its length and CRC-32 say it is whole and unchanged.
    static func verifiedContent(_ path: String) throws(Failure) -> [UInt8] {
        // The index is a store: never read through a link or from a pipe (see GuardedOpen).
        let fd: Int32
        do { fd = try GuardedOpen.store(path, O_RDONLY) } catch {
            throw Failure(description: error.found.map { "refused: it is " + $0 } ?? "cannot be opened: \(String(cString: strerror(error.errno)))")
        }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw Failure(description: "cannot be read: \(String(cString: strerror(errno)))") }
        let header = readBytes(fd, count: headerSize)
        guard header.count == headerSize else { throw Failure(description: "\(status.st_size) bytes, shorter than its header") }
        guard Array(header.prefix(magic.count)) == magic else { throw Failure(description: "not a timetable index (its first bytes are wrong)") }
        var fields = ByteReader(header, at: magic.count)
        let fileVersion = try fields.u32()
        guard fileVersion == version else { throw Failure(description: "version \(fileVersion), where this lodestone reads \(version)") }
        let length = Int(try fields.u32()), checksum = try fields.u32()
        // The size first, so a truncated file is named as one and never allocates what it claims.
        guard Int(status.st_size) == headerSize + length else {
            throw Failure(description: "\(status.st_size) bytes where its header says \(headerSize + length): truncated or overwritten")
        }
        let content = readBytes(fd, count: length)
        guard content.count == length else { throw Failure(description: "shorter than its header says while it was read") }
        guard CRC32.checksum(content) == checksum else { throw Failure(description: "damaged: its CRC-32 does not match its content") }
        return content
    }

    /// Up to `count` bytes from `fd`, fewer only at the end of the file or on an error.
    static func readBytes(_ fd: Int32, count: Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            initialized = 0
            while initialized < count, let base = buffer.baseAddress {
                let n = Glibc.read(fd, base + initialized, count - initialized)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                initialized += n
            }
        }
    }

    /// A stop's calls: where they start among all calls, and how many.
    struct CallSlice: Sendable {
        var first: Int
        var count: Int
    }

    package static func decode(_ content: [UInt8]) throws(Failure) -> Timetable {
        var r = ByteReader(content, at: 0)
        // The smallest record of each table bounds its count by the bytes left, so a count
        // claiming billions is refused before anything is reserved for it.
        let stopCount = try r.count("stops", smallest: 36)
        let routeCount = try r.count("routes", smallest: 16)
        let serviceCount = try r.count("services", smallest: 17)
        let tripCount = try r.count("trips", smallest: 20)
        let callCount = try r.count("calls", smallest: callSize)

        var t = Timetable()
        var slices: [CallSlice] = []
        t.stops.reserveCapacity(stopCount)
        slices.reserveCapacity(stopCount)
        var expectedFirst = 0
        for number in 0..<stopCount {
            let id = try r.string(), name = try r.string()
            let latitude = Double(bitPattern: try r.u64()), longitude = Double(bitPattern: try r.u64())
            let zone = try r.string()
            let first = Int(try r.u32()), count = Int(try r.u32())
            guard abs(latitude) <= 90, abs(longitude) <= 180 else { throw Failure(description: "stop \(number) ('\(id)') has no position") }
            // Stop after stop, no gap and no overlap: each call belongs to exactly one stop.
            guard first == expectedFirst, count <= callCount - first else {
                throw Failure(description: "stop \(number) ('\(id)') claims calls \(first)..<\(first + count) of \(callCount)")
            }
            expectedFirst += count
            t.stops.append(Timetable.Stop(id: id, name: name, latitude: latitude, longitude: longitude, timeZone: zone))
            slices.append(CallSlice(first: first, count: count))
        }
        guard expectedFirst == callCount else { throw Failure(description: "its stops hold \(expectedFirst) calls where it counts \(callCount)") }

        t.routes.reserveCapacity(routeCount)
        for _ in 0..<routeCount {
            let id = try r.string(), short = try r.string(), long = try r.string()
            let type = Int(Int32(bitPattern: try r.u32()))
            t.routes.append(Timetable.Route(id: id, shortName: short, longName: long, type: type))
        }

        var services: [String] = []
        services.reserveCapacity(serviceCount)
        for _ in 0..<serviceCount {
            let name = try r.string()
            let days = try r.u8()
            let start = Int(try r.u32()), end = Int(try r.u32())
            if days & 0x80 != 0 {
                guard dates.contains(start), dates.contains(end) else { throw Failure(description: "service '\(name)' has dates that are not YYYYMMDD") }
                t.calendar.weeks[name] = ServiceCalendar.Week(days: (0..<7).map { days & (1 << UInt8($0)) != 0 }, start: start, end: end)
            }
            let exceptionCount = try r.count("exceptions of service '\(name)'", smallest: 5)
            for _ in 0..<exceptionCount {
                let date = Int(try r.u32()), added = try r.u8()
                guard dates.contains(date), added <= 1 else { throw Failure(description: "service '\(name)' has an exception that is not a date and a 0 or 1") }
                t.calendar.exceptions[name, default: [:]][date] = added == 1
            }
            services.append(name)
        }

        t.trips.reserveCapacity(tripCount)
        for number in 0..<tripCount {
            let id = try r.string()
            let route = Int(try r.u32()), service = Int(try r.u32())
            let headsign = try r.string()
            let shape = try r.u32()
            guard route < routeCount, service < serviceCount else {
                throw Failure(description: "trip \(number) ('\(id)') names route \(route) of \(routeCount) or service \(service) of \(serviceCount)")
            }
            t.trips.append(Timetable.Trip(id: id, route: route, service: services[service], headsign: headsign, shape: shape == noStop ? nil : Int(shape)))
        }

        let agency = try r.string()
        t.agencyZone = agency.isEmpty ? nil : agency

        let shapeCount = try r.count("shapes", smallest: 8)
        t.shapes.reserveCapacity(shapeCount)
        for number in 0..<shapeCount {
            let id = try r.string()
            let pointCount = try r.count("points of shape '\(id)'", smallest: 24)
            var points: [Timetable.Shape.Point] = []
            points.reserveCapacity(pointCount)
            for _ in 0..<pointCount {
                let point = Timetable.Shape.Point(
                    latitude: Double(bitPattern: try r.u64()), longitude: Double(bitPattern: try r.u64()), along: Double(bitPattern: try r.u64()))
                guard abs(point.latitude) <= 90, abs(point.longitude) <= 180, point.along.isFinite, point.along >= 0, point.along >= (points.last?.along ?? 0)
                else {
                    throw Failure(description: "shape \(number) ('\(id)') has a point that is not a position with a growing distance along")
                }
                points.append(point)
            }
            t.shapes.append(Timetable.Shape(id: id, points: points))
        }
        if let bad = t.trips.firstIndex(where: { $0.shape.map { $0 >= shapeCount } ?? false }) {
            throw Failure(description: "trip \(bad) names a shape of \(shapeCount) it does not have")
        }

        let distanceFlag = try r.u8()
        guard distanceFlag <= 1 else { throw Failure(description: "its calls' distance flag is \(distanceFlag), not 0 or 1") }
        let size = stride(distances: distanceFlag == 1)
        // What is left is the calls, exactly: checked whole here, decoded stop by stop later.
        let callsStart = r.position
        guard content.count - callsStart == callCount * size else {
            throw Failure(description: "\(content.count - callsStart) bytes of calls where it counts \(callCount) calls of \(size) bytes")
        }
        if let bad = firstBadCall(content, from: callsStart, count: callCount, size: size, trips: tripCount, stops: stopCount) {
            throw Failure(description: "call \(bad) names a trip, a time or a next stop it does not have")
        }
        let stopSlices = slices
        t.callSource = { stop in
            guard stopSlices.indices.contains(stop) else { return [] }
            let slice = stopSlices[stop]
            return TimetableIndex.calls(content, from: callsStart + slice.first * size, count: slice.count, size: size, trips: tripCount, stops: stopCount)
        }
        return t
    }

    /// The first call whose trip is not one of the trips or whose time is not a GTFS time;
    /// one pass over the raw bytes, so the check costs no allocation per call.
    static func firstBadCall(_ content: [UInt8], from start: Int, count: Int, size: Int, trips: Int, stops: Int) -> Int? {
        guard start >= 0, count >= 0, size >= callSize, start + count * size <= content.count else { return 0 }
        return content.withUnsafeBytes { raw -> Int? in
            for number in 0..<count {
                let (trip, seconds, next, flags, along) = fields(raw, at: start + number * size, distance: size > callSize)
                if !(along.isNaN || (along.isFinite && along >= 0)) || Int(trip) >= trips || Int(seconds) > latestSeconds
                    || (next != noStop && Int(next) >= stops) || flags > 1
                {
                    return number
                }
            }
            return nil
        }
    }

    /// One call's fields, read where they lie (the distance NaN where the calls carry none).
    static func fields(_ raw: UnsafeRawBufferPointer, at offset: Int, distance: Bool) -> (
        trip: UInt32, seconds: UInt32, next: UInt32, flags: UInt8, along: Float
    ) {
        (
            UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self)),
            UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)),
            UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset + 8, as: UInt32.self)),
            raw[offset + 12],
            distance ? Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset + 13, as: UInt32.self))) : .nan
        )
    }

    /// One stop's calls. Checked again, so that even content changed after `decode` could only
    /// lose calls, never trap.
    static func calls(_ content: [UInt8], from start: Int, count: Int, size: Int, trips: Int, stops: Int) -> [Timetable.Call] {
        guard start >= 0, count >= 0, size >= callSize, start + count * size <= content.count else { return [] }
        return content.withUnsafeBytes { raw in
            var calls: [Timetable.Call] = []
            calls.reserveCapacity(count)
            for number in 0..<count {
                let (trip, seconds, next, flags, along) = fields(raw, at: start + number * size, distance: size > callSize)
                guard Int(trip) < trips && Int(seconds) <= latestSeconds else { continue }
                calls.append(
                    Timetable.Call(
                        trip: Int(trip), seconds: Int(seconds), next: next != noStop && Int(next) < stops ? Int(next) : nil,
                        departs: flags & 1 == 1, along: along.isFinite && along >= 0 ? Double(along) : nil))
            }
            return calls
        }
    }
}

/// Little-endian fields appended to a buffer. Numbers the model holds as Int are written
/// truncated to 32 bits: a value that does not fit is refused by the reader, not trapped on here.
fileprivate struct ByteWriter {
    var bytes: [UInt8] = []

    mutating func u32(_ value: Int) { u32(UInt32(truncatingIfNeeded: value)) }

    mutating func u32(_ value: UInt32) {
        bytes.append(UInt8(truncatingIfNeeded: value))
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
        bytes.append(UInt8(truncatingIfNeeded: value >> 16))
        bytes.append(UInt8(truncatingIfNeeded: value >> 24))
    }

    mutating func u64(_ value: UInt64) {
        u32(UInt32(truncatingIfNeeded: value))
        u32(UInt32(truncatingIfNeeded: value >> 32))
    }

    mutating func string(_ text: String) {
        u32(text.utf8.count)
        bytes.append(contentsOf: text.utf8)
    }
}

/// Little-endian fields read from a buffer, each checked against the bytes left.
fileprivate struct ByteReader {
    let bytes: [UInt8]
    private(set) var position: Int

    init(_ bytes: [UInt8], at position: Int) { (self.bytes, self.position) = (bytes, position) }

    var remaining: Int { bytes.count - position }

    mutating func u8() throws(TimetableIndex.Failure) -> UInt8 {
        guard remaining >= 1 else { throw ended() }
        defer { position += 1 }
        return bytes[position]
    }

    mutating func u32() throws(TimetableIndex.Failure) -> UInt32 {
        guard remaining >= 4 else { throw ended() }
        defer { position += 4 }
        return UInt32(bytes[position]) | UInt32(bytes[position + 1]) << 8 | UInt32(bytes[position + 2]) << 16 | UInt32(bytes[position + 3]) << 24
    }

    mutating func u64() throws(TimetableIndex.Failure) -> UInt64 {
        let low = try u32(), high = try u32()
        return UInt64(low) | UInt64(high) << 32
    }

    mutating func string() throws(TimetableIndex.Failure) -> String {
        let length = Int(try u32())
        guard length <= remaining else {
            throw TimetableIndex.Failure(description: "a text of \(length) bytes at byte \(position) where \(remaining) are left")
        }
        defer { position += length }
        return String(decoding: bytes[position..<(position + length)], as: UTF8.self)
    }

    /// A count of records of at least `smallest` bytes each, refused when the bytes left
    /// could not hold that many.
    mutating func count(_ what: String, smallest: Int) throws(TimetableIndex.Failure) -> Int {
        let count = Int(try u32())
        guard count <= remaining / smallest else {
            throw TimetableIndex.Failure(description: "\(count) \(what), more than its \(remaining) bytes left can hold")
        }
        return count
    }

    private func ended() -> TimetableIndex.Failure {
        TimetableIndex.Failure(description: "ends at byte \(position), inside a record")
    }
}
