import LodestoneCore

/// One JSON line written as bytes into storage kept from line to line: no String is built and,
/// once the storage has grown to the longest line, nothing is allocated. Every JSON the device
/// writes goes through it (the socket's reports, the files, `--json`). Numbers that are not
/// finite leave their field out rather than write invalid JSON or a fake zero.
///
/// The bytes are written through a pointer into storage of its own (copied on write, like an
/// array's), so a field costs a few instructions per byte instead of an array append per byte.
public struct JSONBuffer {
    private var storage: Storage
    /// Per nesting level (bit `depth`), whether a value was written there, so the next needs a comma.
    private var written: UInt64 = 0
    private var depth = 0

    public init(capacity: Int = 512) { storage = Storage(capacity: max(capacity, 64)) }

    /// Empties the line, keeping its storage.
    public mutating func reset() {
        reserve(0)
        storage.count = 0
        written = 0
        depth = 0
    }

    public var count: Int { storage.count }

    /// The line's bytes, for as long as `body` runs.
    public func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try body(UnsafeBufferPointer(start: storage.base, count: storage.count))
    }

    /// The line as text.
    public var text: String { withBytes { String(decoding: $0, as: UTF8.self) } }

    // MARK: Structure

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

    public mutating func beginObject(_ key: StaticString) {
        self.key(key)
        open(UInt8(ascii: "{"))
    }

    public mutating func endObject() { close(UInt8(ascii: "}")) }

    public mutating func beginArray(_ key: StaticString) {
        self.key(key)
        open(UInt8(ascii: "["))
    }

    public mutating func endArray() { close(UInt8(ascii: "]")) }

    /// `{"class":"NAME"`: a gpsd report's opening.
    public mutating func beginReport(_ name: StaticString) {
        beginObject()
        string("class", name)
    }

    // MARK: Fields

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

    public mutating func number(_ key: StaticString, _ value: Double, decimals: Int = 3) {
        guard value.isFinite else { return }
        let next = field(key, room: DecimalText.maximumCompactLength)
        commit(next + DecimalText.writeCompact(value, decimals, to: next))
    }

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

    /// Writes times, remembering the last day's date (reports in a day share it).
    private var clock = ISO8601Writer()

    public mutating func bool(_ key: StaticString, _ value: Bool) {
        let next = field(key, room: 5)
        commit(copy(value ? "true" : "false", to: next))
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
        return storage.base + storage.count
    }

    /// The line now ends at `end`. Mutating, so that no call can hold a copy of the buffer (and
    /// of its storage) while another writes: that would make every write copy the storage.
    @inline(__always)
    private mutating func commit(_ end: UnsafeMutablePointer<UInt8>) { storage.count = end - storage.base }

    /// `text` at `destination`, byte by byte (keys and literals are a few bytes, fewer than a
    /// memcpy call costs); returns where it ends.
    @inline(__always)
    private func copy(_ text: StaticString, to destination: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        let source = text.utf8Start, length = text.utf8CodeUnitCount
        for index in 0..<length { destination[index] = source[index] }
        return destination + length
    }

    /// A comma when this level already holds a value; marks that it now does.
    private mutating func separate() {
        guard comma() else { return }
        reserve(1)
        put(UInt8(ascii: ","))
    }

    private mutating func open(_ bracket: UInt8) {
        let next = cursor(1)
        next.pointee = bracket
        commit(next + 1)
        nest()
    }

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
        reserve(DecimalText.maximumCompactLength)
        storage.count += DecimalText.writeCompact(value, decimals, to: storage.base + storage.count)
    }

    private mutating func putInteger(_ value: Int) {
        reserve(20)
        storage.count += DecimalText.writeInteger(value, to: storage.base + storage.count)
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
        var value = value
        value.withUTF8 { utf8 in
            guard let source = utf8.baseAddress else {
                let empty = cursor(2)
                empty[0] = UInt8(ascii: "\"")
                empty[1] = UInt8(ascii: "\"")
                commit(empty + 2)
                return
            }
            var next = cursor(utf8.count &+ 2)
            next.pointee = UInt8(ascii: "\"")
            next += 1
            for index in 0..<utf8.count {
                let byte = source[index]
                if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                    commit(next)
                    escape(byte)
                    next = cursor(utf8.count &- index &+ 1)
                } else {
                    next.pointee = byte
                    next += 1
                }
            }
            next.pointee = UInt8(ascii: "\"")
            commit(next + 1)
        }
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

    /// Room for `extra` more bytes, in storage this buffer alone holds.
    @inline(__always)
    private mutating func reserve(_ extra: Int) {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy(extra: extra) }
        if storage.count + extra > storage.capacity { storage.grow(to: storage.count + extra) }
    }

    /// Writes after `reserve` made room.
    @inline(__always)
    private func put(_ byte: UInt8) {
        storage.base[storage.count] = byte
        storage.count += 1
    }

    private mutating func put(_ text: StaticString) {
        let end = copy(text, to: storage.base + storage.count)
        commit(end)
    }

    private func put(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let start = bytes.baseAddress, !bytes.isEmpty else { return }
        (storage.base + storage.count).update(from: start, count: bytes.count)
        storage.count += bytes.count
    }

    private final class Storage {
        var base: UnsafeMutablePointer<UInt8>
        var capacity: Int
        var count = 0

        init(capacity: Int) {
            base = .allocate(capacity: capacity)
            self.capacity = capacity
        }

        deinit { base.deallocate() }

        func copy(extra: Int) -> Storage {
            let copy = Storage(capacity: max(capacity, count + extra))
            copy.base.update(from: base, count: count)
            copy.count = count
            return copy
        }

        func grow(to needed: Int) {
            let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: max(needed, capacity * 2))
            larger.update(from: base, count: count)
            base.deallocate()
            base = larger
            capacity = max(needed, capacity * 2)
        }
    }
}
