import Glibc
import LodestoneCore

/// A stream of lines for listeners that only listen: a TCP server that sends every connected
/// client the same lines, and datagrams (one line each) to a UDP address, unicast or
/// broadcast. The NMEA 0183 output (chart plotters, autopilots; CR LF, port 10110) and the
/// Signal K output (newline-framed deltas) are two of them. What TCP clients send is read and
/// ignored. A client that stops reading is dropped once its backlog passes the limit, so it
/// can delay no one.
public final class StreamServer {
    /// How a stream frames its lines, and its conventions.
    public struct Framing: Sendable {
        /// What ends each line on TCP and each datagram.
        public var ending: StaticString
        /// The UDP port a host alone means; nil when the port must be given.
        public var defaultPort: UInt16?
        /// The largest datagram sent (a longer line is not sent over UDP).
        public var maximumDatagram: Int
        public var maximumBacklog: Int

        /// NMEA 0183: CR LF, the marine convention's port 10110 for TCP and UDP alike.
        public static let nmea = Framing(ending: "\r\n", defaultPort: NetworkAddress.nmeaPort, maximumDatagram: 512, maximumBacklog: 64 * 1024)
        /// Signal K deltas: one JSON object per line or datagram; a datagram fits an
        /// Ethernet frame unfragmented (1500 - 20 IP - 8 UDP).
        public static let signalK = Framing(ending: "\n", defaultPort: nil, maximumDatagram: 1472, maximumBacklog: 256 * 1024)
    }

    public let framing: Framing
    private var listener: Int32
    private var clients: [Connection] = []
    private let datagrams: UDPSender?
    /// The TCP address listened on, if any.
    public let address: String?
    public private(set) var droppedSlowClients = 0
    /// Clients accepted since the start (a new one may need a greeting, such as Signal K's meta).
    public private(set) var acceptedClients = 0
    public static let maximumClients = 64

    /// `address`: where to listen on TCP (nil for none); `udp`: where to send datagrams.
    public init(_ framing: Framing, address: String?, udp: String? = nil) throws(TCPListener.Failure) {
        self.framing = framing
        self.address = address
        listener = try address.map { (a: String) throws(TCPListener.Failure) -> Int32 in try TCPListener.open(a) } ?? -1
        datagrams = try udp.map { (u: String) throws(TCPListener.Failure) -> UDPSender in
            try UDPSender(address: u, defaultPort: framing.defaultPort, maximumDatagram: framing.maximumDatagram)
        }
    }

    /// The server for these addresses, or nil when there are none.
    public static func opened(_ framing: Framing, address: String?, udp: String?) throws(TCPListener.Failure) -> StreamServer? {
        guard address != nil || udp != nil else { return nil }
        return try StreamServer(framing, address: address, udp: udp)
    }

    deinit { shutdown() }

    public func shutdown() {
        for client in clients { close(client.fd) }
        clients.removeAll()
        if listener >= 0 { close(listener) }
        listener = -1
    }

    public var clientCount: Int { clients.count }

    /// The descriptors to poll for input (the listener's and each client's), added to `list`
    /// (kept by the caller from wait to wait, so nothing is allocated once it has grown).
    public func appendPollDescriptors(to list: inout [Int32]) {
        guard listener >= 0 else { return }
        list.append(listener)
        for client in clients { list.append(client.fd) }
    }

    /// Accepts new clients, discards what clients sent, flushes queued output, drops the gone.
    public func service() {
        guard listener >= 0 else { return }
        Connection.acceptAll(listener) { fd in
            guard clients.count < Self.maximumClients else { close(fd); return }
            clients.append(Connection(fd: fd))
            acceptedClients += 1
        }
        var gone: [Int32] = []
        var scratch = [UInt8](repeating: 0, count: 512)
        for client in clients {
            while true {
                let count = scratch.withUnsafeMutableBytes { recv(client.fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
                if count > 0 { continue }
                if count == 0 || (errno != EAGAIN && errno != EINTR) { gone.append(client.fd) }
                break
            }
            if !client.flush() { gone.append(client.fd) }
        }
        drop(gone)
    }

    /// Sends one line (its ending added) to every client.
    public func send(_ line: String) {
        var line = line
        line.withUTF8 { send($0) }
    }

    /// A line's bytes (its ending added) to every listener (nothing allocated).
    public func send(_ line: UnsafeBufferPointer<UInt8>) {
        datagrams?.send(line, ending: framing.ending)
        var slow: [Int32] = []
        for client in clients {
            client.enqueue(line: line, ending: framing.ending)
            if client.pending > framing.maximumBacklog { slow.append(client.fd) }
        }
        droppedSlowClients += slow.count
        drop(slow)
    }

    private func drop(_ descriptors: [Int32]) {
        guard !descriptors.isEmpty else { return }
        clients.removeAll { client in
            guard descriptors.contains(client.fd) else { return false }
            close(client.fd)
            return true
        }
    }
}
