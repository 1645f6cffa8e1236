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

    /// Sends one line's bytes and its ending, queueing what the socket does not take now. With
    /// nothing queued before, they go straight from the caller's bytes (a client keeping up,
    /// the usual case, costs no copy); once the outbox has grown to its working size, nothing
    /// here allocates.
    func enqueue(line: UnsafeBufferPointer<UInt8>, ending: StaticString = "\r\n") {
        let end = UnsafeBufferPointer(start: ending.utf8Start, count: ending.utf8CodeUnitCount)
        var taken = 0
        let direct = pending == 0
        if direct {
            let count = lodestone_send_two(fd, line.baseAddress, UInt(line.count), end.baseAddress, UInt(end.count))
            if count > 0 { taken = count }
        }
        // What the socket did not take waits in the outbox, in order.
        if taken < line.count {
            outbox.append(contentsOf: UnsafeBufferPointer(rebasing: line[taken...]))
            outbox.append(contentsOf: end)
        } else if taken < line.count + end.count {
            outbox.append(contentsOf: UnsafeBufferPointer(rebasing: end[(taken - line.count)...]))
        }
        // Behind it, an earlier backlog: send what the socket takes of it all now.
        if !direct { _ = flush() }
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
