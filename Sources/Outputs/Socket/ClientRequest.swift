import LodestoneEncoding
/// One command from a socket client, in gpsd's request syntax: `?NAME;` or `?NAME={json};`.
/// The name is upper-cased; what it means is the request table's business (`RequestTable`),
/// except ?WATCH and ?VERSION, which the server answers itself.
public enum ClientRequest: Equatable, Sendable {
    case command(String, JSONValue?)
    /// Not well formed: answered with an ERROR report.
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
            guard !name.isEmpty else {
                requests.append(.invalid("Unrecognized request '\(rest.prefix(40))': a name follows '?'"))
                break
            }
            requests.append(.command(name.prefix(40).uppercased(), argument))
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
            if c == "\"" {
                inString = true
            } else if c == "{" {
                depth += 1
            } else if c == "}" {
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
