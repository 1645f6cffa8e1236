/// Text as a search compares it: lower case, and Latin letters without their accents, so that
/// "zurich" finds "Zürich", "geneve" "Genève" and "malmo" "Malmö" (a person types on whatever
/// keyboard is at hand). Letters outside Latin-1 and Latin Extended-A are kept as they are.
public enum SearchText {
    /// U+00C0 to U+017F: each letter's base letters, by code point ("" where there is none to take).
    private static let latin: [Character: String] = {
        let groups: [(String, String)] = [
            ("àáâãäåāăą", "a"), ("æ", "ae"), ("çćĉċč", "c"), ("ďđ", "d"), ("èéêëēĕėęě", "e"), ("ĝğġģ", "g"), ("ĥħ", "h"),
            ("ìíîïĩīĭįı", "i"), ("ĳ", "ij"), ("ĵ", "j"), ("ķ", "k"), ("ĺļľŀł", "l"), ("ñńņňŉ", "n"), ("òóôõöøōŏő", "o"),
            ("œ", "oe"), ("ŕŗř", "r"), ("śŝşšſ", "s"), ("ß", "ss"), ("ţťŧ", "t"), ("ùúûüũūŭůűų", "u"), ("ŵ", "w"),
            ("ýÿŷ", "y"), ("źżž", "z"), ("ðđ", "d"), ("þ", "th")
        ]
        var table: [Character: String] = [:]
        for (letters, base) in groups { for letter in letters { table[letter] = base } }
        return table
    }()

    public static func folded(_ text: String) -> String {
        // Most names are plain ASCII: lowered as they are, without a walk through characters.
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.lowercased() }
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text.lowercased() {
            if character.isASCII { out.append(character) } else if let base = latin[character] { out += base } else { out.append(character) }
        }
        return out
    }
}
