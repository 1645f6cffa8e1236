import LodestoneCore

/// One JSON line written as bytes into storage kept from line to line: no String is built and,
/// once the storage has grown to the longest line, nothing is allocated. Every JSON the device
/// writes goes through it (the socket's reports, the files, `--json`). Numbers that are not
/// finite leave their field out rather than write invalid JSON or a fake zero.
///
/// The bytes are written through a pointer into storage the buffer alone owns. It cannot be
/// copied (two copies would write into one storage), so no write has to check who else holds
/// it: a field costs a few instructions per byte.
public struct JSONBuffer: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    public private(set) var count = 0
    /// Per nesting level (bit `depth`), whether a value was written there, so the next needs a comma.
    private var written: UInt64 = 0
    private var depth = 0

    public init(capacity: Int = 512) {
        self.capacity = max(capacity, 64)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// Empties the line, keeping its storage.
    public mutating func reset() {
        count = 0
        written = 0
        depth = 0
    }

    /// The line's bytes, for as long as `body` runs.
    public func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try body(UnsafeBufferPointer(start: base, count: count))
    }

    /// The line as text.
    public var text: String { withBytes { String(decoding: $0, as: UTF8.self) } }

    // MARK: Structure

    @inline(__always)
    public mutating func beginObject() {
        var next = cursor(2)
        if comma() {
            next.pointee = UInt8(ascii: ",")
            next += 1
        }
        next.pointee = UInt8(ascii: "{")
        commit(next + 1)
        nest()
    }

    @inline(__always)
    public mutating func beginObject(_ key: StaticString) {
        self.key(key)
        open(UInt8(ascii: "{"))
    }

    @inline(__always)
    public mutating func endObject() { close(UInt8(ascii: "}")) }

    @inline(__always)
    public mutating func beginArray(_ key: StaticString) {
        self.key(key)
        open(UInt8(ascii: "["))
    }

    @inline(__always)
    public mutating func endArray() { close(UInt8(ascii: "]")) }

    /// `{"class":"NAME"`: a gpsd report's opening.
    @inline(__always)
    public mutating func beginReport(_ name: StaticString) {
        beginObject()
        string("class", name)
    }

    // MARK: Fields

    @inline(__always)
    public mutating func string(_ key: StaticString, _ value: StaticString) {
        let next = field(key, room: value.utf8CodeUnitCount + 2)
        next.pointee = UInt8(ascii: "\"")
        let end = copy(value, to: next + 1)
        end.pointee = UInt8(ascii: "\"")
        commit(end + 1)
    }

    public mutating func string(_ key: StaticString, _ value: String?) {
        guard let value else { return }
        self.key(key)
        quote(value)
    }

    @inline(__always)
    public mutating func number(_ key: StaticString, _ value: Double, decimals: Int = 3) {
        guard value.isFinite else { return }
        let next = field(key, room: DecimalText.maximumCompactLength)
        commit(next + DecimalText.writeCompact(value, decimals, to: next))
    }

    @inline(__always)
    public mutating func integer(_ key: StaticString, _ value: Int) {
        let next = field(key, room: 20)
        commit(next + DecimalText.writeInteger(value, to: next))
    }

    /// A UTC time (seconds since 1970) as ISO-8601 with milliseconds and `Z`, as gpsd writes times.
    public mutating func time(_ key: StaticString, _ utc: Double) {
        let next = field(key, room: 26)
        next.pointee = UInt8(ascii: "\"")
        let end = next + 1 + clock.write(utc, to: next + 1)
        end.pointee = UInt8(ascii: "\"")
        commit(end + 1)
    }

    /// A time as ISO-8601 in `zone`'s local time with its offset ("2026-06-21T05:31:12+02:00"),
    /// as the sky's and the departures' reports give times to people.
    public mutating func localTime(_ key: StaticString, _ utc: Double, zone: TimeZoneRules) {
        let next = field(key, room: TimeZoneRules.iso8601Length + 2)
        next.pointee = UInt8(ascii: "\"")
        let end = next + 1 + zone.writeISO8601(utc, to: next + 1)
        end.pointee = UInt8(ascii: "\"")
        commit(end + 1)
    }

    /// Writes times, remembering the last day's date (reports in a day share it).
    private var clock = ISO8601Writer()

    @inline(__always)
    public mutating func bool(_ key: StaticString, _ value: Bool) {
        let next = field(key, room: 5)
        commit(value ? copy("true", to: next) : copy("false", to: next))
    }

    public mutating func null(_ key: StaticString) {
        let next = field(key, room: 4)
        commit(copy("null", to: next))
    }

    /// A value that is already JSON (a nested object or array written elsewhere).
    public mutating func raw(_ key: StaticString, _ json: String) {
        self.key(key)
        putText(json)
    }

    /// A string as an array element.
    public mutating func element(_ value: String) {
        separate()
        quote(value)
    }

    /// A whole number as an array element.
    public mutating func element(integer value: Int) {
        separate()
        putInteger(value)
    }

    // MARK: Keys named at run time (the String-keyed writer)

    public mutating func key(_ name: String) {
        separate()
        quote(name)
        reserve(1)
        put(UInt8(ascii: ":"))
    }

    public mutating func value(number: Double, decimals: Int) { putNumber(number, decimals) }
    public mutating func value(integer: Int) { putInteger(integer) }
    public mutating func value(string: String) { quote(string) }
    public mutating func value(bool: Bool) { literal(bool ? "true" : "false") }
    public mutating func value(raw: String) { putText(raw) }

    // MARK: Writing

    @inline(__always)
    private mutating func key(_ name: StaticString) {
        let end = field(name, room: 0)
        commit(end)
    }

    /// `,"name":` (the comma when the level already holds a value), with room for `room` more
    /// bytes after it: one check of the storage per field. Returns where the value goes; the
    /// caller commits where it ends.
    @inline(__always)
    private mutating func field(_ name: StaticString, room: Int) -> UnsafeMutablePointer<UInt8> {
        var next = cursor(name.utf8CodeUnitCount &+ 4 &+ room)
        if comma() {
            next.pointee = UInt8(ascii: ",")
            next += 1
        }
        next.pointee = UInt8(ascii: "\"")
        next = copy(name, to: next + 1)
        next[0] = UInt8(ascii: "\"")
        next[1] = UInt8(ascii: ":")
        return next + 2
    }

    /// Whether this level already holds a value (so the next needs a comma); marks that it now does.
    @inline(__always)
    private mutating func comma() -> Bool {
        let bit: UInt64 = 1 &<< UInt64(depth & 63)
        defer { written |= bit }
        return written & bit != 0
    }

    /// One level deeper, with nothing written there yet.
    @inline(__always)
    private mutating func nest() {
        depth &+= 1
        written &= ~(1 &<< UInt64(depth & 63))
    }

    /// Where the next byte goes, with room made for `extra` bytes.
    @inline(__always)
    private mutating func cursor(_ extra: Int) -> UnsafeMutablePointer<UInt8> {
        reserve(extra)
        return base + count
    }

    /// The line now ends at `end`.
    @inline(__always)
    private mutating func commit(_ end: UnsafeMutablePointer<UInt8>) { count = end - base }

    /// `text` at `destination`; returns where it ends.
    @inline(__always)
    private func copy(_ text: StaticString, to destination: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        let length = text.utf8CodeUnitCount
        Self.copy(text.utf8Start, count: length, to: destination)
        return destination + length
    }

    /// `count` bytes from `source` to `destination`. Keys, literals and names are a few bytes,
    /// fewer than a memcpy call costs: up to sixteen go in two word-sized loads and stores that
    /// overlap in the middle, never reading or writing past either end.
    @inline(__always)
    private static func copy(_ source: UnsafePointer<UInt8>, count: Int, to destination: UnsafeMutablePointer<UInt8>) {
        let from = UnsafeRawPointer(source), to = UnsafeMutableRawPointer(destination)
        switch count {
        case 8...16:
            let head = from.loadUnaligned(as: UInt64.self)
            let tail = from.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
            to.storeBytes(of: head, as: UInt64.self)
            to.storeBytes(of: tail, toByteOffset: count &- 8, as: UInt64.self)
        case 4..<8:
            let head = from.loadUnaligned(as: UInt32.self)
            let tail = from.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
            to.storeBytes(of: head, as: UInt32.self)
            to.storeBytes(of: tail, toByteOffset: count &- 4, as: UInt32.self)
        case 1..<4:
            destination[0] = source[0]
            destination[count &- 1] = source[count &- 1]
            destination[count >> 1] = source[count >> 1]
        case ...0:
            break
        default:
            destination.update(from: source, count: count)
        }
    }

    /// A comma when this level already holds a value; marks that it now does.
    private mutating func separate() {
        guard comma() else { return }
        reserve(1)
        put(UInt8(ascii: ","))
    }

    @inline(__always)
    private mutating func open(_ bracket: UInt8) {
        let next = cursor(1)
        next.pointee = bracket
        commit(next + 1)
        nest()
    }

    @inline(__always)
    private mutating func close(_ bracket: UInt8) {
        let next = cursor(1)
        next.pointee = bracket
        commit(next + 1)
        if depth > 0 { depth -= 1 }
    }

    private mutating func literal(_ text: StaticString) {
        reserve(text.utf8CodeUnitCount)
        put(text)
    }

    private mutating func putNumber(_ value: Double, _ decimals: Int) {
        let next = cursor(DecimalText.maximumCompactLength)
        commit(next + DecimalText.writeCompact(value, decimals, to: next))
    }

    private mutating func putInteger(_ value: Int) {
        let next = cursor(20)
        commit(next + DecimalText.writeInteger(value, to: next))
    }

    private mutating func putText(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            reserve(utf8.count)
            put(utf8)
        }
    }

    /// A JSON string: quotes, and the escapes JSON needs (quote, backslash, control characters).
    private mutating func quote(_ value: String) {
        // A native string's bytes in place (no copy of the string, so no retain); a small one's
        // from a copy on the stack.
        if let done = value.utf8.withContiguousStorageIfAvailable({ quote($0) }) { return done }
        var copy = value
        copy.withUTF8 { quote($0) }
    }

    /// Names and messages rarely need an escape: the bytes are copied as they are checked, and
    /// only a string that has one is written again with its escapes.
    private mutating func quote(_ utf8: UnsafeBufferPointer<UInt8>) {
        var next = cursor(utf8.count &+ 2)
        next.pointee = UInt8(ascii: "\"")
        next += 1
        guard let source = utf8.baseAddress, !utf8.isEmpty else {
            next.pointee = UInt8(ascii: "\"")
            commit(next + 1)
            return
        }
        var index = 0
        while index < utf8.count {
            let byte = source[index]
            if Self.needsEscape(byte) { break }
            next[index] = byte
            index &+= 1
        }
        next += index
        while index < utf8.count {
            let byte = source[index]
            if Self.needsEscape(byte) {
                commit(next)
                escape(byte)
                next = cursor(utf8.count &- index &+ 1)
            } else {
                next.pointee = byte
                next += 1
            }
            index &+= 1
        }
        next.pointee = UInt8(ascii: "\"")
        commit(next + 1)
    }

    @inline(__always)
    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    private mutating func escape(_ byte: UInt8) {
        reserve(6)
        put(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): put(byte)
        case UInt8(ascii: "\n"): put(UInt8(ascii: "n"))
        case UInt8(ascii: "\r"): put(UInt8(ascii: "r"))
        case UInt8(ascii: "\t"): put(UInt8(ascii: "t"))
        default:
            put("u00")
            let hex: StaticString = "0123456789abcdef"
            put(hex.utf8Start[Int(byte >> 4)])
            put(hex.utf8Start[Int(byte & 15)])
        }
    }

    // MARK: Storage

    /// Room for `extra` more bytes.
    @inline(__always)
    private mutating func reserve(_ extra: Int) {
        if count &+ extra > capacity { grow(to: count &+ extra) }
    }

    @inline(never)
    private mutating func grow(to needed: Int) {
        let larger = max(needed, capacity &* 2)
        let storage = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
        storage.update(from: base, count: count)
        base.deallocate()
        base = storage
        capacity = larger
    }

    /// Writes after `reserve` made room.
    @inline(__always)
    private mutating func put(_ byte: UInt8) {
        base[count] = byte
        count &+= 1
    }

    private mutating func put(_ text: StaticString) {
        let end = copy(text, to: base + count)
        commit(end)
    }

    private mutating func put(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let start = bytes.baseAddress, !bytes.isEmpty else { return }
        (base + count).update(from: start, count: bytes.count)
        count &+= bytes.count
    }
}
