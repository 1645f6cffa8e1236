import Glibc
import LodestoneCore
import LodestoneEncoding

/// An append-only file of framed, checksummed records that survives power cuts.
///
/// Each record is `A5 5A`, its length (4 bytes, little-endian), the payload, and the CRC-32 of
/// the payload. Records are written at once and flushed to the card with fsync at most every
/// `syncInterval` seconds, so a cut loses at most that much. Opening a log reads it from the
/// start and keeps every intact record: a corrupt one (a bad card's flipped bits) is skipped
/// and reading picks up at the next whole frame; a torn end (a power cut) is cut off and said.
public final class RecordLog {
    public static let sync: [UInt8] = [0xA5, 0x5A]
    /// A record larger than this is not one of ours (a corrupt length field).
    public static let maximumPayload = 1 << 20
    static let overhead = 10

    /// What opening found.
    public struct Recovery: Sendable, Equatable {
        public var records: Int
        /// Bytes cut off the end (a torn or corrupt tail); 0 for a clean file.
        public var cutBytes: Int
        /// Bytes of corrupt frames skipped before the end (kept in the file, never read as records).
        public var skippedBytes = 0
    }

    public let path: String
    public private(set) var size: Int
    private let fd: Int32
    private let syncInterval: Double
    private var lastSync: Double
    private var dirty = false

    /// Opens (creating it if needed) for appending, after recovering the intact records.
    /// `now` is any clock in seconds, used to pace the fsyncs.
    public init(path: String, syncInterval: Double = 1, now: Double) throws(StorageError) {
        let recovered = try Self.read(path: path, missingIsEmpty: true)
        let fd: Int32
        do { fd = try GuardedOpen.store(path, O_WRONLY | O_CREAT | O_APPEND) } catch {
            throw StorageError(error.found != nil ? error.description : "cannot open \(path) for writing: \(String(cString: strerror(error.errno)))")
        }
        if recovered.recovery.cutBytes > 0 && ftruncate(fd, off_t(recovered.validBytes)) != 0 {
            close(fd)
            throw StorageError("cannot cut the torn end of \(path): \(String(cString: strerror(errno)))")
        }
        self.fd = fd
        self.path = path
        self.syncInterval = syncInterval
        size = recovered.validBytes
        lastSync = now
        recovery = recovered.recovery
    }

    /// What was found when the log was opened.
    public let recovery: Recovery

    deinit {
        if dirty {
            CrashPoint.step("fsync")
            fsync(fd)
        }
        close(fd)
    }

    /// Appends one record; fsyncs when the last one was `syncInterval` or more ago.
    public func append(_ payload: [UInt8], now: Double) throws(StorageError) {
        guard payload.count <= Self.maximumPayload else { throw StorageError("a record of \(payload.count) bytes is too large") }
        let frame = Self.framed(payload)
        let failure = frame.withUnsafeBytes { writeWhole(fd, $0, path: path) }
        guard failure == 0 else { throw StorageError("cannot write \(path): \(String(cString: strerror(failure)))") }
        size += frame.count
        dirty = true
        if now - lastSync >= syncInterval { flush(now: now) }
    }

    /// Flushes to the card now (on stop, and on the pacing above).
    public func flush(now: Double) {
        guard dirty else { return }
        CrashPoint.step("fsync")
        fsync(fd)
        dirty = false
        lastSync = now
    }

    /// The intact records of a log file, without changing it.
    public static func records(path: String) throws(StorageError) -> (records: [[UInt8]], recovery: Recovery) {
        let read = try read(path: path, missingIsEmpty: false)
        return (read.records, read.recovery)
    }

    static func read(path: String, missingIsEmpty: Bool) throws(StorageError)
        -> (records: [[UInt8]], recovery: Recovery, validBytes: Int)
    {
        let bytes: [UInt8]
        do { bytes = try readStoreBytes(path) } catch {
            if error.isMissing && missingIsEmpty { return ([], Recovery(records: 0, cutBytes: 0), 0) }
            throw StorageError(error.description)
        }
        let (records, valid, skipped) = parseSkipping(bytes)
        return (records, Recovery(records: records.count, cutBytes: bytes.count - valid, skippedBytes: skipped), valid)
    }

    /// One record as it is written: sync, length, payload, CRC-32.
    static func framed(_ payload: [UInt8]) -> [UInt8] {
        var frame = sync
        frame.reserveCapacity(payload.count + overhead)
        appendLittleEndian(UInt32(payload.count), to: &frame)
        frame += payload
        appendLittleEndian(CRC32.checksum(payload), to: &frame)
        return frame
    }

    /// The intact records in `bytes`, and where the last of them ends.
    public static func parse(_ bytes: [UInt8]) -> (records: [[UInt8]], validBytes: Int) {
        let parsed = parseSkipping(bytes)
        return (parsed.records, parsed.validBytes)
    }

    /// The intact records in `bytes`: after a corrupt frame, reading resumes at the next offset
    /// where a whole frame (sync, length and CRC) checks out. `validBytes` is where the last
    /// intact record ends; `skippedBytes` the corrupt bytes between intact records.
    static func parseSkipping(_ bytes: [UInt8]) -> (records: [[UInt8]], validBytes: Int, skippedBytes: Int) {
        var records: [[UInt8]] = []
        var offset = 0, valid = 0, skipped = 0
        while offset + overhead <= bytes.count {
            if let payload = frame(in: bytes, at: offset) {
                skipped += offset - valid
                records.append(payload)
                offset += overhead + payload.count
                valid = offset
            } else {
                offset += 1
            }
        }
        return (records, valid, skipped)
    }

    /// The payload of the whole frame starting at `offset`, or nil when there is none.
    private static func frame(in bytes: [UInt8], at offset: Int) -> [UInt8]? {
        guard bytes[offset] == sync[0], bytes[offset + 1] == sync[1] else { return nil }
        let length = Int(littleEndian(bytes, at: offset + 2))
        guard length <= maximumPayload, offset + overhead + length <= bytes.count else { return nil }
        let payload = Array(bytes[(offset + 6)..<(offset + 6 + length)])
        return littleEndian(bytes, at: offset + 6 + length) == CRC32.checksum(payload) ? payload : nil
    }

    static func appendLittleEndian(_ value: UInt32, to bytes: inout [UInt8]) {
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    static func littleEndian(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
    }
}

/// A whole file's bytes, of a file the device only reads (see `GuardedOpen.input`); nil (with
/// errno set, EINVAL for a pipe or a device) when it cannot be opened.
public func readFileBytes(_ path: String) -> [UInt8]? {
    let fd: Int32
    do { fd = try GuardedOpen.input(path) } catch {
        errno = error.found != nil ? EINVAL : error.errno
        return nil
    }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        if n < 0 && errno == EINTR { continue }
        if n <= 0 { break }
        bytes += chunk[0..<n]
    }
    return bytes
}

/// A storage failure, saying what and where.
public struct StorageError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}
