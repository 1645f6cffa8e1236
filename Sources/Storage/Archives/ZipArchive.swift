import LodestoneCore
import LodestoneEncoding

/// A zip archive (PKWARE APPNOTE) read from its central directory: each file's name, its
/// method (stored or deflated), sizes and CRC-32, and its bytes inflated and checked. What a
/// GTFS feed is shipped in. Zip64, encryption and other methods are refused by name.
public struct ZipArchive {
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String
        init(_ description: String) { self.description = description }
    }

    public struct Entry: Sendable, Equatable {
        public var name: String
        var method: Int
        var compressedSize: Int
        public var size: Int
        var crc: UInt32
        var localHeader: Int
    }

    let bytes: [UInt8]
    public let entries: [Entry]

    public init(_ bytes: [UInt8]) throws(Failure) {
        self.bytes = bytes
        // The end of central directory record: within the last 64 KiB (its comment's room).
        guard bytes.count >= 22 else { throw Failure("too short to be a zip archive") }
        var end = -1
        var at = bytes.count - 22
        while at >= max(0, bytes.count - 22 - 65_535) {
            if Self.word32(bytes, at) == 0x0605_4B50 { end = at; break }
            at -= 1
        }
        guard end >= 0 else { throw Failure("no end of central directory: not a zip archive, or cut short") }
        let count = Self.word16(bytes, end + 10), size = Int(Self.word32(bytes, end + 12)), offset = Int(Self.word32(bytes, end + 16))
        guard count != 0xFFFF, offset != 0xFFFF_FFFF else { throw Failure("a Zip64 archive, which is not read: repack it as a plain zip") }
        guard offset + size <= end else { throw Failure("the central directory lies outside the archive") }
        var entries: [Entry] = []
        var p = offset
        for _ in 0..<count {
            guard p + 46 <= end, Self.word32(bytes, p) == 0x0201_4B50 else { throw Failure("a damaged central directory entry at byte \(p)") }
            let flags = Self.word16(bytes, p + 8), method = Self.word16(bytes, p + 10)
            let crc = Self.word32(bytes, p + 16), compressed = Int(Self.word32(bytes, p + 20)), plain = Int(Self.word32(bytes, p + 24))
            let nameLength = Self.word16(bytes, p + 28), extra = Self.word16(bytes, p + 30), comment = Self.word16(bytes, p + 32)
            let local = Int(Self.word32(bytes, p + 42))
            guard p + 46 + nameLength <= end else { throw Failure("a file name runs past the central directory") }
            let name = String(decoding: bytes[(p + 46)..<(p + 46 + nameLength)], as: UTF8.self)
            guard flags & 1 == 0 else { throw Failure("\(name) is encrypted") }
            entries.append(Entry(name: name, method: method, compressedSize: compressed, size: plain, crc: crc, localHeader: local))
            p += 46 + nameLength + extra + comment
        }
        self.entries = entries
    }

    /// The entry named `name` (ignoring any folder in front of it: feeds are often zipped
    /// with their folder).
    public func entry(_ name: String) -> Entry? {
        entries.first { $0.name == name } ?? entries.first { $0.name.hasSuffix("/" + name) }
    }

    /// The most an entry may claim to grow when inflated: text compresses about ten times, so
    /// a directory claiming more is a bomb's.
    public static let largestRatio = 200

    /// An entry's bytes, inflated and checked against its CRC-32; at most `limit` of them.
    public func contents(_ entry: Entry, limit: Int) throws(Failure) -> [UInt8] {
        var whole: [UInt8] = []
        try stream(entry, limit: limit) { piece in
            whole.append(contentsOf: piece)
            return true
        }
        return whole
    }

    /// An entry's bytes handed to `reader` piece by piece as they are inflated (it returns
    /// false to stop, which throws). The directory's word is held to: an entry that claims
    /// more than `limit` bytes or more than `largestRatio` times its compressed size is refused
    /// before anything is inflated, and one that inflates past the size it claims is refused
    /// there, so a lying directory never costs more than it declared. The CRC-32 is checked
    /// at the end: a reader must discard what it took when this throws.
    public func stream(_ entry: Entry, limit: Int, reader: @escaping (ArraySlice<UInt8>) -> Bool) throws(Failure) {
        let p = entry.localHeader
        guard p + 30 <= bytes.count, Self.word32(bytes, p) == 0x0403_4B50 else { throw Failure("\(entry.name): its local header is damaged") }
        let start = p + 30 + Self.word16(bytes, p + 26) + Self.word16(bytes, p + 28)
        guard entry.compressedSize >= 0, start + entry.compressedSize <= bytes.count else { throw Failure("\(entry.name): runs past the end of the archive") }
        guard entry.size <= limit else { throw Failure("\(entry.name): \(entry.size) bytes, more than the \(limit) allowed") }
        guard entry.size <= Self.largestRatio * entry.compressedSize || entry.size == 0 else {
            throw Failure(
                "\(entry.name): claims \(entry.size) bytes from \(entry.compressedSize) compressed, more than \(Self.largestRatio) times: refused as a bomb")
        }
        let data = bytes[start..<(start + entry.compressedSize)]
        var crc: UInt32 = 0
        var produced = 0
        let counted = { (piece: ArraySlice<UInt8>) -> Bool in
            produced += piece.count
            crc = piece.withUnsafeBytes { CRC32.checksum($0, continuing: crc) }
            return reader(piece)
        }
        switch entry.method {
        case 0:
            guard entry.compressedSize == entry.size else {
                throw Failure("\(entry.name): stored with \(entry.compressedSize) bytes where it claims \(entry.size)")
            }
            var at = data.startIndex
            while at < data.endIndex {
                let next = min(at + Inflate.Output.piece, data.endIndex)
                guard counted(data[at..<next]) else { throw Failure("\(entry.name): the reader stopped") }
                at = next
            }
        case 8:
            do { try Inflate.stream(data, limit: entry.size, reader: counted) } catch {
                // The limit given was the size claimed: going past it is the directory lying.
                throw Failure(
                    "\(entry.name): "
                        + (error.isPastLimit
                            ? "inflates past the \(entry.size) bytes its directory claims: refused (damaged or a bomb)"
                            : error.description))
            }
        default: throw Failure("\(entry.name): compression method \(entry.method), which is not read (stored and deflate are)")
        }
        guard produced == entry.size, crc == entry.crc else { throw Failure("\(entry.name): its CRC-32 or size does not match: the archive is damaged") }
    }

    static func word16(_ b: [UInt8], _ at: Int) -> Int {
        at >= 0 && at + 2 <= b.count ? Int(b[at]) | Int(b[at + 1]) << 8 : 0
    }

    static func word32(_ b: [UInt8], _ at: Int) -> UInt32 {
        guard at >= 0, at + 4 <= b.count else { return 0 }
        return UInt32(b[at]) | UInt32(b[at + 1]) << 8 | UInt32(b[at + 2]) << 16 | UInt32(b[at + 3]) << 24
    }
}
