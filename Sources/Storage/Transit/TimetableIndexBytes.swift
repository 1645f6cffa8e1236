import LodestoneCore
import LodestoneDomain

/// Little-endian fields appended to a buffer. Numbers the model holds as Int are written
/// truncated to 32 bits: a value that does not fit is refused by the reader, not trapped on here.
struct ByteWriter {
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

    /// Calls as the index keeps them (see `TimetableIndex`).
    mutating func calls(_ calls: [Timetable.Call], distances: Bool) {
        for call in calls {
            u32(call.trip)
            u32(call.seconds)
            u32(call.next.map { UInt32(truncatingIfNeeded: $0) } ?? TimetableIndex.noStop)
            bytes.append(call.departs ? 1 : 0)
            if distances { u32(call.along.map { Float($0).bitPattern } ?? Float.nan.bitPattern) }
        }
    }

    /// A text table: each row's (offset, length) into the pool that follows, a text that
    /// repeats (a zone, a headsign) kept once.
    mutating func texts(_ rows: some Sequence<String>) {
        var pool: [UInt8] = [], placed: [String: Int] = [:]
        for text in rows {
            let offset = placed[text] ?? pool.count
            if placed[text] == nil {
                placed[text] = offset
                pool.append(contentsOf: text.utf8)
            }
            u32(offset)
            u32(text.utf8.count)
        }
        bytes.append(contentsOf: pool)
    }
}

/// Little-endian fields read from a buffer, each checked against the bytes left.
struct ByteReader {
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
