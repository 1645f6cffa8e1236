import CLinux
import Glibc
import LodestoneCore

/// A listening TCP socket for clients on other machines or in containers: the gpsd port for
/// GPS clients, the marine NMEA port for chart plotters (addresses as `NetworkAddress` reads
/// them).
public enum TCPListener {
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// Opens a non-blocking listening socket on `address`.
    public static func open(_ address: String) throws(Failure) -> Int32 {
        guard let (host, port) = NetworkAddress.parse(address) else {
            throw Failure(description: "'\(address)' is not an address to listen on: give HOST:PORT (127.0.0.1:2947, [::1]:2947) or a port")
        }
        let resolved: ResolvedAddress
        switch ResolvedAddress.resolve(host: host, port: port, stream: true, passive: true) {
        case .success(let address): resolved = address
        case .failure(let failure): throw Failure(description: "cannot listen on \(address): \(failure); give a numeric address such as 127.0.0.1")
        }
        let fd = resolved.openSocket()
        guard fd >= 0 else { throw Failure(description: "cannot listen on \(address): \(String(cString: strerror(errno)))") }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        guard resolved.withAddress({ bind(fd, $0, $1) }) == 0, listen(fd, 128) == 0 else {
            let code = errno
            close(fd)
            let hint =
                code == EADDRINUSE
                ? " (another program, perhaps gpsd, has the port: stop it or choose another port)"
                : (code == EACCES ? " (ports under 1024 need root)" : "")
            throw Failure(description: "cannot listen on \(address): \(String(cString: strerror(code)))\(hint)")
        }
        return fd
    }
}
