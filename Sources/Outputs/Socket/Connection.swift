import CLinux
import Glibc

/// One client's connection on a non-blocking socket: what is queued for it and how much of
/// that the socket has taken. A client that stops reading only grows its own queue; the
/// server drops it when the queue passes its limit.
class Connection {
    let fd: Int32
    private var outbox: [UInt8] = []
    private var sent = 0

    init(fd: Int32) {
        self.fd = fd
        _ = lodestone_set_nonblocking(fd, 1)
        _ = lodestone_set_cloexec(fd)
    }

    /// Bytes queued and not yet taken by the socket.
    var pending: Int { outbox.count - sent }

    /// Queues `text` and `ending`, then sends what the socket takes now.
    func enqueue(_ text: String, ending: String) {
        outbox.append(contentsOf: text.utf8)
        outbox.append(contentsOf: ending.utf8)
        _ = flush()
    }

    /// Queues one line's bytes and its ending, then sends what the socket takes now. Once the
    /// outbox has grown to its working size, this allocates nothing.
    func enqueue(line: UnsafeBufferPointer<UInt8>, ending: StaticString = "\r\n") {
        outbox.append(contentsOf: line)
        outbox.append(contentsOf: UnsafeBufferPointer(start: ending.utf8Start, count: ending.utf8CodeUnitCount))
        _ = flush()
    }

    /// Queues bytes as they are (an HTTP answer, an event).
    func enqueue(bytes: [UInt8]) { outbox += bytes }

    /// Writes as much queued output as the socket takes; false when the client has gone.
    func flush() -> Bool {
        while pending > 0 {
            let count = outbox.withUnsafeBytes { bytes -> Int in
                guard let base = bytes.baseAddress else { return 0 }
                return send(fd, base + sent, pending, Int32(MSG_NOSIGNAL))
            }
            if count < 0 { return errno == EAGAIN || errno == EINTR }
            sent += count
        }
        outbox.removeAll(keepingCapacity: true)
        sent = 0
        return true
    }

    /// Accepts every waiting connection on `listener`.
    static func acceptAll(_ listener: Int32, _ body: (Int32) -> Void) {
        while true {
            let fd = accept(listener, nil, nil)
            guard fd >= 0 else { return }
            body(fd)
        }
    }
}
