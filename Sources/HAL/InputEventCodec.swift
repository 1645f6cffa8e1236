import LodestoneCore

/// One answer the device got from outside, as a recording keeps it: what one thread heard, in
/// the order it heard it. A replay gives the same answers back in the same order, so the
/// device's own code runs as it ran.
public enum InputEvent: Equatable, Sendable {
    /// A reading of the monotonic clock, nanoseconds.
    case clock(MonotonicNanoseconds)
    /// An I2C transfer that succeeded: what was written and what came back.
    case transfer(bus: UInt8, address: UInt8, write: [UInt8], read: [UInt8])
    /// An I2C transfer that failed, with how many bytes it asked for.
    case transferFailed(bus: UInt8, address: UInt8, write: [UInt8], readCount: Int, error: I2CError)
    /// A read of the receiver's serial port: the bytes it returned (none: nothing was waiting).
    case serial([UInt8])
    case serialFailed(SerialError)
    /// The edges a GPIO line's events handed over at once.
    case edges(line: UInt8, [EdgeEvent])
    /// A value the output side handed to this thread (a calibration, a rate), as it was taken.
    case handover(kind: UInt8, payload: [UInt8])
    /// Bytes the recording lost here (the writer fell behind): a replay stops at it.
    case gap(lostBytes: Int)
    /// A point a replay may start from (the sampling loop's schedule at the start of a tick,
    /// `FixedRateScheduler.Schedule`'s bytes): what follows stands on its own.
    case restart([UInt8])
}

/// The recording's byte form of `InputEvent`s, one tag byte first:
///
/// | tag | event |
/// |---|---|
/// | 0x00-0x3F | clock: the tag is the microseconds since the stream's last clock reading |
/// | 0x40 | clock: microseconds since the last reading, a varint |
/// | 0x41 | clock: nanoseconds since the last reading, a varint (a reading not on a whole microsecond) |
/// | 0x42 | a transfer's key: key number, bus, address, written count and bytes, read count |
/// | 0x43 | transfer failed: key number, the error |
/// | 0x44 | serial bytes: count, bytes |
/// | 0x45 | serial read that returned nothing |
/// | 0x46 | serial failure |
/// | 0x47 | edges: line, count, each rising (1) or falling (0) and its time as a signed varint of nanoseconds from the last clock reading |
/// | 0x48 | handover: kind, count, bytes |
/// | 0x49 | gap: bytes lost; what follows starts afresh (the clock whole, the keys given again) |
/// | 0x4A | transfer succeeded, key number 128 or more (a varint), then the read bytes |
/// | 0x4B | restart: count, the schedule's bytes; what follows starts afresh as after a gap |
/// | 0x80-0xFF | transfer succeeded with key number tag - 0x80, then the read bytes |
///
/// A transfer's key (bus, address, the bytes written, the count read) is given once, the first
/// time it happens; after that a register read at 100 Hz costs one tag byte and its data.
/// Varints are LEB128 (7 bits a byte, least significant first).
public enum InputEventCodec {
    public static let version = 1
    static let clockShortLimit: UInt64 = 0x40
    static let tagClockMicroseconds: UInt8 = 0x40
    static let tagClockNanoseconds: UInt8 = 0x41
    static let tagKey: UInt8 = 0x42
    static let tagTransferFailed: UInt8 = 0x43
    static let tagSerial: UInt8 = 0x44
    static let tagSerialNothing: UInt8 = 0x45
    static let tagSerialFailed: UInt8 = 0x46
    static let tagEdges: UInt8 = 0x47
    static let tagHandover: UInt8 = 0x48
    static let tagGap: UInt8 = 0x49
    static let tagTransferLongKey: UInt8 = 0x4A
    static let tagRestart: UInt8 = 0x4B
    static let tagTransferShortKey: UInt8 = 0x80

    /// The most bytes a transfer's key holds written (a register address and a few bytes).
    public static let maximumKeyWrite = 16
}

/// Writes one thread's events into storage it keeps (grown only while the transfers' keys are
/// first seen), so a thread that records allocates nothing once it runs steadily: the caller
/// takes each event's bytes (`take`) and hands them on.
public struct InputEventEncoder: ~Copyable {
    private var bytes: [UInt8] = []
    private var lastClock: MonotonicNanoseconds?
    /// The transfers' keys seen so far, by number, their written bytes held in place: keys
    /// given again after a restart point cost no allocation.
    private var keys: [HeldKey] = []

    struct HeldKey: Equatable {
        var bus: UInt8
        var address: UInt8
        var readCount: Int
        var count: Int
        /// The written bytes, zero beyond `count` (`maximumKeyWrite` of them at most).
        var write: (UInt64, UInt64)

        init(bus: UInt8, address: UInt8, write: UnsafeRawBufferPointer, readCount: Int) {
            (self.bus, self.address, self.readCount, count) = (bus, address, readCount, min(write.count, InputEventCodec.maximumKeyWrite))
            var held: (UInt64, UInt64) = (0, 0)
            withUnsafeMutableBytes(of: &held) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: write.prefix(InputEventCodec.maximumKeyWrite))) }
            self.write = held
        }

        static func == (a: HeldKey, b: HeldKey) -> Bool {
            a.bus == b.bus && a.address == b.address && a.readCount == b.readCount && a.count == b.count && a.write == b.write
        }
    }

    /// A key as the decoder keeps it.
    struct TransferKey: Equatable {
        var bus: UInt8
        var address: UInt8
        var write: [UInt8]
        var readCount: Int
    }

    public init() {
        bytes.reserveCapacity(1024)
        keys.reserveCapacity(64)
    }

    /// The bytes written since the last `take`, handed to `body`; then they are forgotten.
    public mutating func take<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        defer { bytes.removeAll(keepingCapacity: true) }
        return bytes.withUnsafeBufferPointer(body)
    }

    public var pendingCount: Int { bytes.count }

    /// Starts afresh (after a gap): the next clock reading written whole, every key given again.
    public mutating func reset() {
        lastClock = nil
        keys.removeAll(keepingCapacity: true)
    }

    /// A clock reading. The first is written as its whole value (a delta from zero); a
    /// monotonic clock never goes back, and a reading that did would be kept as the last one.
    public mutating func clock(_ now: MonotonicNanoseconds) {
        let delta = lastClock.map { now >= $0 ? now - $0 : 0 } ?? now
        lastClock = max(lastClock ?? 0, now)
        if delta % 1000 == 0 {
            let micro = delta / 1000
            if micro < InputEventCodec.clockShortLimit {
                bytes.append(UInt8(truncatingIfNeeded: micro))
            } else {
                bytes.append(InputEventCodec.tagClockMicroseconds)
                putVarint(micro)
            }
        } else {
            bytes.append(InputEventCodec.tagClockNanoseconds)
            putVarint(delta)
        }
    }

    public mutating func transfer(bus: UInt8, address: UInt8, write: UnsafeRawBufferPointer, read: UnsafeRawBufferPointer) {
        let key = keyNumber(bus: bus, address: address, write: write, readCount: read.count)
        if key < 128 {
            bytes.append(InputEventCodec.tagTransferShortKey | UInt8(key))
        } else {
            bytes.append(InputEventCodec.tagTransferLongKey)
            putVarint(UInt64(key))
        }
        bytes.append(contentsOf: read)
    }

    public mutating func transferFailed(bus: UInt8, address: UInt8, write: UnsafeRawBufferPointer, readCount: Int, error: I2CError) {
        let key = keyNumber(bus: bus, address: address, write: write, readCount: readCount)
        bytes.append(InputEventCodec.tagTransferFailed)
        putVarint(UInt64(key))
        InputEventErrors.put(error, into: &bytes)
    }

    public mutating func serial(_ read: UnsafeRawBufferPointer) {
        guard !read.isEmpty else {
            bytes.append(InputEventCodec.tagSerialNothing)
            return
        }
        bytes.append(InputEventCodec.tagSerial)
        putVarint(UInt64(read.count))
        bytes.append(contentsOf: read)
    }

    public mutating func serialFailed(_ error: SerialError) {
        bytes.append(InputEventCodec.tagSerialFailed)
        InputEventErrors.put(error, into: &bytes)
    }

    public mutating func edges(line: UInt8, _ events: UnsafeBufferPointer<EdgeEvent>) {
        bytes.append(InputEventCodec.tagEdges)
        bytes.append(line)
        putVarint(UInt64(events.count))
        let base = lastClock ?? 0
        for event in events {
            bytes.append(event.rising ? 1 : 0)
            let offset = Int64(bitPattern: event.time &- base)
            putVarint(UInt64(bitPattern: (offset << 1) ^ (offset >> 63)))
        }
    }

    public mutating func handover(kind: UInt8, payload: UnsafeRawBufferPointer) {
        bytes.append(InputEventCodec.tagHandover)
        bytes.append(kind)
        putVarint(UInt64(payload.count))
        bytes.append(contentsOf: payload)
    }

    public mutating func gap(lostBytes: Int) {
        bytes.append(InputEventCodec.tagGap)
        putVarint(UInt64(max(0, lostBytes)))
        reset()
    }

    /// Any event, as decoded (a recording rewritten: cut, made private).
    public mutating func encode(_ event: InputEvent) {
        switch event {
        case .clock(let t): clock(t)
        case .transfer(let bus, let address, let write, let read):
            write.withUnsafeBytes { w in read.withUnsafeBytes { transfer(bus: bus, address: address, write: w, read: $0) } }
        case .transferFailed(let bus, let address, let write, let count, let error):
            write.withUnsafeBytes { transferFailed(bus: bus, address: address, write: $0, readCount: count, error: error) }
        case .serial(let bytes): bytes.withUnsafeBytes { serial($0) }
        case .serialFailed(let error): serialFailed(error)
        case .edges(let line, let list): list.withUnsafeBufferPointer { edges(line: line, $0) }
        case .handover(let kind, let payload): payload.withUnsafeBytes { handover(kind: kind, payload: $0) }
        case .gap(let lost): gap(lostBytes: lost)
        case .restart(let schedule): schedule.withUnsafeBytes { restart(schedule: $0) }
        }
    }

    public mutating func restart(schedule: UnsafeRawBufferPointer) {
        reset()
        bytes.append(InputEventCodec.tagRestart)
        putVarint(UInt64(schedule.count))
        bytes.append(contentsOf: schedule)
    }

    /// The key's number, written out first when it is new. Keys are few (each chip's registers
    /// read in a loop): searched in place.
    private mutating func keyNumber(bus: UInt8, address: UInt8, write: UnsafeRawBufferPointer, readCount: Int) -> Int {
        let written = write.prefix(InputEventCodec.maximumKeyWrite)
        let key = HeldKey(bus: bus, address: address, write: write, readCount: readCount)
        for number in keys.indices where keys[number] == key { return number }
        let number = keys.count
        keys.append(key)
        bytes.append(InputEventCodec.tagKey)
        putVarint(UInt64(number))
        bytes.append(bus)
        bytes.append(address)
        putVarint(UInt64(written.count))
        bytes.append(contentsOf: written)
        putVarint(UInt64(readCount))
        return number
    }

    private mutating func putVarint(_ value: UInt64) { InputEventCodec.putVarint(value, into: &bytes) }
}

extension InputEventCodec {
    static func putVarint(_ value: UInt64, into bytes: inout [UInt8]) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }
}

/// Reads a stream's events back, in order; `next()` is nil at the end, and a stream cut or
/// damaged is said once (`problem`) and read no further.
public struct InputEventDecoder {
    private let bytes: [UInt8]
    private var offset = 0
    private var lastClock: MonotonicNanoseconds?
    private var keys: [InputEventEncoder.TransferKey] = []
    /// Why reading stopped before the end, when it did.
    public private(set) var problem: String?

    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// How far into the stream the next event starts.
    public var position: Int { offset }

    /// Whether the next event is a restart, seen without reading it.
    public var nextIsRestart: Bool { problem == nil && offset < bytes.count && bytes[offset] == InputEventCodec.tagRestart }

    /// Whether the next event is a handover of `kind`, seen without reading it.
    public func nextIsHandover(kind: UInt8) -> Bool {
        problem == nil && offset + 1 < bytes.count && bytes[offset] == InputEventCodec.tagHandover && bytes[offset + 1] == kind
    }

    public mutating func next() -> InputEvent? {
        while problem == nil, offset < bytes.count {
            let start = offset
            guard let event = decodeOne() else {
                if problem == nil { problem = "the recording is damaged at byte \(start)" }
                return nil
            }
            if let event { return event }
        }
        return nil
    }

    /// One tag's worth: an event, `.some(nil)` for a key definition (read, nothing to return),
    /// or nil when the bytes do not make sense.
    private mutating func decodeOne() -> InputEvent?? {
        guard let tag = byte() else { return nil }
        switch tag {
        case 0..<InputEventCodec.tagClockMicroseconds:
            return clock(after: UInt64(tag) * 1000)
        case InputEventCodec.tagClockMicroseconds:
            guard let micro = varint(), micro < UInt64.max / 1000 else { return nil }
            return clock(after: micro * 1000)
        case InputEventCodec.tagClockNanoseconds:
            guard let nano = varint() else { return nil }
            return clock(after: nano)
        case InputEventCodec.tagKey:
            guard let number = varint(), number == UInt64(keys.count), let bus = byte(), let address = byte(),
                let count = varint(), count <= UInt64(InputEventCodec.maximumKeyWrite), let write = run(Int(count)),
                let readCount = varint(), readCount <= 1 << 16
            else { return nil }
            keys.append(.init(bus: bus, address: address, write: write, readCount: Int(readCount)))
            return .some(nil)
        case InputEventCodec.tagTransferFailed:
            guard let number = varint(), number < UInt64(keys.count) else { return nil }
            let key = keys[Int(number)]
            guard let error = read({ InputEventErrors.i2c(&$0) }) else { return nil }
            return .transferFailed(bus: key.bus, address: key.address, write: key.write, readCount: key.readCount, error: error)
        case InputEventCodec.tagSerial:
            guard let count = varint(), count <= 1 << 20, let read = run(Int(count)) else { return nil }
            return .serial(read)
        case InputEventCodec.tagSerialNothing:
            return .serial([])
        case InputEventCodec.tagSerialFailed:
            guard let error = read({ InputEventErrors.serial(&$0) }) else { return nil }
            return .serialFailed(error)
        case InputEventCodec.tagEdges:
            guard let line = byte(), let count = varint(), count <= 1 << 16 else { return nil }
            var edges: [EdgeEvent] = []
            let base = lastClock ?? 0
            for _ in 0..<count {
                guard let rising = byte(), rising <= 1, let zigzag = varint() else { return nil }
                let offset = Int64(bitPattern: zigzag >> 1) ^ -Int64(bitPattern: zigzag & 1)
                edges.append(EdgeEvent(rising: rising == 1, time: base &+ UInt64(bitPattern: offset)))
            }
            return .edges(line: line, edges)
        case InputEventCodec.tagHandover:
            guard let kind = byte(), let count = varint(), count <= 1 << 20, let payload = run(Int(count)) else { return nil }
            return .handover(kind: kind, payload: payload)
        case InputEventCodec.tagGap:
            guard let lost = varint(), lost <= UInt64(Int.max) else { return nil }
            // What follows stands on its own (see `InputEventEncoder.reset`).
            (lastClock, keys) = (nil, [])
            return .gap(lostBytes: Int(lost))
        case InputEventCodec.tagRestart:
            (lastClock, keys) = (nil, [])
            guard let count = varint(), count <= 1 << 16, let schedule = run(Int(count)) else { return nil }
            return .restart(schedule)
        case InputEventCodec.tagTransferLongKey:
            guard let number = varint(), number < UInt64(keys.count) else { return nil }
            return transfer(key: Int(number))
        case InputEventCodec.tagTransferShortKey...:
            let number = Int(tag & 0x7F)
            guard number < keys.count else { return nil }
            return transfer(key: number)
        default:
            return nil
        }
    }

    private mutating func clock(after delta: UInt64) -> InputEvent?? {
        let (now, overflow) = (lastClock ?? 0).addingReportingOverflow(delta)
        guard !overflow else { return nil }
        lastClock = now
        return .clock(now)
    }

    private mutating func transfer(key number: Int) -> InputEvent?? {
        let key = keys[number]
        guard let read = run(key.readCount) else { return nil }
        return .transfer(bus: key.bus, address: key.address, write: key.write, read: read)
    }

    private mutating func byte() -> UInt8? { read { $0.byte() } }

    private mutating func run(_ count: Int) -> [UInt8]? {
        guard count >= 0, count <= bytes.count - offset else { return nil }
        defer { offset += count }
        return Array(bytes[offset..<(offset + count)])
    }

    private mutating func varint() -> UInt64? { read { $0.varint() } }

    /// One reading through the shared cursor (`ByteReader`), moving on past what it took.
    private mutating func read<Value>(_ body: (inout ByteReader) -> Value?) -> Value? {
        var reader = ByteReader(bytes, at: offset)
        guard let value = body(&reader) else { return nil }
        offset = reader.offset
        return value
    }
}

/// A cursor over bytes for the error forms (shared by the decoder's cases).
struct ByteReader {
    let bytes: [UInt8]
    var offset: Int

    init(_ bytes: [UInt8], at offset: Int) {
        self.bytes = bytes
        self.offset = offset
    }

    mutating func byte() -> UInt8? {
        guard offset < bytes.count else { return nil }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func varint() -> UInt64? {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while let next = byte() {
            guard shift < 64 else { return nil }
            value |= UInt64(next & 0x7F) << shift
            if next & 0x80 == 0 { return value }
            shift += 7
        }
        return nil
    }

    mutating func text() -> String? {
        guard let count = varint(), count <= 4096, Int(count) <= bytes.count - offset else { return nil }
        defer { offset += Int(count) }
        return String(decoding: bytes[offset..<(offset + Int(count))], as: UTF8.self)
    }
}
