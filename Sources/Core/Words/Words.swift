/// The languages the faces speak: English, and German (the lake's). The `language` setting
/// chooses the display's and the terminal's; the web app follows the browser unless the
/// device's setting says otherwise.
public enum Language: String, Sendable, CaseIterable {
    case en, de
}

/// The one table of words every face reads (`WordTable.swift`): a code of the device
/// ("fallingFast", "pressureHigh", "astronomicalDawn", a Zambretti letter) becomes the words a
/// person reads, in the language chosen. Nothing here converts a unit: the figures come in as
/// text, already in the units the face shows.
public enum Words {
    /// The entries by code; the first of a repeated code wins (a test fails on a repeat).
    private static let index: [String: Int] = {
        var index: [String: Int] = [:]
        for (position, entry) in table.enumerated() where index[entry.key] == nil { index[entry.key] = position }
        return index
    }()

    /// Whether the table has words for `key`.
    public static func has(_ key: String) -> Bool { index[key] != nil }

    /// The words for `key` ("trend.fallingFast") in `language`, the figures put in for `{1}`,
    /// `{2}`; the English where the German is missing; nil for a code the table does not know.
    public static func lookup(_ key: String, _ language: Language = .en, _ figures: [String] = []) -> String? {
        guard let position = index[key] else { return nil }
        let entry = table[position]
        var text = language == .de ? (entry.de ?? entry.en) : entry.en
        for (number, figure) in figures.enumerated() { text = text.replacing("{\(number + 1)}", with: figure) }
        return text
    }

    /// The words for `code` in `group` ("trend", "fallingFast"); a code the table does not know
    /// is spelled out as words ("fallingFast" reads "falling fast"), never shown as a code.
    public static func text(_ group: String, _ code: String, _ language: Language = .en, _ figures: String...) -> String {
        lookup(group + "." + code, language, figures) ?? spelledOut(code)
    }

    /// "fallingFast" as "falling fast": the last resort for a code with no entry.
    public static func spelledOut(_ code: String) -> String {
        var out = ""
        for character in code {
            if character.isUppercase, !out.isEmpty, out.last != " " { out += " " }
            out += character.isUppercase && !out.isEmpty ? character.lowercased() : String(character)
        }
        return out
    }

    /// A span of time as people write it: "1 h 37 min", "40 min", "2 d 3 h", "45 s".
    public static func duration(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds >= 0 else { return "--" }
        if seconds < 60 { return "\(Int(seconds.rounded())) s" }
        let minutes = Int((seconds / 60).rounded())
        let (days, hours, rest) = (minutes / 1440, minutes / 60 % 24, minutes % 60)
        if days > 0 { return hours > 0 ? "\(days) d \(hours) h" : "\(days) d" }
        if hours > 0 { return rest > 0 ? "\(hours) h \(rest) min" : "\(hours) h" }
        return "\(rest) min"
    }

    /// The first letter in capitals, for a name that begins a line.
    public static func capitalized(_ text: String) -> String {
        guard let first = text.first else { return text }
        return first.uppercased() + text.dropFirst()
    }

    /// The trend as an arrow and words: "⇊ falling fast, 1.2 hPa an hour" (`rate`: the rate's
    /// size with its unit, already formatted; the direction is in the words).
    public static func trend(_ band: String, arrow: String, rate: String, _ language: Language = .en) -> String {
        arrow + " " + (lookup("trend.rate", language, [text("trend", band, language), rate]) ?? rate)
    }

    /// The sampling profile ("walking/lowPower+shed") in words: "walking, saving power".
    public static func profile(_ name: String, _ language: Language = .en) -> String {
        var parts: [String] = []
        for (index, piece) in name.split(whereSeparator: { $0 == "/" || $0 == "+" }).enumerated() {
            let code = String(piece)
            parts.append(index == 0 ? text("motion", code, language) : text("profile", code, language))
        }
        return parts.joined(separator: ", ")
    }

    /// The next season's countdown: "summer begins today", "winter in 12 days".
    public static func seasonCountdown(_ season: String, days: Int, _ language: Language = .en) -> String {
        let name = text("season", season, language)
        switch days {
        case ..<1: return lookup("season.today", language, [capitalized(name)]) ?? name
        case 1: return lookup("season.tomorrow", language, [capitalized(name)]) ?? name
        default: return lookup("season.inDays", language, [capitalized(name), "\(days)"]) ?? name
        }
    }

    /// The table as the web app's ES module (`web/words.js`), so the browser reads the same
    /// words: written by `WordsTests` with LODESTONE_WRITE_WORDS=1, and compared byte for byte.
    public static func javascript() -> String {
        var out = "// Written from Sources/Core/Words/WordTable.swift (the one table of words every face reads):\n"
        out += "// edit the table there, then LODESTONE_WRITE_WORDS=1 swift test --filter WordsTests.\n"
        out += "export const table = {\n"
        for entry in table {
            out += "  \(quoted(entry.key)): [\(quoted(entry.en)), \(entry.de.map(quoted) ?? "null")],\n"
        }
        return out + "};\n"
    }

    private static func quoted(_ text: String) -> String {
        var out = "\""
        for character in text {
            switch character {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            default: out.append(character)
            }
        }
        return out + "\""
    }
}
