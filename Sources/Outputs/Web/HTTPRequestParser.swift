/// The device's HTTP/1.1 request parser (RFC 9112), incremental and bounded: it reads what a
/// connection has received so far and says whether a whole request is there, how many bytes
/// it took, or why it is refused, with the status to answer. Nothing a client sends can make it
/// trap or hold more than the limits.
public enum HTTPRequestParser {
    /// What the server takes from one request.
    public struct Limits: Sendable, Equatable {
        /// The request line, bytes (414 beyond).
        public var requestLine = 8 * 1024
        /// The header section, bytes (431 beyond).
        public var headers = 32 * 1024
        /// The body, bytes (413 beyond).
        public var body = 1 << 20
        public init() {}
    }

    public enum Outcome: Sendable, Equatable {
        /// More bytes are needed.
        case incomplete
        /// A whole request, and the bytes it took from the front of the buffer.
        case request(HTTPRequest, consumed: Int)
        /// The request cannot be served: the status to answer and why (the connection closes).
        case refused(status: Int, reason: String)
    }

    public static func parse(_ bytes: ArraySlice<UInt8>, limits: Limits = Limits()) -> Outcome {
        let start = bytes.startIndex
        // The request line. Empty lines before it are allowed (RFC 9112, 2.2).
        var lineStart = start
        while lineStart < bytes.endIndex, bytes[lineStart] == 13 || bytes[lineStart] == 10 {
            lineStart += 1
            if lineStart - start > 64 { return .refused(status: 400, reason: "empty lines instead of a request") }
        }
        guard let lineEnd = lineEnd(in: bytes, from: lineStart, limit: limits.requestLine) else {
            return bytes.endIndex - lineStart > limits.requestLine
                ? .refused(status: 414, reason: "the request line is longer than \(limits.requestLine) bytes") : .incomplete
        }
        guard lineEnd.contentEnd - lineStart <= limits.requestLine else {
            return .refused(status: 414, reason: "the request line is longer than \(limits.requestLine) bytes")
        }
        let line = bytes[lineStart..<lineEnd.contentEnd]
        let parts = line.split(separator: 32, omittingEmptySubsequences: false)
        guard parts.count == 3, let method = token(parts[0]), !parts[1].isEmpty else {
            return .refused(status: 400, reason: "the request line is not METHOD TARGET HTTP/1.1")
        }
        let version = String(decoding: parts[2], as: UTF8.self)
        let minor: Int
        switch version {
        case "HTTP/1.1": minor = 1
        case "HTTP/1.0": minor = 0
        default:
            guard version.hasPrefix("HTTP/"), version.count == 8 else {
                return .refused(status: 400, reason: "the request line is not METHOD TARGET HTTP/1.1")
            }
            return .refused(status: 505, reason: "\(version) is not spoken here: use HTTP/1.1")
        }
        guard let target = visibleText(parts[1]), let (path, query) = split(target: target) else {
            return .refused(status: 400, reason: "the request target is not a path on this device")
        }
        // The header section, up to the empty line.
        var headers: [HTTPRequest.HeaderField] = []
        var at = lineEnd.next
        while true {
            guard let end = self.lineEnd(in: bytes, from: at, limit: limits.headers) else {
                return bytes.endIndex - lineEnd.next > limits.headers
                    ? .refused(status: 431, reason: "the header fields are longer than \(limits.headers) bytes") : .incomplete
            }
            guard end.next - lineEnd.next <= limits.headers else {
                return .refused(status: 431, reason: "the header fields are longer than \(limits.headers) bytes")
            }
            if end.contentEnd == at { at = end.next; break }
            let field = bytes[at..<end.contentEnd]
            guard let first = field.first, first != 32, first != 9 else {
                return .refused(status: 400, reason: "a folded header line (obsolete): send each field on one line")
            }
            guard let colon = field.firstIndex(of: 58), let name = token(field[field.startIndex..<colon]) else {
                return .refused(status: 400, reason: "a header line that is not NAME: VALUE")
            }
            guard let value = fieldValue(field[(colon + 1)...]) else {
                return .refused(status: 400, reason: "a header value with control characters")
            }
            headers.append(HTTPRequest.HeaderField(name: name.lowercased(), value: value))
            if headers.count > 200 { return .refused(status: 431, reason: "more than 200 header fields") }
            at = end.next
        }
        var request = HTTPRequest(method: method, target: target, path: path, query: query, minorVersion: minor, headers: headers)
        let hosts = headers.filter { $0.name == "host" }
        // Every request names its Host once, whatever its version: the name decides which
        // device it is for, and two would let one check read one and another the other.
        if hosts.count != 1 { return .refused(status: 400, reason: "a request names its Host once (a Host header field, exactly one)") }
        if headers.contains(where: { $0.name == "transfer-encoding" }) {
            return .refused(status: 501, reason: "request bodies in chunks are not taken: send Content-Length")
        }
        // The body: Content-Length bytes (one value, digits only).
        let lengths = Set(headers.filter { $0.name == "content-length" }.map(\.value))
        guard lengths.count <= 1 else { return .refused(status: 400, reason: "two different Content-Length fields") }
        var length = 0
        if let text = lengths.first {
            guard !text.isEmpty, text.utf8.count <= 12, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let value = Int(text) else {
                return .refused(status: 400, reason: "Content-Length is not a number of bytes")
            }
            guard value <= limits.body else { return .refused(status: 413, reason: "the body is longer than \(limits.body) bytes") }
            length = value
        }
        guard bytes.endIndex - at >= length else { return .incomplete }
        request.body = Array(bytes[at..<(at + length)])
        return .request(request, consumed: at + length - start)
    }

    /// Where the line from `from` ends (CRLF, or a bare LF as RFC 9112 allows a server to take),
    /// looking no further than `limit` bytes.
    static func lineEnd(in bytes: ArraySlice<UInt8>, from: Int, limit: Int) -> (contentEnd: Int, next: Int)? {
        var index = from
        let stop = min(bytes.endIndex, from + limit + 2)
        while index < stop {
            if bytes[index] == 10 {
                let contentEnd = index > from && bytes[index - 1] == 13 ? index - 1 : index
                return (contentEnd, index + 1)
            }
            index += 1
        }
        return nil
    }

    /// A token (RFC 9110, 5.6.2): the method and field names.
    static func token(_ bytes: ArraySlice<UInt8>) -> String? {
        guard !bytes.isEmpty, bytes.count <= 256, bytes.allSatisfy(isTokenCharacter) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case 48...57, 65...90, 97...122: return true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"), UInt8(ascii: "'"),
            UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"),
            UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            return true
        default: return false
        }
    }

    /// Visible ASCII only (the target).
    static func visibleText(_ bytes: ArraySlice<UInt8>) -> String? {
        guard bytes.allSatisfy({ $0 > 32 && $0 < 127 }) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A field's value without the spaces around it; nil with control characters in it.
    static func fieldValue(_ bytes: ArraySlice<UInt8>) -> String? {
        guard bytes.allSatisfy({ $0 >= 32 && $0 != 127 || $0 == 9 }) else { return nil }
        var slice = bytes
        while let first = slice.first, first == 32 || first == 9 { slice = slice.dropFirst() }
        while let last = slice.last, last == 32 || last == 9 { slice = slice.dropLast() }
        return String(decoding: slice, as: UTF8.self)
    }

    /// The path and the query of an origin-form target ("/a/b?c=d") or of an absolute one
    /// ("http://host/a/b"); nil for anything else, a path with ".." or a NUL in it.
    static func split(target: String) -> (String, [HTTPRequest.QueryItem])? {
        var rest = Substring(target)
        if rest.hasPrefix("http://") {
            rest = rest.dropFirst(7)
            guard let slash = rest.firstIndex(of: "/") else { return ("/", []) }
            rest = rest[slash...]
        }
        guard rest.hasPrefix("/") else { return nil }
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        let pieces = rest.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        guard let rawPath = pieces.first, let path = percentDecoded(rawPath, plusIsSpace: false),
            !path.contains("\0"), !path.split(separator: "/").contains("..")
        else { return nil }
        var query: [HTTPRequest.QueryItem] = []
        if pieces.count == 2 {
            for pair in pieces[1].split(separator: "&") where !pair.isEmpty {
                let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard let name = percentDecoded(kv[0], plusIsSpace: true),
                    let value = kv.count > 1 ? percentDecoded(kv[1], plusIsSpace: true) : ""
                else { return nil }
                query.append(HTTPRequest.QueryItem(name: name, value: value))
                if query.count > 100 { return nil }
            }
        }
        return (path, query)
    }

    /// `%2F` and the like decoded (UTF-8); nil for a broken escape.
    static func percentDecoded(_ text: Substring, plusIsSpace: Bool) -> String? {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%") {
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
                out.append(high << 4 | low)
            } else if plusIsSpace && byte == UInt8(ascii: "+") {
                out.append(32)
            } else {
                out.append(byte)
            }
        }
        return String(validating: out, as: UTF8.self)
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 48...57: return byte - 48
        case 65...70: return byte - 55
        case 97...102: return byte - 87
        default: return nil
        }
    }
}
