import Glibc
import LodestoneCore

/// Talks to the service manager with systemd's notify protocol: one datagram per message on the
/// Unix socket $NOTIFY_SOCKET names (a leading "@" is an abstract name). READY=1 once the
/// sensors are open and the socket serves, STATUS= with a line of health when it changes,
/// WATCHDOG=1 while both threads make progress (`WatchdogGate`), STOPPING=1 on the way out.
/// Absent when the process is not run as a `Type=notify` service.
final class ServiceNotifier {
    private let fd: Int32
    private var address = sockaddr_un()
    private let length: socklen_t
    /// How often to ping: half of $WATCHDOG_USEC (when it is meant for this process), ns.
    let watchdogInterval: UInt64?

    init?(environment: (String) -> String? = { getenv($0).map { String(cString: $0) } }) {
        guard let path = environment("NOTIFY_SOCKET"), !path.isEmpty else { return nil }
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity, bytes.first == UInt8(ascii: "/") || bytes.first == UInt8(ascii: "@") else { return nil }
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
            if bytes.first == UInt8(ascii: "@") { raw[0] = 0 }
        }
        // An abstract name's length counts exactly its bytes; a path's may end with its NUL.
        length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (bytes.first == UInt8(ascii: "@") ? 0 : 1))
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        let usec = environment("WATCHDOG_USEC").flatMap { UInt64($0) }
        let pid = environment("WATCHDOG_PID").flatMap { Int32($0) }
        watchdogInterval = usec.flatMap { $0 > 0 && (pid == nil || pid == getpid()) ? $0 * 1000 / 2 : nil }
    }

    deinit { close(fd) }

    /// Sends one message ("READY=1", "STATUS=...", several joined by newlines); a failure is
    /// not the device's problem (the manager may be gone), so it is not reported.
    func send(_ message: String) {
        var text = message
        text.withUTF8 { bytes in
            withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    _ = sendto(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL), $0, length)
                }
            }
        }
    }
}

/// Whether the watchdog may be pinged: it is time, and the sampling loop has ticked since the
/// last ping (the output thread asks, so asking at all shows that thread runs). A stuck
/// sampling loop stops the pings, and the service manager restarts the service.
struct WatchdogGate {
    let interval: UInt64
    private var lastPing: MonotonicNanoseconds = 0
    private var lastTicks: UInt64 = 0

    init(interval: UInt64) { self.interval = interval }

    mutating func shouldPing(now: MonotonicNanoseconds, samplingTicks: UInt64) -> Bool {
        guard now &- lastPing >= interval, samplingTicks != lastTicks else { return false }
        lastPing = now
        lastTicks = samplingTicks
        return true
    }
}
