/// One command from a socket client, in gpsd's request syntax: `?NAME;` or `?NAME={json};`.
public enum ClientRequest: Equatable, Sendable {
    case watch(JSONValue?)
    case poll
    case devices
    case version
    /// Lodestone's own: the scheduler table and sensor health as a HEALTH report.
    case status
    /// Lodestone's own: start (or with {"cancel":true} stop) a guided magnetometer calibration.
    case calibrate(JSONValue?)
    /// Lodestone's own: lock the current heading, or {"bearing":DEG}; ?UNLOCK; releases it.
    case lock(JSONValue?)
    case unlock
    /// Lodestone's own: {"zero":true} takes the current roll and pitch as level, {"clear":true} forgets it.
    case level(JSONValue?)
    /// Lodestone's own: {"action":"start"|"pause"|"resume"|"stop","name":...}; no argument reports.
    case track(JSONValue?)
    /// Lodestone's own: {"action":"add"|"goto"|"stop","name":...,"lat":..,"lon":..}.
    case waypoint(JSONValue?)
    /// Lodestone's own: {"qnh":HPA} or {"altitude":M} sets the barometer's reference; no argument reports.
    case baro(JSONValue?)
    /// Lodestone's own: {"name":"pressureLow","enabled":..,"threshold":..,...} changes a rule; no argument lists them.
    case alert(JSONValue?)
    /// Lodestone's own: {"action":"start"|"stop","interval":..,"streams":[..],"duration":..}; no argument reports.
    case log(JSONValue?)
    /// Lodestone's own: {"name":..,"notes":..} captures every current value.
    case snapshot(JSONValue?)
    /// Not a command this server knows, or not well formed: answered with an ERROR report.
    case invalid(String)

    /// Splits one request line into its commands (a line may carry several).
    public static func parse(line: String) -> [ClientRequest] {
        var requests: [ClientRequest] = []
        var rest = Substring(line)
        while true {
            rest = rest.drop { $0 == " " || $0 == ";" || $0 == "\r" || $0 == "\n" || $0 == "\t" }
            guard !rest.isEmpty else { break }
            guard rest.first == "?" else {
                requests.append(.invalid("Unrecognized request '\(rest.prefix(40))': requests start with '?'"))
                break
            }
            rest = rest.dropFirst()
            let name = rest.prefix { $0.isLetter }
            rest = rest.dropFirst(name.count)
            var argument: JSONValue?
            if rest.first == "=" {
                rest = rest.dropFirst()
                guard let (json, remaining) = splitJSONObject(rest) else {
                    requests.append(.invalid("Malformed argument to ?\(name): expected a JSON object"))
                    break
                }
                do {
                    argument = try JSONValue.parse(String(json))
                } catch {
                    requests.append(.invalid("Malformed argument to ?\(name): \(error.reason)"))
                    rest = remaining
                    continue
                }
                rest = remaining
            }
            switch name.uppercased() {
            case "WATCH": requests.append(.watch(argument))
            case "POLL": requests.append(.poll)
            case "DEVICES": requests.append(.devices)
            case "VERSION": requests.append(.version)
            case "STATUS": requests.append(.status)
            case "CALIBRATE": requests.append(.calibrate(argument))
            case "LOCK": requests.append(.lock(argument))
            case "UNLOCK": requests.append(.unlock)
            case "LEVEL": requests.append(.level(argument))
            case "TRACK": requests.append(.track(argument))
            case "WAYPOINT": requests.append(.waypoint(argument))
            case "BARO": requests.append(.baro(argument))
            case "ALERT": requests.append(.alert(argument))
            case "LOG": requests.append(.log(argument))
            case "SNAPSHOT": requests.append(.snapshot(argument))
            default: requests.append(.invalid("Unrecognized request '\(name.prefix(40))'"))
            }
        }
        return requests
    }

    /// The balanced `{...}` at the start of `text` and what follows it.
    static func splitJSONObject(_ text: Substring) -> (Substring, Substring)? {
        guard text.first == "{" else { return nil }
        var depth = 0
        var inString = false
        var escaped = false
        for index in text.indices {
            let c = text[index]
            if inString {
                if escaped { escaped = false } else if c == "\\" { escaped = true } else if c == "\"" { inString = false }
                continue
            }
            if c == "\"" { inString = true } else if c == "{" { depth += 1 } else if c == "}" {
                depth -= 1
                if depth == 0 {
                    let end = text.index(after: index)
                    return (text[..<end], text[end...])
                }
            }
        }
        return nil
    }
}
