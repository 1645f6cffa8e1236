/// A browser paired with the device's web app: its cookie is the key, kept only as a digest.
public struct PairedBrowser: Sendable, Equatable {
    /// A short name for `lodestone web devices` and `web forget`.
    public var id: String
    /// What the browser said it was when it paired (its User-Agent, shortened).
    public var name: String
    public var paired: Double
    public var seen: Double
    public init(id: String, name: String, paired: Double, seen: Double) {
        (self.id, self.name, self.paired, self.seen) = (id, name, paired, seen)
    }
}

/// PAIRING: a new one-time pairing address (`?WEBPAIR;`), the paired browsers
/// (`?WEBBROWSERS;`), or what revoking one did (`?WEBFORGET={"id":...};`).
public struct PairingReport: Sendable {
    /// `http://HOST:PORT/pair?code=CODE`, good once until `expires` (UTC seconds).
    public var url: String?
    public var expires: Double?
    public var browsers: [PairedBrowser]?
    public var message: String?
    public init(url: String? = nil, expires: Double? = nil, browsers: [PairedBrowser]? = nil, message: String? = nil) {
        (self.url, self.expires, self.browsers, self.message) = (url, expires, browsers, message)
    }
}
