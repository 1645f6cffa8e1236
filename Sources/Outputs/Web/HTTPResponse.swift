/// One answer of the device's web server. Every answer carries the same protections: a
/// Content-Security-Policy without inline script or anything from outside the device, no
/// content sniffing, no referrer, no framing.
public struct HTTPResponse: Sendable, Equatable {
    public var status: Int
    /// Fields beyond the ones every answer gets (Content-Length, Date-less by design: the
    /// device's clock may not be set).
    public var headers: [HTTPRequest.HeaderField]
    public var body: [UInt8]

    public init(status: Int, headers: [HTTPRequest.HeaderField] = [], body: [UInt8] = []) {
        (self.status, self.headers, self.body) = (status, headers, body)
    }

    /// A short text answer: what went wrong and what to do.
    public static func text(_ status: Int, _ message: String) -> HTTPResponse {
        HTTPResponse(
            status: status,
            headers: [
                .init(name: "content-type", value: "text/plain; charset=utf-8"),
                .init(name: "cache-control", value: "no-store")
            ],
            body: Array((message + "\n").utf8))
    }

    /// A JSON answer (never cached: it is the device's state now).
    public static func json(_ text: String, status: Int = 200) -> HTTPResponse {
        HTTPResponse(
            status: status,
            headers: [
                .init(name: "content-type", value: "application/json"),
                .init(name: "cache-control", value: "no-store")
            ],
            body: Array(text.utf8))
    }

    public mutating func add(_ name: String, _ value: String) { headers.append(.init(name: name, value: value)) }

    /// What the page may load and run: only the device's own files and API, no inline script.
    public static let contentSecurityPolicy =
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        + "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

    /// The bytes on the wire: status line, fields, the empty line and (unless `head`) the body.
    /// `withLength`: false for an event stream, which runs until either end closes.
    public func serialized(head: Bool = false, keepAlive: Bool, withLength: Bool = true) -> [UInt8] {
        var text = "HTTP/1.1 \(status) \(Self.reason(status))\r\n"
        for field in headers { text += field.name + ": " + field.value + "\r\n" }
        if withLength { text += "content-length: \(body.count)\r\n" }
        text += "content-security-policy: \(Self.contentSecurityPolicy)\r\n"
        text += "x-content-type-options: nosniff\r\nreferrer-policy: no-referrer\r\nx-frame-options: DENY\r\n"
        text += keepAlive ? "connection: keep-alive\r\n\r\n" : "connection: close\r\n\r\n"
        var bytes = Array(text.utf8)
        if !head { bytes += body }
        return bytes
    }

    /// The reason phrase for the statuses the server gives.
    public static func reason(_ status: Int) -> String {
        switch status {
        case 101: return "Switching Protocols"
        case 200: return "OK"
        case 204: return "No Content"
        case 303: return "See Other"
        case 304: return "Not Modified"
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 408: return "Request Timeout"
        case 409: return "Conflict"
        case 413: return "Content Too Large"
        case 414: return "URI Too Long"
        case 415: return "Unsupported Media Type"
        case 421: return "Misdirected Request"
        case 422: return "Unprocessable Content"
        case 431: return "Request Header Fields Too Large"
        case 500: return "Internal Server Error"
        case 501: return "Not Implemented"
        case 503: return "Service Unavailable"
        case 505: return "HTTP Version Not Supported"
        default: return "Status"
        }
    }
}
