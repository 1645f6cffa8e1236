import LodestoneCore
/// Builds one JSON object on a single line, the way gpsd reports are written. Fields with a
/// non-finite number are left out rather than written as invalid JSON or a fake zero.
public struct JSONObjectWriter {
    public private(set) var text = "{"
    private var first = true

    public init() {}

    /// Starts with `"class":"NAME"`, as every gpsd report does.
    public init(class name: String) {
        string("class", name)
    }

    private mutating func key(_ key: String) {
        if !first { text += "," }
        first = false
        text += "\""
        text += key
        text += "\":"
    }

    public mutating func string(_ key: String, _ value: String?) {
        guard let value else { return }
        self.key(key)
        text += JSONObjectWriter.quoted(value)
    }

    public mutating func number(_ key: String, _ value: Double, decimals: Int = 3) {
        guard value.isFinite else { return }
        self.key(key)
        text += JSONObjectWriter.format(value, decimals: decimals)
    }

    public mutating func integer(_ key: String, _ value: Int) {
        self.key(key)
        text += String(value)
    }

    public mutating func bool(_ key: String, _ value: Bool) {
        self.key(key)
        text += value ? "true" : "false"
    }

    public mutating func null(_ key: String) {
        self.key(key)
        text += "null"
    }

    /// A value that is already JSON (a nested object or array).
    public mutating func raw(_ key: String, _ json: String) {
        self.key(key)
        text += json
    }

    public var finished: String { text + "}" }

    /// A number rounded to `decimals` places, without exponent notation or trailing zeros.
    public static func format(_ value: Double, decimals: Int) -> String {
        guard value.isFinite else { return "null" }   // JSON has no NaN or infinity
        return DecimalText.compact(value, decimals)
    }

    public static func quoted(_ value: String) -> String {
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
