import Glibc

public struct FileError: Error, Equatable, CustomStringConvertible {
    public var path: String
    public var errno: Int32
    /// Set when the file is larger than its reader takes (bytes): said as such, not as the
    /// syntax error the cut would otherwise cause.
    public var limit: Int?
    /// What stood at the path instead of a file that may be read (a pipe, a link, someone
    /// else's file); see `GuardedOpen`.
    public var found: String?
    public init(path: String, errno: Int32, limit: Int? = nil, found: String? = nil) {
        self.path = path
        self.errno = errno
        self.limit = limit
        self.found = found
    }
    init(_ refusal: OpenRefusal) {
        self.init(path: refusal.path, errno: refusal.errno, found: refusal.found)
    }
    public var description: String {
        if let found { return "refusing \(path): it is \(found); move it away and try again" }
        if let limit { return "cannot read \(path): it is larger than \(byteText(limit)), the most this file may hold" }
        let reason = String(cString: strerror(errno))
        return "cannot read \(path): \(reason)"
    }
    /// Nothing is there yet (a store not written so far), as opposed to something refused.
    public var isMissing: Bool { found == nil && limit == nil && errno == ENOENT }
}

/// Reads a whole small text file the device only reads (configuration, board files, files a
/// user names) without Foundation. A pipe or a device node is refused before any read (see
/// `GuardedOpen.input`); a file longer than `limit` bytes is refused, not cut.
public func readTextFile(_ path: String, limit: Int = 1 << 20) throws(FileError) -> String {
    let fd: Int32
    do { fd = try GuardedOpen.input(path) } catch { throw FileError(error) }
    defer { close(fd) }
    return String(decoding: try readWhole(fd, path: path, limit: limit), as: UTF8.self)
}

/// Reads a whole file the device keeps (a store): never through a link, only a regular file
/// of the running user's (see `GuardedOpen.store`). Missing: `FileError.isMissing`.
public func readStoreBytes(_ path: String, limit: Int = 256 << 20) throws(FileError) -> [UInt8] {
    let fd: Int32
    do { fd = try GuardedOpen.store(path, O_RDONLY) } catch { throw FileError(error) }
    defer { close(fd) }
    return try readWhole(fd, path: path, limit: limit)
}

/// `readStoreBytes` as text.
public func readStoreText(_ path: String, limit: Int = 1 << 20) throws(FileError) -> String {
    String(decoding: try readStoreBytes(path, limit: limit), as: UTF8.self)
}

/// Everything left in `fd`, at most `limit` bytes.
private func readWhole(_ fd: Int32, path: String, limit: Int) throws(FileError) -> [UInt8] {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while true {
        let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if count < 0 {
            if errno == EINTR { continue }
            throw FileError(path: path, errno: errno)
        }
        if count == 0 { break }
        guard bytes.count + count <= limit else { throw FileError(path: path, errno: EFBIG, limit: limit) }
        bytes.append(contentsOf: chunk[0..<count])
    }
    return bytes
}

/// "1 MiB", "16 MiB", "64 KiB", or bytes.
package func byteText(_ bytes: Int) -> String {
    if bytes >= 1 << 20 && bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
    if bytes >= 1 << 10 && bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
    return "\(bytes) bytes"
}

public func fileExists(_ path: String) -> Bool {
    access(path, F_OK) == 0
}

/// Creates a directory and its parents (mkdir -p). What the device keeps is the owner's alone
/// (0700, whatever the umask); a folder others must reach (the socket's) asks for 0755.
public func makeDirectories(_ path: String, mode: mode_t = 0o700) -> Bool {
    var current = path.hasPrefix("/") ? "" : "."
    for part in path.split(separator: "/") {
        current += "/" + part
        if mkdir(current, mode) == 0 {
            chmod(current, mode)
        } else if errno != EEXIST {
            return false
        }
    }
    return true
}

/// Why a file cannot be written, in words for the user.
public struct WriteFailure: Error, Equatable, CustomStringConvertible {
    public var path: String
    public var reason: String
    public var description: String { "cannot write \(path): \(reason)" }

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// A failed system call's errno, in words, with what to do where there is something to do.
    public init(path: String, errno code: Int32) {
        self.init(path: path, reason: failureAdvice(code))
    }
}

/// Replaces a file's contents all at once: written to a new temporary file beside it,
/// flushed, then renamed over the old one and the directory flushed, so a reader or a power
/// cut never sees half a file. Only a regular file (or none) is ever replaced: a device node,
/// a directory, a FIFO or a symbolic link at `path` is refused, never swapped for a file (run
/// as root, `--out /dev/zero` would otherwise replace the machine's /dev/zero).
public func replaceFile(_ path: String, with bytes: [UInt8]) throws(WriteFailure) {
    let file = ReplacedFile(path: path, remakesFolder: false)
    try file.replace { $0.append(contentsOf: bytes) }
}

/// Throws unless `path` is a regular file or does not exist yet (see `replaceFile`): a
/// command can refuse its output path before doing the work.
public func checkReplaceable(_ path: String) throws(WriteFailure) {
    try checkReplaceable(path, path: path)
}

/// `checkReplaceable` of a path already in the C library's form.
func checkReplaceable(_ name: UnsafePointer<CChar>, path: String) throws(WriteFailure) {
    var status = stat()
    if lstat(name, &status) == 0 {
        let kind = status.st_mode & S_IFMT
        guard kind == S_IFREG else {
            throw WriteFailure(path: path, reason: "it is \(GuardedOpen.kindName(kind)), not a regular file: give the path of a file to write")
        }
    } else if errno != ENOENT {
        throw WriteFailure(path: path, reason: String(cString: strerror(errno)))
    }
}

/// Moves a damaged file out of the way, beside itself as `PATH.damaged-STAMP` (never over an
/// earlier one), so that it is kept for the user while a repaired file takes its place.
/// Returns the new name, or nil when it could not be moved (a read-only card).
public func setAside(_ path: String, at unixSeconds: Double) -> String? {
    let stamp = path + ".damaged-" + CivilTime(unixSeconds: unixSeconds).compactStamp
    var aside = stamp
    for suffix in 2...1000 {
        if link(path, aside) == 0 {
            guard unlink(path) == 0 else {
                unlink(aside)
                return nil
            }
            return aside
        }
        guard errno == EEXIST else { return nil }
        aside = stamp + "-\(suffix)"
    }
    return nil
}

/// The Bool form of `replaceFile`, for writers that report failure their own way.
@discardableResult
public func writeFileAtomically(_ path: String, _ bytes: [UInt8]) -> Bool {
    do {
        try replaceFile(path, with: bytes)
        return true
    } catch {
        return false
    }
}

private func failureAdvice(_ code: Int32) -> String {
    let reason = String(cString: strerror(code))
    switch code {
    case ENOSPC, EDQUOT: return reason + ": free some space on that disk"
    case EFBIG: return reason + ": the file would pass the size limit set for this process (ulimit -f, LimitFSIZE=): raise it"
    case ENOENT: return reason + ": create its folder first"
    case EACCES, EPERM, EROFS: return reason + ": check that its folder is writable"
    default: return reason
    }
}

/// Removes a directory and everything under it (a scratch data directory); symbolic links
/// are removed, never followed.
public func removeTree(_ path: String) {
    var status = stat()
    guard lstat(path, &status) == 0 else { return }
    if status.st_mode & S_IFMT == S_IFDIR, let directory = opendir(path) {
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        closedir(directory)
        for name in names { removeTree(path + "/" + name) }
        rmdir(path)
    } else {
        unlink(path)
    }
}

/// The names in a directory (without "." and ".."), in no order; empty when it cannot be read.
package func directoryEntries(_ path: String) -> [String] {
    guard let dir = opendir(path) else { return [] }
    defer { closedir(dir) }
    var names: [String] = []
    while let entry = readdir(dir) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        if name != "." && name != ".." { names.append(name) }
    }
    return names
}
