/// One HTTP/1.1 request as the device's web server takes it (RFC 9112): the method, the target
/// split into a percent-decoded path and its query, the header fields (names in lower case,
/// in order) and the body.
public struct HTTPRequest: Sendable, Equatable {
    public var method: String
    /// The target as sent ("/api/v1/tracks?sort=date").
    public var target: String
    /// The path, percent-decoded ("/api/v1/tracks").
    public var path: String
    /// The query's parameters, percent-decoded, in order ("+" is a space).
    public var query: [QueryItem]
    /// 0 for HTTP/1.0, 1 for HTTP/1.1.
    public var minorVersion: Int
    public var headers: [HeaderField]
    public var body: [UInt8]
    /// The client's address as the server saw it ("" when unknown): what per-address limits,
    /// such as the pairing attempts, count by.
    public var remoteAddress = ""

    public struct QueryItem: Sendable, Equatable {
        public var name: String
        public var value: String
        public init(name: String, value: String) { (self.name, self.value) = (name, value) }
    }

    public struct HeaderField: Sendable, Equatable {
        /// In lower case.
        public var name: String
        public var value: String
        public init(name: String, value: String) { (self.name, self.value) = (name, value) }
    }

    public init(
        method: String, target: String, path: String, query: [QueryItem] = [], minorVersion: Int = 1,
        headers: [HeaderField] = [], body: [UInt8] = []
    ) {
        (self.method, self.target, self.path, self.query, self.minorVersion, self.headers, self.body) = (
            method, target, path, query, minorVersion, headers, body
        )
    }

    /// The first field named `name` (any case).
    public func header(_ name: String) -> String? {
        let lower = name.lowercased()
        return headers.first { $0.name == lower }?.value
    }

    /// The first query parameter named `name`.
    public func parameter(_ name: String) -> String? { query.first { $0.name == name }?.value }

    /// Whether the connection stays open after the answer: HTTP/1.1 unless `Connection: close`,
    /// HTTP/1.0 only with `Connection: keep-alive`.
    public var keepAlive: Bool {
        let tokens = (header("connection") ?? "").lowercased().split(separator: ",").map { $0.trimmingSpaces }
        return minorVersion >= 1 ? !tokens.contains("close") : tokens.contains("keep-alive")
    }

    /// The cookie named `name`, from the `Cookie` fields.
    public func cookie(_ name: String) -> String? {
        for field in headers where field.name == "cookie" {
            for pair in field.value.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                if parts.count == 2, parts[0].trimmingSpaces == name { return parts[1].trimmingSpaces }
            }
        }
        return nil
    }
}

extension Substring {
    /// Without spaces and tabs at either end.
    var trimmingSpaces: String {
        var slice = self[...]
        while let first = slice.first, first == " " || first == "\t" { slice = slice.dropFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice = slice.dropLast() }
        return String(slice)
    }
}
