import LodestoneCore
import LodestoneDomain

/// Waypoints out of a GPX file (1.0 or 1.1, from any GPS app): every `wpt` with its `name`,
/// `ele`, `desc` (or `cmt`), `sym` and `time`. A small XML reader of its own: elements,
/// attributes in either quote, the five named entities and numeric ones, CDATA, comments and
/// namespace prefixes. Anything it cannot read is skipped and counted, never guessed.
public enum GPXReader {
    public struct Result: Sendable {
        public var waypoints: [Waypoint]
        /// `wpt` elements without a usable name or position.
        public var skipped: Int
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public static func waypoints(_ text: String) throws(Failure) -> Result {
        var result = Result(waypoints: [], skipped: 0)
        var current: (attributes: [String: String], fields: [String: String])?
        var field: String?
        var value = ""
        try scan(text) { event throws(Failure) in
            switch event {
            case .text(let text): if field != nil { value += text }
            case .close(let name, _):
                if name == "wpt", let wpt = current {
                    if let waypoint = waypoint(wpt.attributes, wpt.fields) { result.waypoints.append(waypoint) } else { result.skipped += 1 }
                    current = nil
                } else if let open = field, open == name {
                    current?.fields[open] = value.trimmedWhitespace
                    field = nil
                }
            case .open(let name, let attributes, let selfClosing, _):
                if name == "wpt" {
                    current = (attributes, [:])
                    if selfClosing {
                        result.skipped += 1
                        current = nil
                    }
                } else if current != nil, ["name", "ele", "desc", "cmt", "sym", "time"].contains(name), !selfClosing {
                    field = name
                    value = ""
                }
            }
        }
        return result
    }

    /// What the reader meets, in order: an element opening (its local name, attributes, whether
    /// it closes itself, and its line), one closing, or text (entities decoded, CDATA as is).
    package enum Event {
        case open(String, [String: String], selfClosing: Bool, line: Int)
        case close(String, line: Int)
        case text(String)
    }

    /// Reads the XML of a GPX file as events; refuses a file that is not GPX or is cut short.
    /// The whole text at once: a file too large for memory is read in pieces (`GPXScanner`).
    static func scan(_ text: String, _ handle: (Event) throws(Failure) -> Void) throws(Failure) {
        var scanner = GPXScanner()
        try scanner.feed(Array(text.utf8)[...], handle)
        try scanner.finish(handle)
    }

    static func waypoint(_ attributes: [String: String], _ fields: [String: String]) -> Waypoint? {
        guard let latitude = attributes["lat"].flatMap({ Double($0) }), let longitude = attributes["lon"].flatMap({ Double($0) }),
            abs(latitude) <= 90, abs(longitude) <= 180, let name = fields["name"], !name.isEmpty
        else { return nil }
        return Waypoint(
            name: name, latitude: latitude, longitude: longitude, elevation: fields["ele"].flatMap { Double($0) } ?? .nan,
            symbol: fields["sym"].flatMap { $0.isEmpty ? nil : $0 } ?? "Flag",
            notes: fields["desc"] ?? fields["cmt"] ?? "", created: fields["time"].flatMap(CivilTime.parseISO8601) ?? 0)
    }

    /// `name a="1" b='2'` or `/name` or `name/`.
    static func tagText(_ body: [UInt8]) throws(Failure) -> (name: String, closing: Bool, selfClosing: Bool, attributes: [String: String]) {
        var text = String(decoding: body, as: UTF8.self)
        let closing = text.hasPrefix("/")
        if closing { text.removeFirst() }
        let selfClosing = text.hasSuffix("/")
        if selfClosing { text.removeLast() }
        var attributes: [String: String] = [:]
        var scalars = Substring(text)
        let name = String(scalars.prefix { !$0.isWhitespace })
        scalars = scalars.dropFirst(name.count)
        while true {
            scalars = scalars.drop { $0.isWhitespace }
            guard let equals = scalars.firstIndex(of: "=") else { break }
            let key = localName(String(scalars[..<equals]).trimmedWhitespace)
            scalars = scalars[scalars.index(after: equals)...].drop { $0.isWhitespace }
            guard let quote = scalars.first, quote == "\"" || quote == "'" else {
                throw Failure(description: "attribute '\(key)' of <\(name)> has no quoted value")
            }
            scalars = scalars.dropFirst()
            guard let end = scalars.firstIndex(of: quote) else { throw Failure(description: "attribute '\(key)' of <\(name)> is not closed") }
            attributes[key] = decode(String(scalars[..<end]))
            scalars = scalars[scalars.index(after: end)...]
        }
        return (name, closing, selfClosing, attributes)
    }

    /// `gpx:wpt` is `wpt`.
    static func localName(_ name: String) -> String {
        name.lastIndex(of: ":").map { String(name[name.index(after: $0)...]) } ?? name
    }

    /// The five XML entities and numeric character references.
    static func decode(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var out = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            guard let semicolon = rest[amp...].firstIndex(of: ";"), rest.distance(from: amp, to: semicolon) <= 10 else {
                out += "&"
                rest = rest[rest.index(after: amp)...]
                continue
            }
            let entity = rest[rest.index(after: amp)..<semicolon]
            switch entity {
            case "amp": out += "&"
            case "lt": out += "<"
            case "gt": out += ">"
            case "quot": out += "\""
            case "apos": out += "'"
            default:
                let code =
                    entity.hasPrefix("#x")
                    ? UInt32(entity.dropFirst(2), radix: 16)
                    : entity.hasPrefix("#") ? UInt32(entity.dropFirst(1)) : nil
                if let code, let scalar = Unicode.Scalar(code) { out.unicodeScalars.append(scalar) } else { out += "&" + entity + ";" }
            }
            rest = rest[rest.index(after: semicolon)...]
        }
        return out + rest
    }
}

extension String {
    var trimmedWhitespace: String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}
