import LodestoneCore

/// A parsed JSON value, for requests from socket clients and for configuration files.
/// The parser is strict (RFC 8259), bounded in depth, and reports where it stopped.
public enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    /// A number, and the text it was read from when it was read (so a message refusing it
    /// can quote it as written: "1e308", not the digits of the Double).
    case number(Double, written: String? = nil)
    case string(String)
    case array([JSONValue])
    /// Keys in file order, so error messages and validation can follow the file.
    case object([(String, JSONValue)])

    public static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.number(let x, _), .number(let y, _)): return x == y
        case (.string(let x), .string(let y)): return x == y
        case (.array(let x), .array(let y)): return x == y
        case (.object(let x), .object(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.last { $0.0 == key }?.1
    }

    public var numberValue: Double? { if case .number(let n, _) = self { return n }; return nil }
    public var stringValue: String? { if case .string(let s) = self { return s }; return nil }
    public var boolValue: Bool? { if case .bool(let b) = self { return b }; return nil }
    public var arrayValue: [JSONValue]? { if case .array(let a) = self { return a }; return nil }

    /// What kind of value this is, for error messages ("expected a number, found a string").
    public var kind: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

public struct JSONParseError: Error, Equatable, CustomStringConvertible {
    public var offset: Int
    public var line: Int
    public var reason: String
    public var description: String { "line \(line): \(reason)" }
}

extension JSONValue {
    public static let maximumDepth = 32

    public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        var parser = JSONParser(Array(text.utf8))
        let value = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.index == parser.bytes.count else { throw parser.error("unexpected text after the value") }
        return value
    }
}

struct JSONParser {
    let bytes: [UInt8]
    var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func error(_ reason: String) -> JSONParseError {
        let line = bytes[..<min(index, bytes.count)].reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
        return JSONParseError(offset: index, line: line, reason: reason)
    }

    mutating func skipWhitespace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    mutating func value(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth < JSONValue.maximumDepth else { throw error("nested too deeply") }
        skipWhitespace()
        guard index < bytes.count else { throw error("unexpected end of text") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        default:
            let (value, text) = try number()
            return .number(value, written: text)
        }
    }

    mutating func literal(_ word: String) throws(JSONParseError) {
        for byte in word.utf8 {
            guard index < bytes.count, bytes[index] == byte else { throw error("expected \(word)") }
            index += 1
        }
    }

    mutating func object(depth: Int) throws(JSONParseError) -> JSONValue {
        index += 1
        var members: [(String, JSONValue)] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a quoted key") }
            let key = try string()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':' after \"\(key)\"") }
            index += 1
            members.append((key, try value(depth: depth + 1)))
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end inside an object") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
            throw error("expected ',' or '}'")
        }
    }

    mutating func array(depth: Int) throws(JSONParseError) -> JSONValue {
        index += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
        while true {
            items.append(try value(depth: depth + 1))
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end inside an array") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
            throw error("expected ',' or ']'")
        }
    }

    mutating func string() throws(JSONParseError) -> String {
        index += 1
        var run: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return String(decoding: run, as: UTF8.self)
            }
            guard byte >= 0x20 else { throw error("control character in a string") }
            if byte == UInt8(ascii: "\\") {
                index += 1
                guard index < bytes.count else { break }
                let escaped: UInt8
                switch bytes[index] {
                case UInt8(ascii: "\""): escaped = UInt8(ascii: "\"")
                case UInt8(ascii: "\\"): escaped = UInt8(ascii: "\\")
                case UInt8(ascii: "/"): escaped = UInt8(ascii: "/")
                case UInt8(ascii: "n"): escaped = 0x0A
                case UInt8(ascii: "r"): escaped = 0x0D
                case UInt8(ascii: "t"): escaped = 0x09
                case UInt8(ascii: "b"): escaped = 0x08
                case UInt8(ascii: "f"): escaped = 0x0C
                case UInt8(ascii: "u"):
                    guard index + 4 < bytes.count,
                        let code = UInt32(String(decoding: bytes[(index + 1)...(index + 4)], as: UTF8.self), radix: 16)
                    else { throw error("bad \\u escape") }
                    index += 5
                    let scalar = Unicode.Scalar(code) ?? "\u{FFFD}"
                    run.append(contentsOf: Array(String(scalar).utf8))
                    continue
                default: throw error("bad escape in a string")
                }
                run.append(escaped)
                index += 1
                continue
            }
            run.append(byte)
            index += 1
        }
        throw error("unterminated string")
    }

    mutating func number() throws(JSONParseError) -> (Double, String) {
        let start = index
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        while index < bytes.count,
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index])
                || bytes[index] == UInt8(ascii: ".") || bytes[index] == UInt8(ascii: "e")
                || bytes[index] == UInt8(ascii: "E") || bytes[index] == UInt8(ascii: "+")
                || (bytes[index] == UInt8(ascii: "-") && index > start)
        {
            index += 1
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard !text.isEmpty, let value = Double(text), value.isFinite else {
            index = start
            throw error(text.isEmpty ? "unexpected character" : "'\(text)' is not a number")
        }
        return (value, text)
    }
}

extension JSONValue {
    /// The value for a message that refuses it: a number as it was written ("1e308", "-0.0",
    /// "1E+5"), or in its shortest form when it was not read from text; text in quotes; else
    /// what kind of value it is.
    public var asWritten: String {
        switch self {
        case .number(let n, let written): return written ?? DecimalText.compact(n, 6)
        case .string(let s): return "\"\(s)\""
        case .bool(let b): return b ? "true" : "false"
        default: return kind
        }
    }

    /// The value as JSON text again (members in their order), for files edited in place.
    public var serialized: String {
        switch self {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number(let n, _): return n.isFinite ? (n == n.rounded() && abs(n) < 1e15 ? String(Int64(n)) : String(describing: n)) : "null"
        case .string(let s): return JSONObjectWriter.quoted(s)
        case .array(let items): return "[" + items.map(\.serialized).joined(separator: ",") + "]"
        case .object(let members): return "{" + members.map { JSONObjectWriter.quoted($0.0) + ":" + $0.1.serialized }.joined(separator: ",") + "}"
        }
    }
}
