import LodestoneCore
import LodestoneEncoding
import LodestoneReports

/// The shapes settings come in, so each row of the table is one call.
extension Setting {
    static func number(
        _ key: String, flag: String? = nil, unit: String? = nil, _ range: ClosedRange<Double>, reload: Reload,
        _ help: String, _ path: WritableKeyPath<Configuration, Double>
    ) -> Setting {
        Setting(
            key, flag: flag, type: .number, unit: unit, range: range, reload: reload, help: help,
            store: { c, v in
                c[keyPath: path] = v.numberValue ?? c[keyPath: path]; return nil
            },
            current: { .number($0[keyPath: path]) })
    }

    static func boolean(
        _ key: String, flag: String? = nil, sets: Bool? = nil, reload: Reload, _ help: String,
        _ path: WritableKeyPath<Configuration, Bool>
    ) -> Setting {
        Setting(
            key, flag: flag, type: .boolean, reload: reload, help: help, flagSets: sets.map { .bool($0) },
            store: { c, v in
                c[keyPath: path] = v.boolValue ?? c[keyPath: path]; return nil
            },
            current: { .bool($0[keyPath: path]) })
    }

    static func choice<Value: RawRepresentable & CaseIterable>(
        _ key: String, flag: String? = nil, reload: Reload, _ help: String,
        _ path: WritableKeyPath<Configuration, Value>
    ) -> Setting where Value.RawValue == String {
        Setting(
            key, flag: flag, type: .choice, choices: Value.allCases.map(\.rawValue), reload: reload, help: help,
            store: { c, v in
                guard let chosen = v.stringValue.flatMap(Value.init(rawValue:)) else { return .notExpected }
                c[keyPath: path] = chosen
                return nil
            },
            current: { .string($0[keyPath: path].rawValue) })
    }

    /// A choice that may be left to the device (`null`, `none` on the command line).
    static func optionalChoice<Value: RawRepresentable & CaseIterable>(
        _ key: String, flag: String? = nil, reload: Reload, _ help: String,
        _ path: WritableKeyPath<Configuration, Value?>
    ) -> Setting where Value.RawValue == String {
        Setting(
            key, flag: flag, type: .choice, choices: Value.allCases.map(\.rawValue), nullable: true, reload: reload, help: help,
            store: { c, v in
                if v == .null { c[keyPath: path] = nil; return nil }
                guard let chosen = v.stringValue.flatMap(Value.init(rawValue:)) else { return .notExpected }
                c[keyPath: path] = chosen
                return nil
            },
            current: { $0[keyPath: path].map { .string($0.rawValue) } ?? .null })
    }

    /// Text (a path, an address, a name) that may be unset; `accepts` says whether it is one.
    static func text(
        _ key: String, flag: String? = nil, type: ValueType = .string, nullable: Bool = true, reload: Reload,
        expected: String? = nil, _ help: String, accepts: @escaping (String) -> Bool = { _ in true },
        _ path: WritableKeyPath<Configuration, String?>
    ) -> Setting {
        Setting(
            key, flag: flag, type: type, nullable: nullable, reload: reload, help: help, expected: expected,
            store: { c, v in
                if v == .null { c[keyPath: path] = nil; return nil }
                guard let text = v.stringValue, accepts(text) else { return .notExpected }
                c[keyPath: path] = text
                return nil
            },
            current: { $0[keyPath: path].map { .string($0) } ?? .null })
    }

    /// A whole number.
    static func whole(
        _ key: String, flag: String? = nil, _ range: ClosedRange<Double>, reload: Reload, _ help: String,
        _ path: WritableKeyPath<Configuration, Int>
    ) -> Setting {
        Setting(
            key, flag: flag, type: .integer, range: range, reload: reload, help: help,
            store: { c, v in
                guard let n = v.numberValue, let whole = Int(whole: n) else { return .notExpected }
                c[keyPath: path] = whole
                return nil
            },
            current: { .number(Double($0[keyPath: path])) })
    }

    /// A whole number that may be left unset.
    static func optionalWhole(
        _ key: String, flag: String? = nil, _ range: ClosedRange<Double>, reload: Reload, _ help: String,
        _ path: WritableKeyPath<Configuration, Int?>
    ) -> Setting {
        Setting(
            key, flag: flag, type: .integer, range: range, nullable: true, reload: reload, help: help,
            store: { c, v in
                if v == .null { c[keyPath: path] = nil; return nil }
                guard let n = v.numberValue, let whole = Int(whole: n) else { return .notExpected }
                c[keyPath: path] = whole
                return nil
            },
            current: { $0[keyPath: path].map { .number(Double($0)) } ?? .null })
    }

    /// One of the MQTT output's settings: giving any of them turns the output on (the broker
    /// must then be given too).
    static func mqtt(
        _ name: String, flag: String? = nil, type: ValueType, range: ClosedRange<Double>? = nil, expected: String? = nil,
        _ help: String, store: @escaping (inout MQTTSettings, JSONValue) -> Refusal?,
        current: @escaping (MQTTSettings) -> JSONValue
    ) -> Setting {
        Setting(
            "mqtt." + name, flag: flag, type: type, range: range, reload: .live, help: help, expected: expected,
            store: { c, v in
                var settings = c.mqtt ?? MQTTSettings(broker: "")
                if let refusal = store(&settings, v) { return refusal }
                c.mqtt = settings
                return nil
            },
            current: { c in current(c.mqtt ?? MQTTSettings(broker: "")) })
    }

    /// An MQTT setting of text, 1 to 256 bytes.
    static func mqttText(
        _ name: String, _ help: String, accepts: @escaping (String) -> Bool = { _ in true },
        expected: String = "a string of 1 to 256 bytes",
        _ path: WritableKeyPath<MQTTSettings, String?>
    ) -> Setting {
        mqtt(
            name, type: .string, expected: expected, help,
            store: { s, v in
                guard let text = v.stringValue, text.utf8.count <= 256, accepts(text) else { return .notExpected }
                s[keyPath: path] = text
                return nil
            },
            current: { $0[keyPath: path].map { .string($0) } ?? .null })
    }

    /// The buzzer's pattern for one kind of event.
    static func sound(_ kind: SoundSettings.Kind, _ help: String) -> Setting {
        let names = SoundSettings.library.map(\.name)
        return Setting(
            "sounds." + kind.rawValue, type: .choice, choices: names, reload: .live, help: help,
            store: { c, v in
                guard let name = v.stringValue, names.contains(name) else { return .notExpected }
                c.sounds.chosen[kind] = name
                return nil
            },
            current: { .string($0.sounds.chosen[kind] ?? "none") })
    }

    /// A sampling rate of the configured (walking) profile, Hz.
    static func rate(_ name: String, flag: String?, reload: Reload, _ help: String, _ path: WritableKeyPath<Configuration, Double>) -> Setting {
        number("rates." + name, flag: flag, unit: "Hz", 1...1000, reload: reload, help, path)
    }
}
