/// The addresses the outputs are told in settings and on the command line, read without
/// touching the network: "HOST:PORT" (IPv6 in brackets, "[::1]:2947") or a bare port, which
/// means the loopback address, so reaching the device from the network needs a non-loopback
/// address written out. A destination may also be a host alone when the protocol has a port
/// of its own.
public enum NetworkAddress {
    /// The marine convention's NMEA 0183 port, for TCP and UDP alike.
    public static let nmeaPort: UInt16 = 10110
    /// MQTT's registered port (a broker given as a host alone).
    public static let mqttPort: UInt16 = 1883

    /// Host and port of an address to listen on or connect to; nil when it is not one.
    public static func parse(_ text: String) -> (host: String, port: UInt16)? {
        if let port = UInt16(text), port > 0 { return ("127.0.0.1", port) }
        var host: Substring, portText: Substring
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            host = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            guard rest.hasPrefix(":") else { return nil }
            portText = rest.dropFirst()
        } else {
            guard let colon = text.lastIndex(of: ":") else { return nil }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        }
        guard !host.isEmpty, let port = UInt16(portText), port > 0 else { return nil }
        return (String(host), port)
    }

    /// Where to send: "HOST:PORT", "HOST" alone (then `defaultPort`, when there is one), or a
    /// bare port (this machine). A broadcast address such as 192.168.1.255 reaches the whole
    /// network.
    public static func destination(_ text: String, defaultPort: UInt16?) -> (host: String, port: UInt16)? {
        if let parsed = parse(text) { return parsed }
        guard let defaultPort, !text.isEmpty, !text.contains(":"), !text.contains(" ") else { return nil }
        return (text, defaultPort)
    }

    /// Whether only this machine can connect to `host`.
    public static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }
}
