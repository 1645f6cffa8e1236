import LodestoneCore
import LodestoneEncoding
import LodestoneBoard

/// One setting changed in a configuration file's text, the rest kept as the person wrote it
/// (every key in its order, the "//" comments too): what a change from the web app writes, so
/// the file the device runs with says what it runs with, and a SIGHUP or the next start reads
/// the same.
public enum ConfigurationFileEdit {
    /// `text` (a configuration file's object) with `key` (dotted: `sounds.mute`) set to
    /// `value`, written one top-level key a line as `config example` writes it.
    public static func setting(_ key: String, to value: JSONValue, in text: String) throws(ConfigurationError) -> String {
        let root: JSONValue
        do { root = try JSONValue.parse(text) } catch {
            throw ConfigurationError(file: nil, key: nil, problem: "not valid JSON: \(error.description)")
        }
        guard case .object(let members) = root else {
            throw ConfigurationError(file: nil, key: nil, problem: "the file must hold one JSON object")
        }
        let path = key.split(separator: ".").map(String.init)
        guard !path.isEmpty else { throw ConfigurationError(file: nil, key: key, problem: "no key") }
        return written(set(value, at: path[...], in: members))
    }

    private static func set(_ value: JSONValue, at path: ArraySlice<String>, in members: [(String, JSONValue)]) -> [(String, JSONValue)] {
        guard let name = path.first else { return members }
        var members = members
        let index = members.firstIndex { $0.0 == name }
        let next: JSONValue
        if path.count == 1 {
            next = value
        } else {
            var inner: [(String, JSONValue)] = []
            if let index, case .object(let existing) = members[index].1 { inner = existing }
            next = .object(set(value, at: path.dropFirst(), in: inner))
        }
        if let index { members[index].1 = next } else { members.append((name, next)) }
        return members
    }

    /// The object as a person reads it: a top-level key a line, an object's members indented.
    static func written(_ members: [(String, JSONValue)]) -> String {
        func object(_ members: [(String, JSONValue)], indent: String) -> String {
            guard !members.isEmpty else { return "{}" }
            let inner = indent + "  "
            let lines = members.map { name, value -> String in
                let text: String
                if case .object(let nested) = value { text = object(nested, indent: inner) } else { text = value.serialized }
                return inner + JSONObjectWriter.quoted(name) + ": " + text
            }
            return "{\n" + lines.joined(separator: ",\n") + "\n" + indent + "}"
        }
        return object(members, indent: "") + "\n"
    }
}
