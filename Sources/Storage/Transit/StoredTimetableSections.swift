import LodestoneCore
import LodestoneDomain

/// The sections of `index.bin` decoded whole as it opens (calendars, shapes, the stops'
/// rows checked), and a stop's calls, read when that stop is asked for.
extension StoredTimetable {
    /// The services' names, their weeks and exceptions put into `calendar`.
    static func services(_ bytes: [UInt8], count: Int, into calendar: inout ServiceCalendar) throws(Failure) -> [String] {
        var r = ByteReader(bytes, at: 0)
        var names: [String] = []
        names.reserveCapacity(count)
        for _ in 0..<count {
            let name = try r.string()
            let days = try r.u8()
            let start = Int(try r.u32()), end = Int(try r.u32())
            if days & 0x80 != 0 {
                guard TimetableIndex.dates.contains(start), TimetableIndex.dates.contains(end) else {
                    throw Failure(description: "service '\(name)' has dates that are not YYYYMMDD")
                }
                calendar.weeks[name] = ServiceCalendar.Week(days: (0..<7).map { days & (1 << UInt8($0)) != 0 }, start: start, end: end)
            }
            let exceptionCount = try r.count("exceptions of service '\(name)'", smallest: 5)
            for _ in 0..<exceptionCount {
                let date = Int(try r.u32()), added = try r.u8()
                guard TimetableIndex.dates.contains(date), added <= 1 else {
                    throw Failure(description: "service '\(name)' has an exception that is not a date and a 0 or 1")
                }
                calendar.exceptions[name, default: [:]][date] = added == 1
            }
            names.append(name)
        }
        guard r.remaining == 0 else { throw Failure(description: "its service calendars have \(r.remaining) bytes more than their services") }
        return names
    }

    static func shapes(_ bytes: [UInt8]) throws(Failure) -> [Timetable.Shape] {
        var r = ByteReader(bytes, at: 0)
        let shapeCount = try r.count("shapes", smallest: 8)
        var shapes: [Timetable.Shape] = []
        shapes.reserveCapacity(shapeCount)
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
            shapes.append(Timetable.Shape(id: id, points: points))
        }
        return shapes
    }

    /// Why the stops' rows cannot be read: a position that is none, a zone it does not have,
    /// or calls that are not the next ones (stop after stop, no gap and no overlap: each call
    /// belongs to exactly one stop).
    static func validStops(_ rows: [UInt8], _ counts: Counts) -> String? {
        var expectedFirst = 0
        for stop in 0..<counts.stops {
            let at = stop * TimetableIndex.stopSize
            guard at + TimetableIndex.stopSize <= rows.count else { return "stop \(stop) lies past its rows" }
            let first = Int(u32(rows, at)), count = Int(u32(rows, at + 4)), zone = Int(u32(rows, at + 12))
            let latitude = Double(bitPattern: u64(rows, at + 16)), longitude = Double(bitPattern: u64(rows, at + 24))
            guard abs(latitude) <= 90, abs(longitude) <= 180 else { return "stop \(stop) has no position" }
            guard zone < counts.zones else { return "stop \(stop) names time zone \(zone) of \(counts.zones)" }
            guard first == expectedFirst, count <= counts.calls - first else {
                return "stop \(stop) claims calls \(first)..<\(first + count) of \(counts.calls)"
            }
            expectedFirst += count
        }
        return expectedFirst == counts.calls ? nil : "its stops hold \(expectedFirst) calls where it counts \(counts.calls)"
    }

    /// A stop's calls, read and checked against its row's CRC-32: damaged, or naming a trip,
    /// a time or a stop the index does not have, they are reported (the stop named) and left
    /// out: no calls, never wrong ones.
    func calls(at stop: Int) -> [Timetable.Call] {
        let at = stop * TimetableIndex.stopSize
        guard stop >= 0, at + TimetableIndex.stopSize <= stopRows.count else { return [] }
        let first = Int(u32(stopRows, at)), count = Int(u32(stopRows, at + 4)), checksum = u32(stopRows, at + 8)
        func damaged(_ why: String) -> [Timetable.Call] {
            let id = text(.stopIDs, stop)
            file.report(
                "\(file.name): the calls of stop \(stop) ('\(id)') are damaged (\(why)); it shows no departures (import the timetable again to rebuild the index)"
            )
            return []
        }
        guard let bytes = file.calls(from: first * callStride, count: count * callStride, checksum: checksum) else {
            return damaged("their CRC-32 does not match, or they could not be read")
        }
        var calls: [Timetable.Call] = []
        calls.reserveCapacity(count)
        let distances = callStride > TimetableIndex.callSize
        let bad = bytes.withUnsafeBytes { raw -> Int? in
            for number in 0..<count {
                let offset = number * callStride
                let trip = u32(raw, offset), seconds = u32(raw, offset + 4), next = u32(raw, offset + 8), flags = raw[offset + 12]
                let along = distances ? Float(bitPattern: u32(raw, offset + 13)) : .nan
                guard Int(trip) < counts.trips, Int(seconds) <= TimetableIndex.latestSeconds, next == TimetableIndex.noStop || Int(next) < counts.stops,
                    flags <= 1, along.isNaN || (along.isFinite && along >= 0)
                else { return number }
                calls.append(
                    Timetable.Call(
                        trip: Int(trip), seconds: Int(seconds), next: next == TimetableIndex.noStop ? nil : Int(next), departs: flags & 1 == 1,
                        along: along.isNaN ? nil : Double(along)))
            }
            return nil
        }
        if let bad { return damaged("call \(bad) names a trip, a time or a next stop it does not have") }
        return calls
    }
}

/// A little-endian u32 at byte `at` of `bytes`; 0 past their end (callers check first).
func u32(_ bytes: [UInt8], _ at: Int) -> UInt32 { bytes.withUnsafeBytes { u32($0, at) } }

func u32(_ raw: UnsafeRawBufferPointer, _ at: Int) -> UInt32 {
    guard at >= 0, at <= raw.count - 4 else { return 0 }
    return UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt32.self))
}

func u64(_ bytes: [UInt8], _ at: Int) -> UInt64 { UInt64(u32(bytes, at)) | UInt64(u32(bytes, at + 4)) << 32 }
