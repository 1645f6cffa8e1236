import Glibc
import LodestoneCore

/// One owner per data directory: `lodestone run` holds an exclusive lock (flock) on
/// `<dataDir>/.lock` for as long as it runs, with its process id written in the file. A second
/// run on the same folder is refused with that id; a command that changes stores takes the lock
/// for the moment of its change, so it never writes under a running instance's feet (it goes
/// through that instance's socket instead). The kernel drops the lock when the process ends,
/// however it ends, so a crash never leaves a stale lock behind.
public final class DataDirectoryLock {
    public let path: String
    private let fd: Int32

    /// Why the lock was not taken.
    public enum Refusal: Error, CustomStringConvertible {
        /// Another process holds it; its id as it wrote it (nil when it could not be read).
        case held(path: String, by: Int32?)
        /// Something other than a lock file of the user's stands in its place (a link, a pipe,
        /// someone else's file): refused, never used.
        case refused(String)
        /// The lock file could not be opened (a read-only card, a folder not writable).
        case unusable(String)

        public var description: String {
            switch self {
            case .held(let path, let pid):
                let folder = String(path.dropLast("/.lock".count))
                return "\(folder) is in use by lodestone run" + (pid.map { " (process \($0))" } ?? "")
            case .refused(let reason), .unusable(let reason): return reason
            }
        }

        /// The holder's process id, when another process holds the lock.
        public var holder: Int32? {
            if case .held(_, let pid) = self { return pid }
            return nil
        }
    }

    private init(path: String, fd: Int32) {
        self.path = path
        self.fd = fd
    }

    /// Takes the lock: the lock, or why not. A holder is given up to `patience` seconds to let
    /// go: an instance that has just said it stopped is still closing its files (a quick
    /// restart, a service restarted).
    public static func take(dataDirectory: String, patience: Double = 3) -> Result<DataDirectoryLock, Refusal> {
        let path = dataDirectory + "/.lock"
        let fd: Int32
        do { fd = try GuardedOpen.store(path, O_RDWR | O_CREAT) } catch {
            return .failure(error.found != nil ? .refused(error.description) : .unusable(error.description))
        }
        var waited = 0.0
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            if code == EINTR { continue }
            if code == EWOULDBLOCK && waited < patience {
                usleep(100_000)
                waited += 0.1
                continue
            }
            let holder = code == EWOULDBLOCK ? Self.holder(fd) : nil
            close(fd)
            if code == EWOULDBLOCK { return .failure(.held(path: path, by: holder)) }
            return .failure(.unusable("cannot lock \(path): \(String(cString: strerror(code)))"))
        }
        let text = Array("\(getpid())\n".utf8)
        if ftruncate(fd, 0) == 0 {
            _ = text.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        }
        // Every command that opens the stores comes through here first: an import-all
        // --replace that was stopped is finished or rolled back before any store is read.
        if let said = ImportJournal.recover(dataDirectory: dataDirectory) { Log.info(said) }
        return .success(DataDirectoryLock(path: path, fd: fd))
    }

    /// The process id the holder wrote, read through the descriptor already open.
    private static func holder(_ fd: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 24)
        let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        let digits = buffer[0..<count].prefix { $0 >= 0x30 && $0 <= 0x39 }
        guard !digits.isEmpty, digits.count <= 9 else { return nil }
        return Int32(String(decoding: digits, as: UTF8.self))
    }

    /// Gives the lock back (also done by the kernel when the process ends).
    public func release() {
        flock(fd, LOCK_UN)
    }

    deinit { close(fd) }
}
