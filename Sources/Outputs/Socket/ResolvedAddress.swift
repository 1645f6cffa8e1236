import Glibc

/// A host and port resolved to the one address the outputs use (the first the resolver
/// gives), kept by value, with a non-blocking socket of its family: the gpsd TCP listener,
/// the UDP senders and the MQTT client's connection all start here.
public struct ResolvedAddress {
    public private(set) var storage = sockaddr_storage()
    public let length: socklen_t
    public let family: Int32
    public let type: Int32

    /// Resolves `host` (a name or a numeric address) and `port`; `passive` for an address to
    /// listen on. A failure carries the resolver's words.
    public static func resolve(host: String, port: UInt16, stream: Bool, passive: Bool = false) -> Result<ResolvedAddress, ResolutionFailure> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(stream ? SOCK_STREAM.rawValue : SOCK_DGRAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV | (passive ? AI_PASSIVE : 0)
        var found: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &found)
        guard status == 0, let info = found else { return .failure(ResolutionFailure(description: String(cString: gai_strerror(status)))) }
        defer { freeaddrinfo(info) }
        return .success(ResolvedAddress(info.pointee, type: hints.ai_socktype))
    }

    private init(_ info: addrinfo, type: Int32) {
        length = min(info.ai_addrlen, socklen_t(MemoryLayout<sockaddr_storage>.size))
        family = info.ai_family
        self.type = type
        withUnsafeMutableBytes(of: &storage) { target in
            target.copyMemory(from: UnsafeRawBufferPointer(start: info.ai_addr, count: Int(length)))
        }
    }

    /// A non-blocking socket for this address's family and type; -1 with errno set on failure.
    public func openSocket() -> Int32 {
        socket(family, type | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    }

    /// The address as the socket calls take it.
    public func withAddress<Result>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result {
        withUnsafePointer(to: storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) }
        }
    }
}

/// Why a host could not be resolved, in the resolver's words.
public struct ResolutionFailure: Error, CustomStringConvertible {
    public var description: String
}
