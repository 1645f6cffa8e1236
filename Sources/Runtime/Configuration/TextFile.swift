import Glibc

public struct FileError: Error, Equatable, CustomStringConvertible {
    public var path: String
    public var errno: Int32
    public var description: String {
        let reason = String(cString: strerror(errno))
        return "cannot read \(path): \(reason)"
    }
}

/// Reads a whole small text file (configuration, board files) without Foundation.
public func readTextFile(_ path: String, limit: Int = 1 << 20) throws(FileError) -> String {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw FileError(path: path, errno: errno) }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while bytes.count < limit {
        let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if count < 0 {
            if errno == EINTR { continue }
            throw FileError(path: path, errno: errno)
        }
        if count == 0 { break }
        bytes.append(contentsOf: chunk[0..<count])
    }
    return String(decoding: bytes, as: UTF8.self)
}

public func fileExists(_ path: String) -> Bool {
    access(path, F_OK) == 0
}

/// Creates a directory and its parents (mkdir -p) with mode 0755.
public func makeDirectories(_ path: String) -> Bool {
    var current = path.hasPrefix("/") ? "" : "."
    for part in path.split(separator: "/") {
        current += "/" + part
        if mkdir(current, 0o755) != 0 && errno != EEXIST { return false }
    }
    return true
}

/// Replaces a file's contents all at once: written to a temporary file, flushed, then renamed
/// over the old one, so a reader or a power cut never sees half a file.
@discardableResult
public func writeFileAtomically(_ path: String, _ bytes: [UInt8]) -> Bool {
    let temporary = path + ".tmp"
    let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard fd >= 0 else { return false }
    var written = 0
    while written < bytes.count {
        let count = bytes.withUnsafeBytes { buffer -> Int in
            guard let base = buffer.baseAddress else { return 0 }
            return write(fd, base + written, buffer.count - written)
        }
        if count < 0 && errno == EINTR { continue }
        if count <= 0 { break }
        written += count
    }
    let complete = written == bytes.count && fsync(fd) == 0
    close(fd)
    guard complete, rename(temporary, path) == 0 else {
        unlink(temporary)
        return false
    }
    return true
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
