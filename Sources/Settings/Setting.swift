import LodestoneCore
import LodestoneEncoding
import LodestoneBoard

/// One setting of `lodestone run`, declared once: its key in the configuration file (nested
/// objects joined by dots, `rates.imu`), its command-line flag, what it holds, its unit,
/// default, range or choices, one line of help, and whether a SIGHUP applies it or it waits
/// for a restart. The configuration reader, `run`'s options and `run --help`, `config keys`,
/// `config check`, the shipped file's comments and SIGHUP all read `Setting.all`.
public struct Setting {
    public enum ValueType: String, Sendable {
        case number, integer, boolean, string, path, address, choice, object
    }

    /// Whether a SIGHUP applies a change (`live`) or it waits for the next start (`restart`).
    public enum Reload: String, Sendable {
        case live, restart
    }

    public let key: String
    /// The command-line option without its dashes; nil for a setting of the file only.
    public let flag: String?
    public let type: ValueType
    public let unit: String?
    public let min: Double?
    public let max: Double?
    public let choices: [String]?
    /// `null` in the file (`none` on the command line) leaves it unset, to its automatic choice.
    public let nullable: Bool
    public let reload: Reload
    public let help: String
    /// For a switch: the flag takes no value and sets this one.
    public let flagSets: JSONValue?
    /// What the value must be, in an error ("a number from 1 to 1000").
    public let expected: String
    /// Why a value was not stored.
    enum Refusal: Error {
        /// It is not what `expected` says.
        case notExpected
        case because(String)
        /// A member of an object value (`signalKRates.navigation.foo`) is wrong.
        case at(key: String, String)
    }

    /// A refused value: the key to name (the setting's, or a member's) and what is wrong.
    public struct Problem: Error, Equatable {
        public var key: String
        public var text: String
    }

    /// Stores a value of the right type and range; says why not otherwise.
    let store: (inout Configuration, JSONValue) -> Refusal?
    /// The value a configuration holds, as the file would write it (`null` when unset).
    public let current: (Configuration) -> JSONValue

    init(
        _ key: String, flag: String? = nil, type: ValueType, unit: String? = nil, range: ClosedRange<Double>? = nil,
        choices: [String]? = nil, nullable: Bool = false, reload: Reload, help: String, flagSets: JSONValue? = nil,
        expected: String? = nil, store: @escaping (inout Configuration, JSONValue) -> Refusal?,
        current: @escaping (Configuration) -> JSONValue
    ) {
        self.key = key
        self.flag = flag
        self.type = type
        self.unit = unit
        (min, max) = (range?.lowerBound, range?.upperBound)
        self.choices = choices
        self.nullable = nullable
        self.reload = reload
        self.help = help
        self.flagSets = flagSets
        self.store = store
        self.current = current
        self.expected = expected ?? Self.expectation(type: type, range: range, choices: choices, nullable: nullable)
    }

    static func expectation(type: ValueType, range: ClosedRange<Double>?, choices: [String]?, nullable: Bool) -> String {
        var text: String
        switch type {
        case .number: text = range.map { "a number from \(fixed($0.lowerBound, 3)) to \(fixed($0.upperBound, 3))" } ?? "a number"
        case .integer: text = range.map { "a whole number from \(fixed($0.lowerBound, 0)) to \(fixed($0.upperBound, 0))" } ?? "a whole number"
        case .boolean: text = "true or false"
        case .string: text = "a string"
        case .path: text = "a path"
        case .address: text = "an address"
        case .choice: text = "one of " + (choices ?? []).joined(separator: ", ")
        case .object: text = "an object"
        }
        if nullable { text += ", or null" }
        return text
    }

    /// The default: the value of a configuration nothing has changed.
    public var defaultValue: JSONValue { current(Configuration()) }

    /// Checks `value` against the type, range and choices, then stores it.
    public func apply(_ value: JSONValue, to configuration: inout Configuration) -> Problem? {
        let wrong = Problem(key: key, text: "must be \(expected), found \(describe(value))")
        if value == .null {
            guard nullable else { return wrong }
        } else {
            switch type {
            case .number, .integer:
                guard let number = value.numberValue, number.isFinite else { return wrong }
                if let min, number < min { return wrong }
                if let max, number > max { return wrong }
                if type == .integer, number.rounded() != number { return wrong }
            case .boolean:
                guard value.boolValue != nil else { return wrong }
            case .string, .path, .address:
                // Some text settings also take a number (`trackInterval`: 5 or "adaptive"); their store checks.
                if value.numberValue != nil, choices == nil { break }
                guard let text = value.stringValue, !text.isEmpty, text.utf8.count <= 4096 else { return wrong }
            case .choice:
                guard let text = value.stringValue, choices?.contains(text) ?? false else { return wrong }
            case .object:
                guard case .object = value else { return wrong }
            }
        }
        switch store(&configuration, value) {
        case nil: return nil
        case .notExpected: return wrong
        case .because(let text): return Problem(key: key, text: text)
        case .at(let member, let text): return Problem(key: key + "." + member, text: text)
        }
    }

    /// A command-line value as the file would write it: numbers as numbers, `none` as null
    /// where the setting may be unset, anything else as the string given.
    public func value(fromCommandLine text: String) -> JSONValue {
        if nullable && text == "none" { return .null }
        switch type {
        case .number, .integer:
            return DecimalNumber.parse(text).map { .number($0) } ?? .string(text)
        case .boolean:
            return text == "true" ? .bool(true) : (text == "false" ? .bool(false) : .string(text))
        default:
            return .string(text)
        }
    }
}
