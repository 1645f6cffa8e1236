import CLinux
import Glibc
import LodestoneCore
import LodestoneEncoding
import LodestoneReports

/// What the web app answers a request with.
public enum WebAnswer {
    case response(HTTPResponse)
    /// Server-Sent Events of `kinds` from now on, after the ones newer than the browser's
    /// `Last-Event-ID` that the server still holds; `browser` is the paired browser asking
    /// (its streams end the moment it is forgotten).
    case events(Set<ReportKind>, browser: String? = nil)
}

/// The device's HTTP/1.1 server on the project's non-blocking sockets, driven from the output
/// thread like the gpsd socket: keep-alive, bounded requests (`HTTPRequestParser.Limits`) and
/// Server-Sent Events of the reports, each encoded once for every browser.
///
/// Its cost is bounded by what clients pay for, since it shares its thread with the gpsd
/// socket: a round answers a few requests per connection and a few dozen in all; a connection
/// whose last answer is still unread is neither read nor answered (the kernel's buffers hold
/// the client back), so at most one answer per connection waits here; one address holds a
/// share of the connections and of the event streams; when the table is full the idlest
/// connection no paired browser has used makes room; a client too slow to send its request or
/// to take its answer is dropped.
public final class WebServer {
    public struct Settings: Sendable {
        public var limits = HTTPRequestParser.Limits()
        public var maximumConnections = 64
        /// Connections one address may hold at once (`http.connectionsPerAddress`).
        public var connectionsPerAddress = 8
        /// Event streams one address may hold at once (`http.streamsPerAddress`).
        public var streamsPerAddress = 4
        /// Requests answered on one connection in one round, and on all of them.
        public var requestsPerConnectionRound = 4
        public var requestsPerRound = 32
        /// A request must arrive whole within this many seconds of its first byte (408).
        public var requestSeconds = 10.0
        /// A kept-alive connection with nothing asked for this long is closed.
        public var idleSeconds = 60.0
        /// A browser that takes none of its answer for this long, or lets this much wait, is dropped.
        public var stallSeconds = 10.0
        /// What an event stream may let wait before its browser is dropped (bytes).
        public var outboxLimit = 256 << 10
        /// An event stream gets a comment line this often, so proxies and browsers keep it.
        public var heartbeatSeconds = 15.0
        public init() {}
    }

    public let settings: Settings
    /// Answers one request (set by the wiring before the first `service`).
    public var answer: ((HTTPRequest) -> WebAnswer)?
    /// The paired browser a request's cookie names (nil: none), so a full table keeps paired
    /// browsers' connections and evicts the others first.
    public var identify: ((HTTPRequest) -> String?)?
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
    /// Where the next round starts answering, so every connection gets its turn first in time.
    private var firstServed = 0
    /// Connections refused (the server full, an address over its share), browsers dropped for
    /// not reading, and connections closed to make room for a new one.
    public private(set) var refusedConnections = 0
    public private(set) var droppedSlowClients = 0
    public private(set) var evictedConnections = 0

    public init(listen address: String, settings: Settings = Settings()) throws(TCPListener.Failure) {
        self.settings = settings
        listeners = [try TCPListener.open(address)]
        for fd in listeners { _ = lodestone_set_cloexec(fd) }
    }

    public var clientCount: Int { connections.filter { $0.refusal == nil }.count }
    public var streamCount: Int { connections.filter { $0.stream != nil }.count }
    /// What the server holds for its connections: requests received and not yet answered, and
    /// answers not yet taken by the sockets (bytes).
    public var heldBytes: Int { connections.reduce(0) { $0 + $1.inbox.count + $1.pending } }

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

    /// The descriptors to wait on beside the others: the listener and every connection whose
    /// input is wanted (one whose answer waits unread is looked at on the loop's next round;
    /// waiting on it would wake the thread for input it will not take).
    public func appendPollDescriptors(to descriptors: inout [Int32]) {
        descriptors += listeners
        for connection in connections where connection.wantsInput { descriptors.append(connection.fd) }
    }

    /// Accepts, reads, answers, writes and drops what is due; never blocks, and does a bounded
    /// round of work whatever the clients send.
    public func service() {
        let now = Double(clock.now()) / 1e9
        for listener in listeners {
            Connection.acceptAll(listener) { fd in admit(fd, now: now) }
        }
        var budget = settings.requestsPerRound
        var kept: [WebConnection] = []
        kept.reserveCapacity(connections.count)
        let count = connections.count
        for step in 0..<count {
            let connection = connections[(firstServed + step) % count]
            if serve(connection, now: now, budget: &budget) {
                kept.append(connection)
            } else {
                close(connection.fd)
            }
        }
        // The order of the table is kept (the round-robin start moves instead).
        if kept.count != count {
            let alive = Set(kept.map(ObjectIdentifier.init))
            connections.removeAll { !alive.contains(ObjectIdentifier($0)) }
        }
        firstServed = connections.isEmpty ? 0 : (firstServed + 1) % connections.count
    }

    /// A new connection: taken, taken in place of the idlest unpaired one when the table is
    /// full, or refused (told why once its request is in: closing at once would reset the
    /// connection under an unread request, and the browser would show nothing).
    private func admit(_ fd: Int32, now: Double) {
        let connection = WebConnection(fd: fd, now: now)
        let fromAddress = connections.lazy.filter { $0.address == connection.address && $0.refusal == nil }.count
        let refusals = connections.lazy.filter { $0.refusal != nil }.count
        if fromAddress >= settings.connectionsPerAddress {
            connection.refusal = .text(
                429, "this address has \(settings.connectionsPerAddress) connections open to the device already: close some and try again")
        } else if connections.count - refusals >= settings.maximumConnections {
            if let idlest = connections.indices.filter({ connections[$0].browser == nil && connections[$0].refusal == nil })
                .min(by: { connections[$0].lastActivity < connections[$1].lastActivity })
            {
                close(connections[idlest].fd)
                connections.remove(at: idlest)
                evictedConnections += 1
            } else {
                connection.refusal = .text(503, "the device serves \(settings.maximumConnections) browsers at once; try again shortly")
            }
        }
        if connection.refusal != nil {
            refusedConnections += 1
            // Beyond a few refusals waiting to be told, a connection is closed at once.
            guard refusals < 16 else {
                close(fd)
                return
            }
        }
        connections.append(connection)
    }

    /// The bytes a connection may hold unanswered: one whole request at the limits.
    private var inboxLimit: Int { settings.limits.requestLine + settings.limits.headers + settings.limits.body }

    /// One connection's turn; false when it is done with.
    private func serve(_ connection: WebConnection, now: Double, budget: inout Int) -> Bool {
        guard connection.flush(now: now) else { return false }
        if connection.wantsInput, !connection.read(now: now, limit: inboxLimit) { return false }
        if let refusal = connection.refusal, !connection.closing {
            let inbox = connection.inbox
            if inbox.count >= 4 && inbox.suffix(4) == [13, 10, 13, 10] || now - connection.lastActivity > 1 {
                // A browser asking for a page is told in a page.
                if case .request(let request, _) = HTTPRequestParser.parse(inbox[...], limits: settings.limits) {
                    connection.finish(WebErrorPage.dressed(refusal, for: request), head: request.method == "HEAD")
                } else {
                    connection.finish(refusal, head: false)
                }
            }
            return flush(connection, now: now)
        }
        var answered = 0
        while !connection.closing, connection.stream == nil, connection.pending == 0 {
            guard answered < settings.requestsPerConnectionRound, budget > 0 else { break }
            switch HTTPRequestParser.parse(connection.inbox[...], limits: settings.limits) {
            case .incomplete:
                connection.awaitingBytes = true
                if !connection.inbox.isEmpty, let since = connection.requestSince, now - since > settings.requestSeconds {
                    connection.finish(HTTPResponse.text(408, "the request did not arrive whole within \(Int(settings.requestSeconds)) s"), head: false)
                }
                return flush(connection, now: now)
            case .refused(let status, let reason):
                connection.finish(HTTPResponse.text(status, reason), head: false)
            case .request(var request, let consumed):
                connection.inbox.removeFirst(consumed)
                connection.awaitingBytes = connection.inbox.isEmpty
                connection.requestSince = connection.inbox.isEmpty ? nil : now
                request.remoteAddress = connection.address
                (answered, budget) = (answered + 1, budget - 1)
                respond(to: request, on: connection, now: now)
                // The answer goes out now: what the socket does not take holds the next request back.
                guard connection.flush(now: now) else { return false }
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
        if connection.browser == nil, request.header("cookie") != nil { connection.browser = identify?(request) }
        let head = request.method == "HEAD"
        switch answer?(head ? withMethod(request, "GET") : request) ?? .response(.text(503, "the device is starting")) {
        case .response(let response):
            connection.enqueue(response.serialized(head: head, keepAlive: request.keepAlive))
            if !request.keepAlive { connection.closing = true }
        case .events(let kinds, let browser):
            let streams = connections.lazy.filter { $0.stream != nil && $0.address == connection.address }.count
            guard streams < settings.streamsPerAddress else {
                connection.finish(
                    .text(429, "this address has \(settings.streamsPerAddress) live streams open already: close a page and try again"), head: head)
                return
            }
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
            connection.browser = browser ?? connection.browser
            connection.lastHeartbeat = now
            if let last = request.header("last-event-id").flatMap({ UInt64($0) }) {
                for event in recent where event.id > last && kinds.contains(event.kind) { connection.enqueue(event.line) }
            }
        }
    }

    /// Closes at once every connection of the browser `id` (it was forgotten: what it had open
    /// must not go on streaming the device's position); how many there were.
    @discardableResult
    public func disconnect(browser id: String) -> Int {
        var closed = 0
        connections.removeAll { connection in
            guard connection.browser == id else { return false }
            close(connection.fd)
            closed += 1
            return true
        }
        firstServed = 0
        return closed
    }

    private func withMethod(_ request: HTTPRequest, _ method: String) -> HTTPRequest {
        var copy = request
        copy.method = method
        return copy
    }

    private func flush(_ connection: WebConnection, now: Double) -> Bool {
        guard connection.flush(now: now) else { return false }
        if (connection.stream != nil && connection.pending > settings.outboxLimit)
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
