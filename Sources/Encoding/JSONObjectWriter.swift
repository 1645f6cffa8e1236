import LodestoneCore

/// One JSON object on a single line, with keys named at run time: the files, `--json` and
/// the nested values of reports. It writes through `JSONBuffer`, the one JSON writer; fields
/// with a non-finite number are left out rather than written as invalid JSON or a fake zero.
public struct JSONObjectWriter: ~Copyable {
    private var buffer = JSONBuffer(capacity: 128)

    public init() { buffer.beginObject() }

    /// Starts with `"class":"NAME"`, as every gpsd report does.
    public init(class name: String) {
        self.init()
        string("class", name)
    }

    public mutating func string(_ key: String, _ value: String?) {
        guard let value else { return }
        buffer.key(key)
        buffer.value(string: value)
    }

    public mutating func number(_ key: String, _ value: Double, decimals: Int = 3) {
        guard value.isFinite else { return }
        buffer.key(key)
        buffer.value(number: value, decimals: decimals)
    }

    public mutating func integer(_ key: String, _ value: Int) {
        buffer.key(key)
        buffer.value(integer: value)
    }

    public mutating func bool(_ key: String, _ value: Bool) {
        buffer.key(key)
        buffer.value(bool: value)
    }

    public mutating func null(_ key: String) {
        buffer.key(key)
        buffer.value(raw: "null")
    }

    /// A value that is already JSON (a nested object or array).
    public mutating func raw(_ key: String, _ json: String) {
        buffer.key(key)
        buffer.value(raw: json)
    }

    /// The object, closed (the writer is one object, so its line ends with one brace).
    public var finished: String { buffer.text + "}" }

    /// A number rounded to `decimals` places, without exponent notation or trailing zeros;
    /// `null` when it is not finite (JSON has no NaN or infinity).
    public static func format(_ value: Double, decimals: Int) -> String {
        value.isFinite ? DecimalText.compact(value, decimals) : "null"
    }

    /// A JSON string literal, quoted and escaped.
    public static func quoted(_ value: String) -> String {
        var buffer = JSONBuffer(capacity: value.utf8.count + 2)
        buffer.value(string: value)
        return buffer.text
    }
}
