import Glibc
import LodestoneCore

/// The files of a GTFS feed, a folder or a zip archive, read in pieces: a file off the disk a
/// quarter of a megabyte at a time, a zip entry as it is inflated (held to the size its
/// directory claims). The archive itself is held compressed; no file is ever held whole.
enum FeedFiles {
    case folder(String)
    case zip(String, ZipArchive)

    /// How much of a file is read at once.
    static let piece = 1 << 18
    /// The largest file read from a feed (a national stop_times.txt is a few hundred MB).
    static let fileLimit = 1 << 30
    /// The largest zip archive read (it is held in memory, compressed).
    static let archiveLimit = 1 << 30

    init(_ source: String) throws(GTFSImport.Failure) {
        var info = stat()
        guard stat(source, &info) == 0 else { throw GTFSImport.Failure(description: "\(source): \(String(cString: strerror(errno)))") }
        if info.st_mode & S_IFMT == S_IFDIR {
            self = .folder(source)
            return
        }
        var bytes: [UInt8] = []
        if let failure = Self.readPieces(
            source,
            {
                bytes.append(contentsOf: $0); return bytes.count <= Self.archiveLimit
            })
        {
            throw GTFSImport.Failure(description: "\(source) cannot be read: \(failure)")
        }
        guard bytes.count <= Self.archiveLimit else { throw GTFSImport.Failure(description: "\(source): larger than \(Self.archiveLimit >> 20) MiB") }
        do { self = .zip(source, try ZipArchive(bytes)) } catch { throw GTFSImport.Failure(description: "\(source): \(error.description)") }
    }

    /// The size of the file `name` (inflated, for a zip entry), when the feed has it.
    func size(_ name: String) -> Int? {
        switch self {
        case .folder(let folder):
            var info = stat()
            return stat(folder + "/" + name, &info) == 0 ? Int(info.st_size) : nil
        case .zip(_, let archive):
            return archive.entry(name).map(\.size)
        }
    }

    /// Hands the file `name` to `reader` piece by piece (it returns false to stop); false when
    /// the feed has no such file.
    func read(_ name: String, reader: @escaping (ArraySlice<UInt8>) -> Bool) throws(GTFSImport.Failure) -> Bool {
        switch self {
        case .folder(let folder):
            let path = folder + "/" + name
            guard fileExists(path) else { return false }
            var total = 0
            let limited = { (piece: ArraySlice<UInt8>) -> Bool in
                total += piece.count
                return total <= Self.fileLimit && reader(piece)
            }
            if let failure = Self.readPieces(path, limited) { throw GTFSImport.Failure(description: "\(path) cannot be read: \(failure)") }
            guard total <= Self.fileLimit else { throw GTFSImport.Failure(description: "\(path): larger than \(Self.fileLimit >> 20) MiB") }
            return true
        case .zip(let source, let archive):
            guard let entry = archive.entry(name) else { return false }
            do { try archive.stream(entry, limit: Self.fileLimit, reader: reader) } catch {
                throw GTFSImport.Failure(description: "\(source): \(error.description)")
            }
            return true
        }
    }

    /// Reads the file at `path` in pieces until its end or until `each` returns false; the
    /// reason when it cannot be read. Only a regular file is read, opened without waiting, so
    /// a FIFO or a device named as a feed never blocks the import.
    static func readPieces(_ path: String, _ each: (ArraySlice<UInt8>) -> Bool) -> String? {
        let fd: Int32
        do { fd = try GuardedOpen.input(path) } catch {
            return error.found.map { "it is " + $0 } ?? String(cString: strerror(error.errno))
        }
        defer { close(fd) }
        var chunk = [UInt8](repeating: 0, count: piece)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { return String(cString: strerror(errno)) }
            if n == 0 || !each(chunk[0..<n]) { return nil }
        }
    }
}
