import Glibc
import LodestoneCore
import LodestoneEncoding

/// A recording on the card (`lodestone run --record`): a record log (framed and checksummed,
/// so a power cut costs at most the last second) whose first record is the header, what ran
/// (the version, the board, the configuration, when), and every later one a piece of the
/// sampling side's event stream (`InputEventCodec`), about a second of it, deflated.
///
/// | record | bytes |
/// |---|---|
/// | header | `H`, the header's JSON text |
/// | events | `E`, the piece's length before deflating (4 bytes, little-endian), the raw deflate stream |
/// | output side | `O`, a JSON object: what the output thread read from outside at a time of the device's clock (the weather station's take, the power supply) |
public enum RecordingFile {
    static let headerTag = UInt8(ascii: "H")
    static let eventsTag = UInt8(ascii: "E")
    static let outputSideTag = UInt8(ascii: "O")
    /// The largest piece a recording holds, before deflating.
    public static let maximumPiece = 512 << 10

    /// What a recording file holds, read back: its header, its events in one stream, and how
    /// it was stored.
    public struct Contents {
        public var header: JSONValue
        public var events: [UInt8]
        /// Each piece's bytes before and after deflating.
        public var pieces: [(raw: Int, stored: Int)]
        /// What the output thread read from outside, in the order read (`RecordingWriter.outputSide`).
        public var outputSide: [JSONValue] = []
        /// What reading found damaged (a torn end after a power cut, a bad piece), in words.
        public var problems: [String]
    }

    /// Reads a recording; every intact piece is kept and what was not is said in `problems`.
    /// Throws when the file cannot be read or holds no recording's header.
    public static func read(path: String) throws(StorageError) -> Contents {
        let (records, recovery) = try RecordLog.records(path: path)
        guard let first = records.first, first.first == headerTag else {
            throw StorageError("\(path) is not a Lodestone recording (make one with 'lodestone run --record FILE')")
        }
        let header = try RecordingHeader.parse(Array(first.dropFirst()), file: path)
        var contents = Contents(header: header, events: [], pieces: [], problems: [])
        if recovery.cutBytes > 0 { contents.problems.append("the last \(recovery.cutBytes) bytes were torn (a power cut while writing) and are left out") }
        if recovery.skippedBytes > 0 { contents.problems.append("\(recovery.skippedBytes) damaged bytes were skipped") }
        for (index, record) in records.enumerated().dropFirst() {
            if record.first == outputSideTag, let entry = try? JSONValue.parse(String(decoding: record.dropFirst(), as: UTF8.self)) {
                contents.outputSide.append(entry)
                continue
            }
            guard record.first == eventsTag, let piece = inflated(record) else {
                contents.problems.append("piece \(index) cannot be read; the recording ends before it")
                break
            }
            contents.events += piece
            contents.pieces.append((piece.count, record.count))
        }
        return contents
    }

    public static let formatName = "lodestone-recording"

    /// One events record's bytes, inflated; nil when it is not whole.
    static func inflated(_ record: [UInt8]) -> [UInt8]? {
        guard record.count >= 5 else { return nil }
        let count = Int(RecordLog.littleEndian(record, at: 1))
        guard count <= maximumPiece, let bytes = try? Inflate.raw(record[5...], limit: count), bytes.count == count else { return nil }
        return bytes
    }

    /// One events record for `piece`.
    static func eventsRecord(_ piece: [UInt8]) -> [UInt8] {
        var prefix: [UInt8] = [eventsTag]
        RecordLog.appendLittleEndian(UInt32(piece.count), to: &prefix)
        return Deflate.raw(piece, after: prefix)
    }

    static func headerRecord(_ header: JSONValue) -> [UInt8] { [headerTag] + Array(header.serialized.utf8) }

    /// Writes a recording whole (a piece cut from another): the header, the events in pieces,
    /// the output side's entries.
    public static func write(path: String, header: JSONValue, events: [UInt8], outputSide: [JSONValue], now: Double) throws(StorageError) -> Int {
        let writer = try RecordingWriter(path: path, header: header, maximumBytes: Int.max / 4, now: now)
        var offset = 0
        while offset < events.count {
            let end = min(offset + maximumPiece / 2, events.count)
            try writer.take(events[offset..<end], now: now)
            offset = end
        }
        for entry in outputSide { try writer.outputSide(entry, now: now) }
        try writer.close(now: now)
        return writer.storedBytes
    }
}

/// Writes a recording as the run goes: the sampling side's bytes are gathered here (on the
/// output thread) and written a piece a second, deflated. Past half of `maximumBytes` the file
/// is `full`: at the stream's next restart point the run's recording `rotate`s it to FILE.1
/// (replacing the one before) and begins FILE again, with the header and the stream's prelude
/// so it replays on its own. The two files together never hold more than `maximumBytes`.
public final class RecordingWriter {
    public let path: String
    private let header: JSONValue
    private let maximumBytes: Int
    private var log: RecordLog
    private var pending: [UInt8] = []
    private var lastPiece: Double
    /// Bytes of events taken, and bytes written to the card (every file, headers included).
    public private(set) var rawBytes = 0
    public private(set) var storedBytes = 0
    /// Files begun (1 until the first rotation).
    public private(set) var files = 1

    /// Refuses a path that holds anything already (a recording is never written over).
    public init(path: String, header: JSONValue, maximumBytes: Int, now: Double) throws(StorageError) {
        var status = stat()
        if lstat(path, &status) == 0 {
            throw StorageError("\(path) exists: give the recording a new name, or move the old one away first")
        }
        self.path = path
        self.header = header
        self.maximumBytes = max(maximumBytes, 64 << 10)
        log = try RecordLog(path: path, now: now)
        try log.append(RecordingFile.headerRecord(header), now: now)
        storedBytes = log.size
        lastPiece = now
        pending.reserveCapacity(64 << 10)
    }

    /// Past half the bound: the file should rotate at the next restart point.
    public var full: Bool { log.size + pending.count / 2 >= maximumBytes / 2 }

    /// Takes the bytes the sampling side recorded; writes a piece when a second has passed.
    public func take<Bytes: Collection<UInt8>>(_ bytes: Bytes, now: Double) throws(StorageError) {
        pending.append(contentsOf: bytes)
        rawBytes += bytes.count
        if now - lastPiece >= 1 || pending.count >= RecordingFile.maximumPiece / 2 { try writePiece(now: now) }
    }

    /// Writes what is gathered and flushes it to the card (on stop).
    public func close(now: Double) throws(StorageError) {
        try writePiece(now: now)
        log.flush(now: now)
    }

    /// What the output thread read from outside (a JSON object with its time), written at once.
    public func outputSide(_ entry: JSONValue, now: Double) throws(StorageError) {
        let record = [RecordingFile.outputSideTag] + Array(entry.serialized.utf8)
        guard log.size + record.count + 10 <= maximumBytes else { return }
        try append(record, now: now)
    }

    /// Moves the file to FILE.1 and begins FILE again: the header, then `prelude` (the
    /// stream's beginning up to its first restart point); what is taken next must begin at a
    /// restart point.
    public func rotate(prelude: [UInt8], now: Double) throws(StorageError) {
        try writePiece(now: now)
        log.flush(now: now)
        let older = path + ".1"
        guard rename(path, older) == 0 else { throw StorageError("cannot move \(path) to \(older): \(String(cString: strerror(errno)))") }
        log = try RecordLog(path: path, now: now)
        try log.append(RecordingFile.headerRecord(header), now: now)
        storedBytes += log.size
        files += 1
        var offset = 0
        while offset < prelude.count {
            let end = min(offset + RecordingFile.maximumPiece / 2, prelude.count)
            try append(RecordingFile.eventsRecord(Array(prelude[offset..<end])), now: now)
            offset = end
        }
    }

    private func writePiece(now: Double) throws(StorageError) {
        lastPiece = now
        guard !pending.isEmpty else { return }
        let record = RecordingFile.eventsRecord(pending)
        pending.removeAll(keepingCapacity: true)
        // A file past the whole bound (no restart point came to rotate at) ends the recording.
        guard log.size + record.count + 10 <= maximumBytes else {
            log.flush(now: now)
            throw StorageError("\(path) reached its limit of \(maximumBytes / 1_000_000) MB (record.maxMB)")
        }
        try append(record, now: now)
    }

    private func append(_ record: [UInt8], now: Double) throws(StorageError) {
        let before = log.size
        try log.append(record, now: now)
        storedBytes += log.size - before
    }
}
