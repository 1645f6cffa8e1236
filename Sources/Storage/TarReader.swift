import Glibc
import LodestoneCore

/// Bytes an archive is read from, a piece at a time: a file on disk (never read whole) or bytes
/// in memory.
public protocol ArchiveSource {
    var size: Int { get }
    /// `count` bytes from `offset`, or nil when they cannot be read.
    func read(at offset: Int, count: Int) -> [UInt8]?
}

public struct ArchiveBytes: ArchiveSource {
    public let bytes: [UInt8]
    public init(_ bytes: [UInt8]) { self.bytes = bytes }
    public var size: Int { bytes.count }
    public func read(at offset: Int, count: Int) -> [UInt8]? {
        guard offset >= 0, count >= 0, offset <= bytes.count, count <= bytes.count - offset else { return nil }
        return Array(bytes[offset..<offset + count])
    }
}

/// An archive file, opened once: everything read comes from this one open file, so it cannot
/// be swapped under the reader between the check and the restore.
public final class ArchiveFile: ArchiveSource {
    public let path: String
    public let size: Int
    private let fd: Int32

    /// Opens a regular file without blocking (a FIFO or a device given as the archive is refused,
    /// never waited on).
    public init(path: String) throws(TarReader.Damage) {
        let fd: Int32
        do { fd = try GuardedOpen.input(path) } catch {
            if let found = error.found {
                throw TarReader.Damage("\(path) is \(found): give the path of an archive 'lodestone export-all' wrote")
            }
            throw TarReader.Damage("cannot open \(path): \(String(cString: strerror(error.errno)))")
        }
        var status = stat()
        guard fstat(fd, &status) == 0 else {
            close(fd)
            throw TarReader.Damage("cannot read \(path): \(String(cString: strerror(errno)))")
        }
        self.fd = fd
        self.path = path
        size = Int(status.st_size)
    }

    deinit { close(fd) }

    public func read(at offset: Int, count: Int) -> [UInt8]? {
        guard offset >= 0, count >= 0, offset <= size, count <= size - offset else { return nil }
        var out = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let got = out.withUnsafeMutableBytes { buffer in pread(fd, buffer.baseAddress.map { base in base + done }, count - done, off_t(offset + done)) }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { return nil }
            done += got
        }
        return out
    }
}

/// Reads the entries of a POSIX ustar archive (the form `TarArchive` writes) without trusting
/// it: every header's checksum is checked, sizes are range-checked against the archive before
/// anything is read, and only regular files with plain relative names are taken. A link, a
/// device, a directory, a GNU or pax extension, a name reaching out of its folder, a file
/// named twice, a cut end or bytes after the end are each refused with what was found.
public enum TarReader {
    public struct Damage: Error, Equatable, CustomStringConvertible {
        public var description: String
        public init(_ description: String) { self.description = description }
    }

    public struct Entry: Sendable, Equatable {
        public var name: String
        /// Where the file's bytes begin in the archive.
        public var offset: Int
        public var size: Int
    }

    /// At most this many entries: a backup of ten thousand tracks has some twenty thousand.
    public static let largestEntryCount = 1_000_000

    /// The entries, in archive order.
    public static func entries(_ source: some ArchiveSource) throws(Damage) -> [Entry] {
        var entries: [Entry] = []
        var names = Set<String>()
        var offset = 0
        while true {
            guard source.size - offset >= 512, let header = source.read(at: offset, count: 512) else {
                throw Damage("it ends before its end marker (\(source.size) bytes): the archive is cut short")
            }
            if header.allSatisfy({ $0 == 0 }) {
                // The end: a second empty block, then nothing but the zeros tar pads with.
                guard source.size - offset >= 1024, let next = source.read(at: offset + 512, count: 512), next.allSatisfy({ $0 == 0 }) else {
                    throw Damage("its end marker is incomplete at byte \(offset): the archive is cut short or damaged")
                }
                try checkTrailing(source, from: offset + 1024)
                return entries
            }
            let entry = try parseHeader(header, at: offset, in: source)
            guard names.insert(entry.name).inserted else { throw Damage("\(entry.name) is in the archive twice") }
            guard entries.count < largestEntryCount else { throw Damage("it holds more than \(largestEntryCount) files") }
            entries.append(entry)
            let padded = (entry.size + 511) / 512 * 512
            offset = entry.offset + padded
        }
    }

    static func parseHeader(_ header: [UInt8], at offset: Int, in source: some ArchiveSource) throws(Damage) -> Entry {
        guard let stored = octal(header[148..<156]) else { throw Damage("the header at byte \(offset) is damaged (its checksum field is not a number)") }
        var sum = 0
        for (index, byte) in header.enumerated() { sum += (148..<156).contains(index) ? 0x20 : Int(byte) }
        guard sum == stored else { throw Damage("the header at byte \(offset) is damaged (its checksum does not match)") }
        guard header[257..<262].elementsEqual("ustar".utf8) else { throw Damage("the header at byte \(offset) is not a POSIX ustar header") }
        let name = text(header[0..<100])
        let prefix = text(header[345..<500])
        let shown = prefix.isEmpty ? name : prefix + "/" + name
        switch header[156] {
        case 0, UInt8(ascii: "0"): break
        case UInt8(ascii: "1"), UInt8(ascii: "2"): throw Damage("\(shown) is a link entry: a backup holds only files")
        case UInt8(ascii: "5"): throw Damage("\(shown) is a directory entry: a backup holds only files")
        case let type:
            let shownType = type >= 0x21 && type < 0x7F ? "'" + String(decoding: [type], as: UTF8.self) + "'" : "\(type)"
            throw Damage("\(shown) is an entry of type \(shownType), not a plain file: a backup holds only files")
        }
        guard prefix.isEmpty, !name.isEmpty else { throw Damage("the entry at byte \(offset) has a name longer than a backup writes") }
        guard !name.hasPrefix("/"), !name.split(separator: "/", omittingEmptySubsequences: false).contains(where: { $0 == ".." || $0 == "." || $0.isEmpty })
        else {
            throw Damage("\(name) reaches out of the data directory: refused")
        }
        guard let size = octal(header[124..<136]) else { throw Damage("\(name): its size field is damaged") }
        let start = offset + 512
        guard size <= source.size - start else {
            throw Damage("\(name) claims \(size) bytes but the archive holds \(source.size - start) after its header: the archive is cut short")
        }
        return Entry(name: name, offset: start, size: size)
    }

    /// A NUL- or space-terminated octal number of at most 11 digits (8 GiB), as ustar writes.
    static func octal(_ field: ArraySlice<UInt8>) -> Int? {
        var value = 0, digits = 0
        for byte in field {
            if byte == 0 || byte == 0x20 {
                if digits > 0 { break } else { continue }
            }
            guard byte >= 0x30 && byte <= 0x37, digits < 11 else { return nil }
            value = value * 8 + Int(byte - 0x30)
            digits += 1
        }
        return digits > 0 ? value : nil
    }

    static func text(_ field: ArraySlice<UInt8>) -> String {
        String(decoding: field.prefix { $0 != 0 }, as: UTF8.self)
    }

    private static func checkTrailing(_ source: some ArchiveSource, from start: Int) throws(Damage) {
        var offset = start
        while offset < source.size {
            let count = min(65_536, source.size - offset)
            guard let chunk = source.read(at: offset, count: count) else { throw Damage("cannot read byte \(offset) of the archive") }
            guard chunk.allSatisfy({ $0 == 0 }) else {
                throw Damage("there are bytes after the archive's end marker (at \(offset)): it was changed or joined to something")
            }
            offset += count
        }
    }

    /// The SHA-256 of an entry's bytes, read 64 KiB at a time.
    public static func digest(of entry: Entry, in source: some ArchiveSource) throws(Damage) -> String {
        var hasher = SHA256()
        var done = 0
        while done < entry.size {
            let count = min(65_536, entry.size - done)
            guard let chunk = source.read(at: entry.offset + done, count: count) else { throw Damage("cannot read \(entry.name) from the archive") }
            hasher.update(chunk)
            done += count
        }
        return SHA256.hexText(hasher.finish())
    }
}
