import CLinux
import Glibc
import LodestoneCore
import LodestoneEncoding
import LodestoneReports

/// What the web app answers a request with.
public enum WebAnswer {
    case response(HTTPResponse)
    /// Server-Sent Events of `kinds` from now on, after the ones newer than the browser's
    /// `Last-Event-ID` that the server still holds.
    case events(Set<ReportKind>)
}

/// The device's HTTP/1.1 server on the project's non-blocking sockets, driven from the output
/// thread like the gpsd socket: keep-alive, bounded requests (`HTTPRequestParser.Limits`), at
/// most `maximumConnections` at once, a client too slow to send its request or to read its
/// answer dropped, and Server-Sent Events of the reports, each encoded once for every browser.
public final class WebServer {
    public struct Settings: Sendable {
        public var limits = HTTPRequestParser.Limits()
        public var maximumConnections = 64
        /// A request must arrive whole within this many seconds of its first byte (408).
        public var requestSeconds = 10.0
        /// A kept-alive connection with nothing asked for this long is closed.
        public var idleSeconds = 60.0
        /// A browser that takes none of its answer for this long, or lets this much wait, is dropped.
        public var stallSeconds = 10.0
        public var outboxLimit = 1 << 20
        /// An event stream gets a comment line this often, so proxies and browsers keep it.
        public var heartbeatSeconds = 15.0
        public init() {}
    }

    public let settings: Settings
    /// Answers one request (set by the wiring before the first `service`).
    public var answer: ((HTTPRequest) -> WebAnswer)?
    private var listeners: [Int32] = []
    private var connections: [WebConnection] = []
    private let clock = SystemMonotonicClock()
    private var json = JSONBuffer()
    /// The newest report of each kind as the socket writes it (`GET /api/v1/state`).
    private(set) var latest: [ReportKind: [UInt8]] = [:]
    /// The last events sent, for a browser that reconnects with `Last-Event-ID`.
    private var recent: [(id: UInt64, kind: ReportKind, line: [UInt8])] = []
    private var nextID: UInt64 = 1
    static let recentCount = 256
    /// Connections refused because the server was full, and browsers dropped for not reading.
    public private(set) var refusedConnections = 0
    public private(set) var droppedSlowClients = 0

    public init(listen address: String, settings: Settings = Settings()) throws(TCPListener.Failure) {
        self.settings = settings
        listeners = [try TCPListener.open(address)]
        for fd in listeners { _ = lodestone_set_cloexec(fd) }
    }

    public var clientCount: Int { connections.filter { !$0.busy }.count }
    public var streamCount: Int { connections.filter { $0.stream != nil }.count }

    /// The listening socket's port (when it was asked for port 0).
    public var port: Int? {
        guard let fd = listeners.first else { return nil }
        var address = sockaddr_in6()
        var length = socklen_t(MemoryLayout<sockaddr_in6>.size)
        let found = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard found == 0 else { return nil }
        return Int(UInt16(bigEndian: address.sin6_port))
    }

    /// The descriptors to wait on beside the others: the listener and every connection.
    public func appendPollDescriptors(to descriptors: inout [Int32]) {
        descriptors += listeners
        for connection in connections { descriptors.append(connection.fd) }
    }

    /// Accepts, reads, answers, writes and drops what is due; never blocks.
    public func service() {
        let now = Double(clock.now()) / 1e9
        for listener in listeners {
            Connection.acceptAll(listener) { fd in
                let busy = connections.count >= settings.maximumConnections
                // Beyond the limit a few more are read and told 503 (closing at once would
                // reset the connection under an unread request, and the browser would see
                // nothing); beyond those, closed.
                guard !busy || connections.count < settings.maximumConnections + 16 else {
                    refusedConnections += 1
                    close(fd)
                    return
                }
                let connection = WebConnection(fd: fd, now: now)
                if busy {
                    refusedConnections += 1
                    connection.busy = true
                }
                connections.append(connection)
            }
        }
        var index = 0
        while index < connections.count {
            if serve(connections[index], now: now) {
                index += 1
            } else {
                close(connections[index].fd)
                connections.remove(at: index)
            }
        }
    }

    /// One connection's turn; false when it is done with.
    private func serve(_ connection: WebConnection, now: Double) -> Bool {
        guard connection.read(now: now) else { return false }
        if connection.busy && !connection.closing {
            // Told once its request is in (or after a second): the device is full.
            if connection.inbox.count >= 4 && connection.inbox.suffix(4) == [13, 10, 13, 10] || now - connection.lastActivity > 1 {
                connection.finish(HTTPResponse.text(503, "the device serves \(settings.maximumConnections) browsers at once; try again shortly"), head: false)
            }
            return flush(connection, now: now)
        }
        while !connection.closing, connection.stream == nil {
            switch HTTPRequestParser.parse(connection.inbox[...], limits: settings.limits) {
            case .incomplete:
                if !connection.inbox.isEmpty, let since = connection.requestSince, now - since > settings.requestSeconds {
                    connection.finish(HTTPResponse.text(408, "the request did not arrive whole within \(Int(settings.requestSeconds)) s"), head: false)
                }
                return flush(connection, now: now)
            case .refused(let status, let reason):
                connection.finish(HTTPResponse.text(status, reason), head: false)
            case .request(let request, let consumed):
                connection.inbox.removeFirst(consumed)
                connection.requestSince = connection.inbox.isEmpty ? nil : now
                respond(to: request, on: connection, now: now)
            }
        }
        if connection.stream != nil, now - connection.lastHeartbeat >= settings.heartbeatSeconds {
            connection.lastHeartbeat = now
            connection.enqueue(Array(": heartbeat\n\n".utf8))
        }
        if connection.stream == nil, !connection.closing, connection.inbox.isEmpty, connection.pending == 0,
            now - connection.lastActivity > settings.idleSeconds
        {
            return false
        }
        return flush(connection, now: now)
    }

    private func respond(to request: HTTPRequest, on connection: WebConnection, now: Double) {
        let head = request.method == "HEAD"
        switch answer?(head ? withMethod(request, "GET") : request) ?? .response(.text(503, "the device is starting")) {
        case .response(let response):
            connection.enqueue(response.serialized(head: head, keepAlive: request.keepAlive))
            if !request.keepAlive { connection.closing = true }
        case .events(let kinds):
            let head = HTTPResponse(
                status: 200,
                headers: [
                    .init(name: "content-type", value: "text/event-stream"),
                    .init(name: "cache-control", value: "no-store")
                ])
            // An event stream has no length: the connection carries it until either end closes.
            connection.enqueue(head.serialized(keepAlive: true, withLength: false))
            connection.enqueue(Array("retry: 3000\n\n".utf8))
            connection.stream = kinds
            connection.lastHeartbeat = now
            if let last = request.header("last-event-id").flatMap({ UInt64($0) }) {
                for event in recent where event.id > last && kinds.contains(event.kind) { connection.enqueue(event.line) }
            }
        }
    }

    private func withMethod(_ request: HTTPRequest, _ method: String) -> HTTPRequest {
        var copy = request
        copy.method = method
        return copy
    }

    private func flush(_ connection: WebConnection, now: Double) -> Bool {
        guard connection.flush(now: now) else { return false }
        if connection.pending > settings.outboxLimit
            || (connection.pending > 0 && now - connection.lastProgress > settings.stallSeconds)
        {
            droppedSlowClients += 1
            return false
        }
        return !(connection.closing && connection.pending == 0)
    }

    /// A report for the event streams and the state: written once as the socket writes it.
    public func publish(_ report: Report) {
        let kind = report.kind
        // IMU comes at the sampling rate: written only for a stream that asked for it.
        if kind == .inertial && !connections.contains(where: { $0.stream?.contains(kind) == true }) { return }
        GPSDReports.write(report, into: &json)
        let line = json.withBytes { Array($0) }
        latest[kind] = line
        let id = nextID
        nextID += 1
        var event = Array("id: \(id)\ndata: ".utf8)
        event += line
        event += [10, 10]
        if recent.count >= Self.recentCount { recent.removeFirst(recent.count - Self.recentCount + 1) }
        recent.append((id, kind, event))
        for connection in connections where connection.stream?.contains(kind) == true { connection.enqueue(event) }
    }

    /// The newest report of each kind, one JSON object keyed by class.
    public var stateJSON: String {
        "{"
            + latest.sorted { $0.key.rawValue < $1.key.rawValue }
            .map { JSONObjectWriter.quoted($0.key.rawValue) + ":" + String(decoding: $0.value, as: UTF8.self) }
            .joined(separator: ",") + "}"
    }

    public func shutdown() {
        for connection in connections { close(connection.fd) }
        connections.removeAll()
        for fd in listeners { close(fd) }
        listeners.removeAll()
    }
}
