import Glibc
import LodestoneReports

/// One browser's connection: what it has sent and not yet been answered, and the times the
/// server judges it by; what waits to be written is the socket layer's (`Connection`).
final class WebConnection: Connection {
    var inbox: [UInt8] = []
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
    /// The answer sent is the last: close once it is written.
    var closing = false
    /// Over the server's limit: answered 503 and closed.
    var busy = false
    private var buffer = [UInt8](repeating: 0, count: 16 * 1024)

    init(fd: Int32, now: Double) {
        (lastActivity, lastProgress) = (now, now)
        super.init(fd: fd)
    }

    /// Takes what the browser sent; false when it has closed or failed.
    func read(now: Double) -> Bool {
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if count > 0 {
                if requestSince == nil { requestSince = now }
                lastActivity = now
                // What a stream's browser sends is of no use; a request beyond every limit is
                // refused by the parser long before this much.
                if stream == nil && !closing && inbox.count < 2 << 20 { inbox += buffer[0..<count] }
                continue
            }
            if count == 0 { return false }
            return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR
        }
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
}
