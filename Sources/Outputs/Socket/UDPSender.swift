import Glibc
import LodestoneCore

/// Datagrams to one address, unicast or broadcast: NMEA 0183 and Signal K over UDP, which
/// chart plotters, OpenCPN and signalk-server listen for on a boat's network. Sending never blocks: a datagram
/// the network cannot take now is dropped, as UDP's receivers expect.
public final class UDPSender {
    public let address: String
    private let fd: Int32
    private let destination: ResolvedAddress
    private let maximumDatagram: Int

    public init(address: String, defaultPort: UInt16?, maximumDatagram: Int = 512) throws(TCPListener.Failure) {
        self.address = address
        self.maximumDatagram = maximumDatagram
        guard let (host, port) = NetworkAddress.destination(address, defaultPort: defaultPort) else {
            let forms = defaultPort.map { "HOST:PORT (192.168.1.255:\($0)), a host or a port" } ?? "HOST:PORT (192.168.1.20:10111) or a port"
            throw TCPListener.Failure(description: "'\(address)' is not an address to send to: give " + forms)
        }
        let resolved: ResolvedAddress
        switch ResolvedAddress.resolve(host: host, port: port, stream: false) {
        case .success(let address): resolved = address
        case .failure(let failure): throw TCPListener.Failure(description: "cannot send to \(address): \(failure)")
        }
        fd = resolved.openSocket()
        guard fd >= 0 else { throw TCPListener.Failure(description: "cannot send to \(address): \(String(cString: strerror(errno)))") }
        // A broadcast address needs leave to be sent to; a unicast one does not mind.
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_BROADCAST, &yes, socklen_t(MemoryLayout<Int32>.size))
        destination = resolved
    }

    deinit { close(fd) }

    /// One datagram of `bytes` followed by `ending`; a line longer than the largest datagram
    /// is not sent (a cut JSON object or sentence would only be refused by the receiver).
    public func send(_ bytes: UnsafeBufferPointer<UInt8>, ending: StaticString = "\r\n") {
        let total = bytes.count + ending.utf8CodeUnitCount
        guard total <= maximumDatagram else { oversized += 1; return }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maximumDatagram) { buffer in
            guard let base = buffer.baseAddress, let source = bytes.baseAddress else { return }
            base.update(from: source, count: bytes.count)
            (base + bytes.count).update(from: ending.utf8Start, count: ending.utf8CodeUnitCount)
            destination.withAddress { address, length in
                _ = sendto(fd, base, total, Int32(MSG_DONTWAIT | MSG_NOSIGNAL), address, length)
            }
        }
    }

    /// Lines too long for one datagram, left unsent.
    public private(set) var oversized = 0
}
