import Glibc

/// A file the device replaces whole again and again (a store saved once a minute), the way
/// `replaceFile` does: a fresh temporary created exclusively and never through a link, written,
/// flushed and renamed over the file, then the folder flushed. The paths are turned into the
/// C library's form once, and the bytes are built in storage kept from save to save, so a
/// save in steady state allocates nothing on the output thread.
public final class ReplacedFile {
    public let path: String
    private let folderPath: String
    private let file: UnsafeMutablePointer<CChar>
    private let temporary: UnsafeMutablePointer<CChar>
    private let folder: UnsafeMutablePointer<CChar>
    /// A folder removed while running is made again (a store's); a file a user named is not.
    private let remakesFolder: Bool
    /// The next contents; `replace` empties it (keeping its storage) before `fill` writes.
    private var bytes: [UInt8] = []

    public init(path: String, remakesFolder: Bool = true) {
        self.path = path
        self.remakesFolder = remakesFolder
        folderPath = path.lastIndex(of: "/").map { String(path[..<$0]) }.map { $0.isEmpty ? "/" : $0 } ?? "."
        file = Self.cString(path)
        temporary = Self.cString(path + ".tmp.\(getpid())")
        folder = Self.cString(folderPath)
    }

    deinit {
        file.deallocate()
        temporary.deallocate()
        folder.deallocate()
    }

    private static func cString(_ text: String) -> UnsafeMutablePointer<CChar> {
        let utf8 = text.utf8
        let name = UnsafeMutablePointer<CChar>.allocate(capacity: utf8.count + 1)
        for (index, byte) in utf8.enumerated() { name[index] = CChar(bitPattern: byte) }
        name[utf8.count] = 0
        return name
    }

    /// Replaces the file with what `fill` appends to the (empty) bytes it is given.
    public func replace(_ fill: (inout [UInt8]) -> Void) throws(WriteFailure) {
        bytes.removeAll(keepingCapacity: true)
        fill(&bytes)
        let failure = bytes.withUnsafeBytes { contents -> WriteFailure? in
            do throws(WriteFailure) {
                try replace(with: contents)
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
    }

    /// Replaces the file with `contents`.
    public func replace(with contents: UnsafeRawBufferPointer) throws(WriteFailure) {
        try checkReplaceable(file, path: path)
        // A fresh name, created exclusively and never through a link: a stale or planted
        // temporary cannot redirect the write.
        var status = stat()
        if lstat(temporary, &status) == 0 && status.st_mode & S_IFMT == S_IFREG { unlink(temporary) }
        var fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        if fd < 0 && errno == ENOENT && remakesFolder && makeDirectories(folderPath) {
            fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        }
        guard fd >= 0 else { throw WriteFailure(path: path, errno: errno) }
        var failure = writeWhole(fd, contents, path: path)
        if failure == 0 {
            CrashPoint.step("fsync")
            if fsync(fd) != 0 { failure = errno }
        }
        close(fd)
        if failure == 0 {
            CrashPoint.step("rename")
            if rename(temporary, file) != 0 { failure = errno }
        }
        guard failure == 0 else {
            unlink(temporary)
            throw WriteFailure(path: path, errno: failure)
        }
        // The rename is only durable once the folder holding it is flushed too.
        let directory = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directory >= 0 {
            CrashPoint.step("fsync")
            _ = fsync(directory)
            close(directory)
        }
    }
}
