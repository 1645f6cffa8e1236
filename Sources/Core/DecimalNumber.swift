/// The one way a number typed by a person or written in a text file is read: decimal only,
/// as people write numbers. Swift's `Double(String)` also takes "0x10" (16), "nan", "inf" and
/// "infinity", which no option or field here means.
public enum DecimalNumber {
    /// `[+-]digits[.digits][e[+-]digits]` (or `.5`, `5.`), finite; nil otherwise.
    public static func parse<S: StringProtocol>(_ text: S) -> Double? {
        var digits = 0, index = text.startIndex
        func skipDigits() {
            while index < text.endIndex, let ascii = text[index].asciiValue, ascii >= 48, ascii <= 57 {
                digits += 1
                index = text.index(after: index)
            }
        }
        if index < text.endIndex, text[index] == "+" || text[index] == "-" { index = text.index(after: index) }
        skipDigits()
        if index < text.endIndex, text[index] == "." {
            index = text.index(after: index)
            skipDigits()
        }
        guard digits > 0 else { return nil }
        if index < text.endIndex, text[index] == "e" || text[index] == "E" {
            index = text.index(after: index)
            if index < text.endIndex, text[index] == "+" || text[index] == "-" { index = text.index(after: index) }
            let before = digits
            skipDigits()
            guard digits > before else { return nil }
        }
        guard index == text.endIndex, let value = Double(String(text)), value.isFinite else { return nil }
        return value
    }
}
