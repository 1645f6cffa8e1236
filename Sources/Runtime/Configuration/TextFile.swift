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
