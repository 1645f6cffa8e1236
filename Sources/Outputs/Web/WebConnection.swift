import Glibc
import LodestoneReports

/// One browser's connection: what it has sent and not yet been answered, who it is (its
/// address, the paired browser once a request proves it), and the times the server judges it
/// by; what waits to be written is the socket layer's (`Connection`).
final class WebConnection: Connection {
    var inbox: [UInt8] = []
    /// The peer's address as text ("192.168.1.20", "::1"; an IPv4 peer on an IPv6 socket as
    /// IPv4), what the per-address limits count by.
    let address: String
    /// When the request being read began (nil between requests).
    var requestSince: Double?
    /// The last time the browser sent anything or took anything.
    var lastActivity: Double
    /// The last time the socket took some of what waits, or nothing waited (`flush` runs every
    /// round, so an idle stream stays fresh).
    var lastProgress: Double
    var lastHeartbeat = 0.0
    /// The kinds an event stream carries (nil: an ordinary connection).
    var stream: Set<ReportKind>?
    /// The paired browser whose cookie came on this connection (nil: none yet).
    var browser: String?
    /// The answer sent is the last: close once it is written.
    var closing = false
    /// Refused at the door (the server full, or this address over its share): told once its
    /// request is in, then closed.
    var refusal: HTTPResponse?
    /// The inbox holds no whole request: more bytes are wanted. While it holds one (requests
    /// pipelined beyond a round's share), nothing more is read.
    var awaitingBytes = true
    private var buffer = [UInt8](repeating: 0, count: 16 * 1024)
    /// Reads of the socket one round takes at most: a client sending without pause cannot keep
    /// the server in one connection's loop.
    static let readsPerRound = 4

    init(fd: Int32, now: Double) {
        (lastActivity, lastProgress) = (now, now)
        address = Self.peerAddress(fd)
        super.init(fd: fd)
    }

    /// Whether the server wants what the socket holds now. A connection with an answer still
    /// waiting is not read (the kernel's buffers then hold the client back): no answer is
    /// built for a client that does not read, and nothing it sends piles up here.
    var wantsInput: Bool { stream != nil || refusal != nil || (!closing && pending == 0) }

    /// Takes what the browser sent, a few buffers at most; false when it has closed or failed.
    /// Only an ordinary connection keeps what it reads, and only up to `limit` bytes waiting.
    func read(now: Double, limit: Int) -> Bool {
        for _ in 0..<Self.readsPerRound {
            let keeping = stream == nil && refusal == nil && !closing
            if keeping && (!awaitingBytes || inbox.count >= limit) { return true }
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if count > 0 {
                if requestSince == nil { requestSince = now }
                lastActivity = now
                // What a stream's browser sends is of no use, nor what follows a refusal's request.
                if keeping || (refusal != nil && inbox.count < 64 << 10) { inbox += buffer[0..<count] }
                continue
            }
            if count == 0 { return false }
            return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR
        }
        return true
    }

    func enqueue(_ bytes: [UInt8]) { enqueue(bytes: bytes) }

    /// The last answer on this connection.
    func finish(_ response: HTTPResponse, head: Bool) {
        enqueue(response.serialized(head: head, keepAlive: false))
        closing = true
        inbox.removeAll()
    }

    /// Writes what the socket takes; false when the browser has gone.
    func flush(now: Double) -> Bool {
        let before = pending
        guard flush() else { return false }
        if pending < before { lastActivity = now }
        if pending == 0 || pending < before { lastProgress = now }
        return true
    }

    /// The address at the other end of `fd` as text ("" when the kernel cannot say).
    static func peerAddress(_ fd: Int32) -> String {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let found = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(fd, $0, &length) }
        }
        guard found == 0 else { return "" }
        var text = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        let named = withUnsafePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                getnameinfo($0, length, &text, socklen_t(text.count), nil, 0, NI_NUMERICHOST)
            }
        }
        guard named == 0 else { return "" }
        let name = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self).lowercased()
        // An IPv4 client of a dual-stack listener is the same client as on an IPv4 one.
        return name.hasPrefix("::ffff:") && name.contains(".") ? String(name.dropFirst(7)) : name
    }
}
