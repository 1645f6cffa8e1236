import LodestoneReports
import LodestoneEncoding

/// Why a request could not be decoded: the ERROR report's message, saying what is allowed.
public struct RequestError: Error, Sendable, Equatable {
    public var message: String
    public init(_ message: String) { self.message = message }
}

/// The socket's requests by name, like the CLI's commands: each with the decoder that turns
/// its JSON argument into a typed request, range-checking every field, and the handler that
/// carries it out. The runtime fills the table; the server looks requests up in it.
public struct RequestTable {
    private var routes: [String: (JSONValue?) -> [Report]] = [:]
    /// Requests that change who may do what (pairing a browser, forgetting one): answered
    /// only on the local Unix socket, never on TCP or through the web app.
    private var localOnly: Set<String> = []

    public init() {}

    /// Adds (or replaces) the request `name` (upper case, as `?NAME;` is written).
    public mutating func route<Request>(
        _ name: String, decode: @escaping (JSONValue?) throws(RequestError) -> Request,
        handle: @escaping (Request) -> [Report]
    ) {
        routes[name] = { argument in
            do throws(RequestError) {
                return handle(try decode(argument))
            } catch {
                return [.error(error.message)]
            }
        }
    }

    /// Marks `name` as answered only to clients of the local Unix socket.
    public mutating func restrictToLocalSocket(_ name: String) { localOnly.insert(name) }

    /// Whether `name` is answered only on the local Unix socket.
    public func isLocalOnly(_ name: String) -> Bool { localOnly.contains(name) }

    /// A request that takes no argument (any argument given is ignored, as gpsd does).
    public mutating func route(_ name: String, handle: @escaping () -> [Report]) {
        route(name, decode: { _ throws(RequestError) in () }, handle: handle)
    }

    /// The answer to `?NAME=argument;`; nil when no such request is known.
    public func answer(_ name: String, _ argument: JSONValue?) -> [Report]? {
        routes[name].map { $0(argument) }
    }
}
