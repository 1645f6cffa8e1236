import Glibc

/// A client of the report socket, for `lodestone watch` and `lodestone status` (and tests).
public final class ReportClient {
    private let fd: Int32
    private var pending: [UInt8] = []

    public enum Failure: Error, CustomStringConvertible {
        case cannotConnect(path: String, errno: Int32)
        public var description: String {
            switch self {
            case .cannotConnect(let path, let code):
                let reason = String(cString: strerror(code))
                return "cannot connect to \(path): \(reason); is 'lodestone run' running with this --socket?"
            }
        }
    }

    public init(path: String) throws(Failure) {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .cannotConnect(path: path, errno: errno) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        guard path.utf8.count < MemoryLayout.size(ofValue: address.sun_path) else {
            close(fd)
            throw .cannotConnect(path: path, errno: ENAMETOOLONG)
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else {
            let code = errno
            close(fd)
            throw .cannotConnect(path: path, errno: code)
        }
        self.fd = fd
    }

    deinit { close(fd) }

    /// Sends one request line (a newline is added).
    public func send(_ line: String) { send(raw: line + "\n") }

    /// Sends bytes as they are (a request with no newline, as some clients write them).
    public func send(raw text: String) {
        _ = text.withCString { Glibc.send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
    }

    /// The next line, or nil when the server closed the connection or `timeoutMilliseconds` passed.
    /// Reads whatever has arrived without waiting; returns how many whole lines that made
    /// (for load tests that only count).
    public func countArrivedLines() -> Int {
        var lines = 0
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            guard count > 0 else { return lines }
            for byte in buffer[0..<count] where byte == UInt8(ascii: "\n") { lines += 1 }
        }
    }

    public func readLine(timeoutMilliseconds: Int32 = 5000) -> String? {
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                // Lines end in CR LF, as gpsd's do; the line is given without either.
                let end = newline > pending.startIndex && pending[newline - 1] == UInt8(ascii: "\r") ? newline - 1 : newline
                let line = String(decoding: pending[..<end], as: UTF8.self)
                pending.removeSubrange(...newline)
                return line
            }
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, timeoutMilliseconds)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { return nil }
            var buffer = [UInt8](repeating: 0, count: 65_536)
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return nil }
            pending.append(contentsOf: buffer[0..<count])
        }
    }
}
