import Glibc

/// The NMEA 0183 output: a TCP server (the marine convention is port 10110) that sends every
/// connected chart plotter or autopilot the same stream of sentences, and datagrams to a UDP
/// address (unicast or broadcast) for those that listen instead. TCP clients only listen;
/// what they send is read and ignored. A client that stops reading is dropped once its
/// backlog passes the limit, so it can delay no one.
public final class NMEAServer {
    private var listener: Int32
    private var clients: [Connection] = []
    private let datagrams: UDPSender?
    /// The TCP address listened on, if any.
    public let address: String?
    public private(set) var droppedSlowClients = 0
    public static let maximumBacklog = 64 * 1024
    public static let maximumClients = 64
    /// The marine convention's port, for TCP and UDP alike.
    public static let standardPort: UInt16 = 10110

    /// `address`: where to listen on TCP (nil for none); `udp`: where to send datagrams.
    public init(address: String?, udp: String? = nil) throws(TCPListener.Failure) {
        self.address = address
        listener = try address.map { (a: String) throws(TCPListener.Failure) -> Int32 in try TCPListener.open(a) } ?? -1
        datagrams = try udp.map { (u: String) throws(TCPListener.Failure) -> UDPSender in try UDPSender(address: u, defaultPort: Self.standardPort) }
    }

    /// The server for these addresses, or nil when there are none.
    public static func opened(address: String?, udp: String?) throws(TCPListener.Failure) -> NMEAServer? {
        guard address != nil || udp != nil else { return nil }
        return try NMEAServer(address: address, udp: udp)
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

    /// Sends one sentence (with CR LF) to every client.
    public func send(_ sentence: String) {
        var sentence = sentence
        sentence.withUTF8 { send($0) }
    }

    /// A sentence's bytes (CR LF added) to every listener (nothing allocated).
    public func send(_ sentence: UnsafeBufferPointer<UInt8>) {
        datagrams?.send(sentence)
        var slow: [Int32] = []
        for client in clients {
            client.enqueue(line: sentence)
            if client.pending > Self.maximumBacklog { slow.append(client.fd) }
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
