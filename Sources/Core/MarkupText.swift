/// Text put inside XML or HTML: the five characters markup gives a meaning, as entities. The
/// apostrophe's entity is the caller's: `&apos;` for XML (GPX), `&#39;` for HTML pages, which
/// older browsers read where they do not know `&apos;`.
public enum MarkupText {
    public static func escaped(_ text: String, apostrophe: String = "&apos;") -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += apostrophe
            default: out.append(character)
            }
        }
        return out
    }
}
