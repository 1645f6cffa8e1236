import CLinux
import Glibc

/// Which report classes a client asked to stream.
public struct WatchOptions: Sendable, Equatable {
    public var enabled = false
    public var json = false
    public init() {}
}

/// The local socket that programs read the device from, speaking gpsd's JSON protocol.
///
/// Runs on the I/O thread, driven by `service(timeoutMilliseconds:)` (poll). Every socket is
/// non-blocking: a client that stops reading gets a bounded backlog and is then dropped,
/// so no client can stall another or the sampling loop. Request lines longer than the
/// limit, malformed JSON and unknown commands get an ERROR report and the server goes on.
public final class ReportServer {
    public let path: String
    private var listener: Int32
    private var clients: [Client] = []
    /// Answers ?POLL and ?DEVICES with the current state (set by the runtime).
    public var answer: (ClientRequest) -> [String] = { _ in [] }
    public private(set) var droppedSlowClients = 0
    public private(set) var acceptedClients = 0

    public static let maximumRequestLength = 1024
    public static let maximumBacklog = 256 * 1024

    final class Client {
        let fd: Int32
        var inbox: [UInt8] = []
        var outbox: [UInt8] = []
        var sent = 0
        var watch = WatchOptions()
        var discardingLongLine = false
        init(fd: Int32) { self.fd = fd }
        var pending: Int { outbox.count - sent }
    }

    public enum Failure: Error, CustomStringConvertible {
        case pathTooLong(String)
        case cannotCreate(path: String, errno: Int32)
        public var description: String {
            switch self {
            case .pathTooLong(let p): return "socket path \(p) is longer than 107 bytes: choose a shorter --socket path"
            case .cannotCreate(let p, let e):
                let reason = String(cString: strerror(e))
                return "cannot listen on \(p): \(reason); choose another --socket path or check the directory's permissions"
            }
        }
    }

    public init(path: String, mode: mode_t = 0o660) throws(Failure) {
        self.path = path
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard path.utf8.count < capacity else { throw .pathTooLong(path) }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .cannotCreate(path: path, errno: errno) }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
            raw[path.utf8.count] = 0
        }
        // A socket file left by a crashed run would make bind fail: replace it if nobody answers on it.
        if Self.isStale(path) { unlink(path) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, listen(fd, 64) == 0 else {
            let code = errno
            close(fd)
            throw .cannotCreate(path: path, errno: code)
        }
        chmod(path, mode)
        listener = fd
    }

    deinit { shutdown() }

    /// Closes every connection and removes the socket file.
    public func shutdown() {
        for client in clients { close(client.fd) }
        clients.removeAll()
        if listener >= 0 {
            close(listener)
            unlink(path)
            listener = -1
        }
    }

    static func isStale(_ path: String) -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFSOCK else { return false }
        let probe = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(probe) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(probe, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        return connected != 0
    }

    public var clientCount: Int { clients.count }
    public var watchingClients: Int { clients.filter { $0.watch.enabled }.count }

    /// Waits up to `timeoutMilliseconds` for socket activity (and `extra` descriptors, whose
    /// readiness is returned), accepts, reads requests, and flushes queued output.
    @discardableResult
    public func service(timeoutMilliseconds: Int32, extra: [Int32] = []) -> [Int32] {
        guard listener >= 0 else { return [] }
        var fds = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0)]
        for client in clients {
            fds.append(pollfd(fd: client.fd, events: Int16(POLLIN) | (client.pending > 0 ? Int16(POLLOUT) : 0), revents: 0))
        }
        for fd in extra { fds.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0)) }
        let ready = poll(&fds, nfds_t(fds.count), timeoutMilliseconds)
        guard ready > 0 else { return [] }
        if fds[0].revents & Int16(POLLIN) != 0 { acceptAll() }
        var closed: [Int32] = []
        for (offset, entry) in fds.dropFirst().prefix(clients.count).enumerated() where entry.revents != 0 {
            let client = clients[offset]
            if entry.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0, !receive(client) { closed.append(client.fd); continue }
            if entry.revents & Int16(POLLOUT) != 0, !flush(client) { closed.append(client.fd) }
        }
        if !closed.isEmpty { drop(closed) }
        return fds.suffix(extra.count).filter { $0.revents != 0 }.map(\.fd)
    }

    private func acceptAll() {
        while true {
            let fd = accept(listener, nil, nil)
            guard fd >= 0 else { return }
            _ = lodestone_set_nonblocking(fd, 1)
            _ = lodestone_set_cloexec(fd)
            let client = Client(fd: fd)
            clients.append(client)
            acceptedClients += 1
            enqueue(GPSDReports.version(), to: client)
        }
    }

    /// Reads what the client sent and answers complete lines; false when it has gone.
    private func receive(_ client: Client) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(client.fd, $0.baseAddress, $0.count, 0) }
            if count == 0 { return false }
            if count < 0 { return errno == EAGAIN || errno == EINTR }
            for byte in buffer[0..<count] {
                if byte == UInt8(ascii: "\n") {
                    if client.discardingLongLine {
                        client.discardingLongLine = false
                    } else {
                        handle(line: String(decoding: client.inbox, as: UTF8.self), from: client)
                    }
                    client.inbox.removeAll(keepingCapacity: true)
                } else if !client.discardingLongLine {
                    client.inbox.append(byte)
                    if client.inbox.count > Self.maximumRequestLength {
                        enqueue(GPSDReports.error("Request too long: at most \(Self.maximumRequestLength) bytes per line"), to: client)
                        client.inbox.removeAll(keepingCapacity: true)
                        client.discardingLongLine = true
                    }
                }
            }
            if client.pending > Self.maximumBacklog { return false }
        }
    }

    private func handle(line: String, from client: Client) {
        for request in ClientRequest.parse(line: line) {
            switch request {
            case .watch(let argument):
                if let argument {
                    if case .object = argument {} else {
                        enqueue(GPSDReports.error("?WATCH needs a JSON object"), to: client)
                        continue
                    }
                    client.watch.enabled = argument["enable"]?.boolValue ?? true
                    client.watch.json = argument["json"]?.boolValue ?? client.watch.json
                } else {
                    client.watch.enabled = true
                }
                if client.watch.enabled && argument?["json"] == nil { client.watch.json = true }
                for line in answer(.devices) { enqueue(line, to: client) }
                enqueue(GPSDReports.watch(enabled: client.watch.enabled, json: client.watch.json), to: client)
            case .version:
                enqueue(GPSDReports.version(), to: client)
            case .poll, .devices, .status, .calibrate, .lock, .unlock, .level, .track, .waypoint, .baro, .alert, .log, .snapshot:
                for line in answer(request) { enqueue(line, to: client) }
            case .invalid(let message):
                enqueue(GPSDReports.error(message), to: client)
            }
        }
    }

    /// Sends a report to every client that is watching.
    public func broadcast(_ line: String) {
        var slow: [Int32] = []
        for client in clients where client.watch.enabled && client.watch.json {
            enqueue(line, to: client)
            if client.pending > Self.maximumBacklog { slow.append(client.fd) }
        }
        if !slow.isEmpty {
            droppedSlowClients += slow.count
            drop(slow)
        }
    }

    private func enqueue(_ line: String, to client: Client) {
        client.outbox.append(contentsOf: line.utf8)
        client.outbox.append(UInt8(ascii: "\n"))
        _ = flush(client)
    }

    /// Writes as much queued output as the socket takes; false when the client has gone.
    private func flush(_ client: Client) -> Bool {
        while client.pending > 0 {
            let count = client.outbox.withUnsafeBytes { bytes -> Int in
                guard let base = bytes.baseAddress else { return 0 }
                return send(client.fd, base + client.sent, client.pending, Int32(MSG_NOSIGNAL))
            }
            if count < 0 { return errno == EAGAIN || errno == EINTR }
            client.sent += count
        }
        client.outbox.removeAll(keepingCapacity: true)
        client.sent = 0
        return true
    }

    private func drop(_ descriptors: [Int32]) {
        clients.removeAll { client in
            guard descriptors.contains(client.fd) else { return false }
            close(client.fd)
            return true
        }
    }
}
