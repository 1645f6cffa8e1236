import Glibc
import LodestoneCore

/// A file of a timetable being written into its staging folder: created new (never through a
/// link, never over another file), filled a piece at a time so a large table is never held
/// whole, then flushed and synced when closed. The folder is the import's own and swapped in
/// whole (`TimetableStore.save`), so no file here needs replacing on its own.
struct StagedFile {
    let path: String
    private let fd: Int32
    private var buffer: [UInt8] = []
    /// The first write's errno; once set, nothing more is written.
    private var failure: Int32 = 0
    static let piece = 1 << 16

    init?(_ path: String) {
        fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return nil }
        self.path = path
        buffer.reserveCapacity(Self.piece + 4096)
    }

    /// One CSV record: the fields quoted where they must be, a line break after.
    mutating func row(_ fields: [String]) {
        for (index, field) in fields.enumerated() {
            if index > 0 { buffer.append(UInt8(ascii: ",")) }
            buffer.append(contentsOf: TimetableStore.field(field).utf8)
        }
        buffer.append(0x0A)
        if buffer.count >= Self.piece { flush() }
    }

    mutating func append(_ bytes: [UInt8]) {
        flush()
        if failure == 0 { failure = bytes.withUnsafeBytes { writeWhole(fd, $0, path: path) } }
    }

    private mutating func flush() {
        if failure == 0 && !buffer.isEmpty { failure = buffer.withUnsafeBytes { writeWhole(fd, $0, path: path) } }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes what is left, syncs and closes; false when any write failed.
    mutating func close() -> Bool {
        flush()
        if failure == 0 {
            CrashPoint.step("fsync")
            if fsync(fd) != 0 { failure = errno }
        }
        Glibc.close(fd)
        return failure == 0
    }
}

/// Flushes a folder's entries (a file created or renamed in it) to the disk; false when it cannot.
func syncFolder(_ path: String) -> Bool {
    let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    CrashPoint.step("fsync")
    return fsync(fd) == 0
}
