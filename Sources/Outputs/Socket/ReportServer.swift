import CLinux
import Glibc
import LodestoneCore
import LodestoneReports
import LodestoneEncoding

/// The local socket that programs read the device from, speaking gpsd's JSON protocol.
///
/// Runs on the I/O thread, driven by `service(timeoutMilliseconds:)` (poll). Every socket is
/// non-blocking: a client that stops reading gets a bounded backlog and is then dropped,
/// so no client can stall another or the sampling loop. Request lines longer than the
/// limit, malformed JSON and unknown commands get an ERROR report and the server goes on.
public final class ReportServer {
    public let path: String
    /// The Unix socket's descriptor first, then any TCP listeners.
    private var listeners: [Int32]
    private var clients: [Client] = []
    private let clock = SystemMonotonicClock()
    /// The requests beyond ?WATCH and ?VERSION, each with its decoder and handler (filled by
    /// the runtime). ?WATCH answers with DEVICES from here.
    public var requests = RequestTable()
    /// The line being broadcast, written once for every client that takes it; its storage is
    /// kept from report to report.
    private var line = JSONBuffer(capacity: 4096)
    public private(set) var droppedSlowClients = 0
    public private(set) var acceptedClients = 0
    /// Connections refused because `maximumClients` were connected.
    public private(set) var refusedClients = 0
    public static let maximumClients = 256
    /// The client whose request is being answered, by its number (the connections accepted
    /// before it): a request whose work outlives it (a guided calibration) belongs to it.
    public private(set) var requester: Int?
    /// Told the number of every client that has gone (closed its end, or dropped), so work a
    /// client asked for does not go on without it.
    public var clientGone: ((Int) -> Void)?

    public static let maximumRequestLength = 1024
    public static let maximumBacklog = 256 * 1024

    final class Client: Connection {
        var inbox: [UInt8] = []
        var watch = WatchOptions()
        /// When each rate-limited class was last sent.
        var lastSent: [String: MonotonicNanoseconds] = [:]
        var discardingLongLine = false
        var framer = RequestFramer()
        /// Its number among the connections accepted (never reused, as a descriptor is).
        var number = 0
        /// Came in on the Unix socket, whose file permissions say who may use it (not on TCP,
        /// which anyone who reaches the port may use).
        var isLocal = false
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
        guard bound == 0, Glibc.listen(fd, 64) == 0 else {
            let code = errno
            close(fd)
            throw .cannotCreate(path: path, errno: code)
        }
        chmod(path, mode)
        // The group that may use the device's socket, when the system has it.
        if let group = getgrnam("lodestone") { chown(path, uid_t.max, group.pointee.gr_gid) }
        listeners = [fd]
    }

    /// Also accepts clients on TCP (`127.0.0.1:2947`, gpsd's port, for clients that cannot use
    /// a Unix socket).
    public func listen(tcp address: String) throws(TCPListener.Failure) {
        listeners.append(try TCPListener.open(address))
    }

    /// Moves the TCP listener to `address` (closes it for nil); connected clients stay. On a
    /// failure no TCP listener is left open.
    public func relisten(tcp address: String?) throws(TCPListener.Failure) {
        for fd in listeners.dropFirst() { close(fd) }
        if listeners.count > 1 { listeners.removeSubrange(1...) }
        if let address { try listen(tcp: address) }
    }

    deinit { shutdown() }

    /// Closes every connection and removes the socket file.
    public func shutdown() {
        for client in clients { close(client.fd) }
        clients.removeAll()
        nmeaWatching = nil
        if !listeners.isEmpty {
            for fd in listeners { close(fd) }
            unlink(path)
            listeners = []
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
    public func service(timeoutMilliseconds: Int32, extra: [Int32] = [], woken: (Int32) -> Void = { _ in }) {
        guard !listeners.isEmpty else { return }
        // The descriptor list is kept from call to call: no allocation once it has grown.
        polled.removeAll(keepingCapacity: true)
        for listener in listeners { polled.append(pollfd(fd: listener, events: Int16(POLLIN), revents: 0)) }
        for client in clients {
            polled.append(pollfd(fd: client.fd, events: Int16(POLLIN) | (client.pending > 0 ? Int16(POLLOUT) : 0), revents: 0))
        }
        for fd in extra { polled.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0)) }
        let ready = poll(&polled, nfds_t(polled.count), timeoutMilliseconds)
        guard ready > 0 else { return }
        for (index, entry) in polled.prefix(listeners.count).enumerated() where entry.revents & Int16(POLLIN) != 0 {
            acceptAll(entry.fd, local: index == 0)
        }
        closing.removeAll(keepingCapacity: true)
        let clientsPolled = clients
        for (offset, entry) in polled.dropFirst(listeners.count).prefix(clientsPolled.count).enumerated() where entry.revents != 0 {
            let client = clientsPolled[offset]
            if entry.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0, !receive(client) { closing.append(client.fd); continue }
            if entry.revents & Int16(POLLOUT) != 0, !client.flush() { closing.append(client.fd) }
        }
        if !closing.isEmpty { drop(closing) }
        for entry in polled.suffix(extra.count) where entry.revents != 0 { woken(entry.fd) }
    }

    /// `service`'s descriptors, and what clients send, kept from call to call.
    private var polled: [pollfd] = []
    private var received = [UInt8](repeating: 0, count: 4096)

    private func acceptAll(_ listener: Int32, local: Bool) {
        Connection.acceptAll(listener) { fd in
            guard clients.count < Self.maximumClients else {
                // Descriptors are finite: beyond the limit a client is told why and closed.
                let message = GPSDReports.error("Too many clients: at most \(Self.maximumClients)") + "\r\n"
                _ = message.utf8CString.withUnsafeBufferPointer { send(fd, $0.baseAddress, $0.count - 1, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
                close(fd)
                refusedClients += 1
                return
            }
            let client = Client(fd: fd)
            client.number = acceptedClients
            client.isLocal = local
            clients.append(client)
            acceptedClients += 1
            enqueue(GPSDReports.version(), to: client)
        }
    }

    /// Reads what the client sent and answers complete lines; false when it has gone.
    private func receive(_ client: Client) -> Bool {
        while true {
            let count = received.withUnsafeMutableBytes { recv(client.fd, $0.baseAddress, $0.count, 0) }
            if count == 0 { return false }
            if count < 0 { return errno == EAGAIN || errno == EINTR }
            for byte in received[0..<count] {
                if byte == UInt8(ascii: "\n") && client.discardingLongLine {
                    client.discardingLongLine = false
                    client.framer.reset()
                    client.inbox.removeAll(keepingCapacity: true)
                } else if !client.discardingLongLine && client.framer.ends(at: byte) {
                    // A request ends at its newline or at the ';' that closes it (as gpsd reads).
                    if byte == UInt8(ascii: ";") { client.inbox.append(byte) }
                    let line = String(decoding: client.inbox, as: UTF8.self)
                    client.inbox.removeAll(keepingCapacity: true)
                    if line.contains(where: { !$0.isWhitespace }) { handle(line: line, from: client) }
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
            case .command("WATCH", let argument):
                if let problem = watch(argument, client) {
                    enqueue(GPSDReports.error(problem), to: client)
                    continue
                }
                for report in requests.answer("DEVICES", nil) ?? [] { enqueue(GPSDReports.line(report), to: client) }
                enqueue(GPSDReports.watch(client.watch), to: client)
            case .command("VERSION", _):
                enqueue(GPSDReports.version(), to: client)
            case .command(let name, let argument):
                requester = client.number
                defer { requester = nil }
                if requests.isLocalOnly(name) && !client.isLocal {
                    enqueue(GPSDReports.error(Self.localOnlyMessage(name, path: path)), to: client)
                    continue
                }
                let answers = requests.answer(name, argument) ?? [.error("Unrecognized request '\(name)'")]
                for report in answers { enqueue(GPSDReports.line(report), to: client) }
            case .invalid(let message):
                enqueue(GPSDReports.error(message), to: client)
            }
        }
    }

    /// Why a request that changes who may do what is not answered on TCP.
    static func localOnlyMessage(_ name: String, path: String) -> String {
        "?\(name) is answered only on the device's own socket (\(path)), which its file permissions guard: "
            + "run 'lodestone web \(name == "WEBPAIR" ? "pair" : name == "WEBFORGET" ? "forget" : "devices")' on the device"
    }

    /// Applies ?WATCH's argument to the client's options; the problem when it cannot.
    private func watch(_ argument: JSONValue?, _ client: Client) -> String? {
        nmeaWatching = nil
        if let argument {
            guard case .object = argument else { return "?WATCH needs a JSON object" }
            if let problem = Self.apply(argument, to: &client.watch) { return problem }
            client.lastSent.removeAll()
        } else {
            client.watch.enabled = true
        }
        // gpsd's default: enabling without saying otherwise means JSON reports.
        if client.watch.enabled && argument?["json"] == nil && !client.watch.nmea && client.watch.raw == 0 { client.watch.json = true }
        return nil
    }

    /// Reads ?WATCH's options into `watch`; the problem when one is of the wrong kind.
    static func apply(_ argument: JSONValue, to watch: inout WatchOptions) -> String? {
        for (name, expected) in [
            ("enable", "true or false"), ("json", "true or false"), ("nmea", "true or false"), ("scaled", "true or false"),
            ("timing", "true or false"), ("split24", "true or false"), ("pps", "true or false")
        ] {
            if let value = argument[name], value.boolValue == nil { return "?WATCH \(name) must be \(expected)" }
        }
        watch.enabled = argument["enable"]?.boolValue ?? true
        watch.json = argument["json"]?.boolValue ?? watch.json
        watch.nmea = argument["nmea"]?.boolValue ?? watch.nmea
        if let raw = argument["raw"] {
            guard let level = raw.numberValue, (0...2).contains(level) else { return "?WATCH raw must be 0, 1 or 2" }
            watch.raw = Int(level)
        }
        watch.scaled = argument["scaled"]?.boolValue ?? watch.scaled
        watch.timing = argument["timing"]?.boolValue ?? watch.timing
        watch.split24 = argument["split24"]?.boolValue ?? watch.split24
        watch.pps = argument["pps"]?.boolValue ?? watch.pps
        if let device = argument["device"] {
            guard let path = device.stringValue else { return "?WATCH device must be a device path from ?DEVICES" }
            watch.device = path.isEmpty ? nil : path
        }
        if let rates = argument["rates"] {
            guard case .object(let entries) = rates else { return "?WATCH rates must be an object of class names and reports per second, e.g. {\"IMU\":5}" }
            var parsed: [String: Double] = [:]
            for (name, value) in entries {
                guard let hz = value.numberValue, hz >= 0, hz <= 1000 else { return "?WATCH rates.\(name) must be 0 to 1000 reports per second" }
                parsed[name.uppercased()] = hz
            }
            watch.rates = parsed
        }
        return nil
    }

    /// Sends a report to every client that is watching, within each one's device filter and
    /// rate for the report's kind. The line is written once, and only when a client takes it.
    public func broadcast(_ report: Report) {
        guard !clients.isEmpty else { return }
        // The report's class and device, asked only when a client filters by them: each is a
        // switch over the report, which copies it whole.
        lazy var reportClass = report.kind.rawValue
        lazy var device = report.device
        var written = false
        var now: MonotonicNanoseconds = 0
        slow.removeAll(keepingCapacity: true)
        // The list is not changed while it is walked (slow clients are dropped after), so each
        // client is used without a reference of its own: no retain and release per client per
        // report, hundreds of reports a second.
        let count = clients.count
        for index in 0..<count {
            Unmanaged.passUnretained(clients[index])._withUnsafeGuaranteedRef { client in
                guard client.watch.enabled && client.watch.json else { return }
                if let wanted = client.watch.device, let device, wanted != device { return }
                if !client.watch.rates.isEmpty, let rate = client.watch.rates[reportClass] {
                    if rate <= 0 { return }
                    if now == 0 { now = clock.now() }
                    if let last = client.lastSent[reportClass], Double(now &- last) < 1e9 / rate { return }
                    client.lastSent[reportClass] = now
                }
                if !written {
                    GPSDReports.write(report, into: &line)
                    written = true
                }
                line.withBytes { client.enqueue(line: $0) }
                if client.pending > Self.maximumBacklog { slow.append(client.fd) }
            }
        }
        if !slow.isEmpty {
            droppedSlowClients += slow.count
            drop(slow)
        }
    }

    /// Passes a receiver's sentence to the clients watching with nmea (or raw) on.
    public func broadcastSentence(_ sentence: String, device: String) {
        var sentence = sentence
        sentence.withUTF8 { broadcastSentence($0, device: device) }
    }

    /// Whether any client watches NMEA sentences (so they are worth making). Asked for every
    /// report; worked out again only after a ?WATCH or a client leaving.
    public var hasNMEAWatchers: Bool {
        if let nmeaWatching { return nmeaWatching }
        let watching = clients.contains { $0.watch.enabled && ($0.watch.nmea || $0.watch.raw > 0) }
        nmeaWatching = watching
        return watching
    }
    private var nmeaWatching: Bool?

    /// A received sentence's bytes to the clients watching NMEA (nothing allocated).
    public func broadcastSentence(_ sentence: UnsafeBufferPointer<UInt8>, device: String) {
        slow.removeAll(keepingCapacity: true)
        for client in clients where client.watch.enabled && (client.watch.nmea || client.watch.raw > 0) {
            if let wanted = client.watch.device, wanted != device { continue }
            client.enqueue(line: sentence)
            if client.pending > Self.maximumBacklog { slow.append(client.fd) }
        }
        if !slow.isEmpty {
            droppedSlowClients += slow.count
            drop(slow)
        }
    }

    /// Every line ends in CR LF, as gpsd's do (its Python client checks for it).
    private func enqueue(_ line: String, ending: String = "\r\n", to client: Client) {
        client.enqueue(line, ending: ending)
    }

    /// The clients with these descriptors, closed and forgotten. The lists are kept from call
    /// to call (`closing`, `slow`, `gone`): a client leaving allocates nothing.
    private func drop(_ descriptors: [Int32]) {
        nmeaWatching = nil
        gone.removeAll(keepingCapacity: true)
        clients.removeAll { client in
            guard descriptors.contains(client.fd) else { return false }
            close(client.fd)
            gone.append(client.number)
            return true
        }
        if let clientGone { for number in gone { clientGone(number) } }
    }
    /// Clients that closed (`service`) and clients too slow to keep up (the broadcasts).
    private var closing = [Int32](reservedCapacity: 8)
    private var slow = [Int32](reservedCapacity: 8)
    private var gone = [Int](reservedCapacity: 8)
}

extension Array {
    /// An empty array with room for `count` elements already made.
    fileprivate init(reservedCapacity count: Int) {
        self.init()
        reserveCapacity(count)
    }
}
