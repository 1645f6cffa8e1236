import Glibc
import LodestoneCore
import LodestoneOutputs
import LodestoneReports
import LodestoneStorage

/// `replay --reports FILE`: every report the replayed device published, as the socket's gpsd
/// JSON (one line each, in the order published), for comparing two replays byte for byte.
/// Written through a buffer; "-" is standard output.
final class ReportLines {
    private let fd: Int32
    private let path: String
    private var buffer: [UInt8] = []

    init(path: String) throws(StorageError) {
        self.path = path
        if path == "-" {
            fd = STDOUT_FILENO
            return
        }
        do { fd = try GuardedOpen.store(path, O_WRONLY | O_CREAT | O_TRUNC) } catch {
            throw StorageError("cannot write the reports to \(path): \(error.description)")
        }
    }

    func write(_ report: Report) {
        buffer += GPSDReports.line(report).utf8
        buffer.append(UInt8(ascii: "\n"))
        if buffer.count >= 1 << 16 { flush() }
    }

    private func flush() {
        _ = buffer.withUnsafeBytes { writeWhole(fd, $0, path: path) }
        buffer.removeAll(keepingCapacity: true)
    }

    func close() {
        flush()
        if fd != STDOUT_FILENO { Glibc.close(fd) }
    }
}
