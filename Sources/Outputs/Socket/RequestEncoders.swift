import LodestoneCore
import LodestoneDomain
import LodestoneReports
import LodestoneEncoding

/// The requests as a client writes them, the encoders beside the decoders
/// (`RequestDecoders`): what `lodestone` sends a running device is a typed request turned into
/// text here, and what a decoder reads back is the same request (the tests check every kind
/// both ways). `?NAME;` when there is no argument, `?NAME={...};` otherwise.
public protocol SocketRequest {
    static var requestName: String { get }
    /// The JSON argument; nil for the bare request.
    var argument: JSONValue? { get }
}

extension SocketRequest {
    /// The request's line, as the socket reads it.
    public var text: String { argument.map { "?\(Self.requestName)=\($0.serialized);" } ?? "?\(Self.requestName);" }
}

/// The requests without an argument that the command line sends.
public enum PlainRequest: String {
    case status = "STATUS", poll = "POLL", config = "CONFIG", devices = "DEVICES", unlock = "UNLOCK", version = "VERSION"
    case webPair = "WEBPAIR", webBrowsers = "WEBBROWSERS"
    public var text: String { "?\(rawValue);" }
}

/// An object of the members that are given, in order.
private func object(_ members: [(String, JSONValue?)]) -> JSONValue {
    .object(members.compactMap { key, value in value.map { (key, $0) } })
}

private func number(_ value: Double?) -> JSONValue? { value.map { .number($0) } }
private func string(_ value: String?) -> JSONValue? { value.map { .string($0) } }

extension WatchOptions: SocketRequest {
    public static var requestName: String { "WATCH" }
    public var argument: JSONValue? {
        var members: [(String, JSONValue?)] = [("enable", .bool(enabled)), ("json", .bool(json))]
        if nmea { members.append(("nmea", .bool(true))) }
        members.append(("device", string(device)))
        if !rates.isEmpty { members.append(("rates", .object(rates.sorted { $0.key < $1.key }.map { ($0.key, .number($0.value)) }))) }
        return object(members)
    }
}

extension CalibrateRequest: SocketRequest {
    public static var requestName: String { "CALIBRATE" }
    public var argument: JSONValue? {
        switch self {
        case .cancel: return object([("cancel", .bool(true))])
        case .start(let mode): return mode.map { object([("mode", .string($0.rawValue))]) }
        }
    }
}

extension LockRequest: SocketRequest {
    public static var requestName: String { "LOCK" }
    public var argument: JSONValue? { bearing.map { object([("bearing", .number($0))]) } }
}

extension LevelRequest: SocketRequest {
    public static var requestName: String { "LEVEL" }
    public var argument: JSONValue? {
        switch self {
        case .report: return nil
        case .zero: return object([("zero", .bool(true))])
        case .clear: return object([("clear", .bool(true))])
        }
    }
}

extension TrackRequest: SocketRequest {
    public static var requestName: String { "TRACK" }
    public var argument: JSONValue? {
        switch self {
        case .report: return nil
        case .start(let name, let tags, let mode, let notes, let isPrivate):
            var interval: JSONValue?
            switch mode {
            case .every(let seconds)?: interval = .number(seconds)
            case .adaptive?: interval = .string("adaptive")
            case nil: interval = nil
            }
            return object([
                ("action", .string("start")), ("name", string(name)),
                ("tags", tags.isEmpty ? nil : .array(tags.map { .string($0) })), ("interval", interval), ("notes", string(notes)),
                ("private", isPrivate ? .bool(true) : nil)
            ])
        case .pause: return object([("action", .string("pause"))])
        case .resume: return object([("action", .string("resume"))])
        case .stop: return object([("action", .string("stop"))])
        }
    }
}

extension WaypointRequest: SocketRequest {
    public static var requestName: String { "WAYPOINT" }
    public var argument: JSONValue? {
        switch self {
        case .report: return nil
        case .add(let name, let latitude, let longitude, let elevation, let symbol, let notes):
            return object([
                ("action", .string("add")), ("name", .string(name)), ("lat", number(latitude)), ("lon", number(longitude)),
                ("ele", number(elevation)), ("symbol", string(symbol)), ("notes", string(notes))
            ])
        case .back: return object([("action", .string("back"))])
        case .goto(let name): return object([("action", .string("goto")), ("name", .string(name))])
        case .rename(let name, let to): return object([("action", .string("rename")), ("name", .string(name)), ("to", .string(to))])
        case .delete(let name): return object([("action", .string("delete")), ("name", .string(name))])
        case .nearest: return object([("action", .string("nearest"))])
        case .stop: return object([("action", .string("stop"))])
        }
    }
}

extension BaroRequest: SocketRequest {
    public static var requestName: String { "BARO" }
    public var argument: JSONValue? {
        switch self {
        case .report: return nil
        case .qnh(let hPa): return object([("qnh", .number(hPa))])
        case .altitude(let metres): return object([("altitude", .number(metres))])
        }
    }
}

extension AlertRuleChange: SocketRequest {
    public static var requestName: String { "ALERT" }
    public var argument: JSONValue? {
        object([
            ("name", .string(kind.rawValue)), ("enabled", enabled.map { .bool($0) }), ("threshold", number(threshold)),
            ("hysteresis", number(hysteresis)), ("cooldown", number(cooldown))
        ])
    }
}

extension LogRequest: SocketRequest {
    public static var requestName: String { "LOG" }
    public var argument: JSONValue? {
        switch self {
        case .report: return nil
        case .start(let interval, let streams, let duration):
            return object([
                ("action", .string("start")), ("interval", interval == 0 ? .string("every") : .number(interval)),
                ("streams", .array(streams.map { .string($0) })), ("duration", number(duration))
            ])
        case .stop: return object([("action", .string("stop"))])
        }
    }
}

extension DeparturesRequest: SocketRequest {
    public static var requestName: String { "DEPARTURES" }
    public var argument: JSONValue? {
        object([
            ("stop", string(stop)), ("count", .number(Double(count))), ("remind", string(remind)), ("minutes", .number(minutes)),
            ("at", string(at.map { CivilTime(unixSeconds: $0).iso8601 } ?? day))
        ])
    }
}

extension ReminderRequest: SocketRequest {
    public static var requestName: String { "REMINDER" }
    public var argument: JSONValue? {
        switch self {
        case .list: return nil
        case .add(let trip, let stop, let minutes): return object([("trip", .string(trip)), ("stop", string(stop)), ("minutes", .number(minutes))])
        case .cancel(let id): return .object([("cancel", .string(id))])
        }
    }
}

extension SnapshotRequest: SocketRequest {
    public static var requestName: String { "SNAPSHOT" }
    public var argument: JSONValue? {
        name == nil && notes == nil ? nil : object([("name", string(name)), ("notes", string(notes))])
    }
}

extension WebForgetRequest: SocketRequest {
    public static var requestName: String { "WEBFORGET" }
    public var argument: JSONValue? { .object([("id", .string(id))]) }
}

extension WavesRequest: SocketRequest {
    public static var requestName: String { "WAVES" }
    public var argument: JSONValue? {
        switch place {
        case .stop(let name): return object([("stop", .string(name)), ("date", string(date))])
        case .spot(let lat, let lon, let radius):
            return object([("spot", .array([.number(lat), .number(lon)])), ("radius", .number(radius)), ("date", string(date))])
        }
    }
}
