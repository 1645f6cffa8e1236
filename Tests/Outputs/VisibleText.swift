/// What a person must never read on a face: a code (a camelCase identifier, a raw enum), a
/// JSON fragment, `NaN`, `null`, `nil`, a number in exponent form, or a unit in one letter or
/// in capitals ("HPA", "KM/H", "6M", "G11.2"). The same rules as the web app's check
/// (`scripts/web-words.py`).
enum VisibleText {
    /// Units written with a capital in their own spelling, and the one spelling they have.
    static let mixedCaseUnits: Set<String> = ["hPa", "inHg", "mmHg", "kWh", "mAh"]
    static let codes: Set<String> = ["NaN", "nan", "null", "nil", "undefined", "Infinity", "inf"]
    static let shoutedUnits: Set<String> = ["HPA", "KM", "KMH", "KN", "KT", "MIN", "HZ", "MPH", "NM", "FT", "INHG", "SATS"]

    /// Each problem in `text`, named with the word that shows it.
    static func problems(in text: String) -> [String] {
        var found: [String] = []
        for mark in ["{", "}", "\\"] where text.contains(mark) { found.append("JSON or code mark \(mark)") }
        // A quotation mark, except the seconds of arc after a figure (46°41'10.7").
        let characters = Array(text)
        for (index, character) in characters.enumerated() where character == "\"" && (index == 0 || !characters[index - 1].isNumber) {
            found.append("JSON or code mark \"")
        }
        if exponent(text) { found.append("a number in exponent form") }
        var words: [String] = []
        var word = ""
        for character in characters + [" "] {
            if character.isLetter || character.isNumber || character == "." || character == "/" {
                word.append(character)
            } else if !word.isEmpty {
                words.append(word)
                word = ""
            }
        }
        for (index, token) in words.enumerated() {
            let letters = token.filter(\.isLetter)
            if let first = letters.first, first.isLowercase, letters.dropFirst().contains(where: \.isUppercase),
                !mixedCaseUnits.contains(String(letters))
            {
                found.append("camelCase \(token)")
            }
            if codes.contains(token) { found.append("code \(token)") }
            if shoutedUnits.contains(token) || token.hasSuffix("KM/H") || token == "M/S" { found.append("unit in capitals \(token)") }
            // A figure glued to a lone letter ("6M", "6m", "G11.2") or followed by a lone "M".
            if token.count >= 2, let last = token.last, last == "M" || last == "m", token.dropLast().allSatisfy({ $0.isNumber || $0 == "." }) {
                found.append("one letter for a unit \(token)")
            }
            if token.count >= 2, token.first == "G", token.dropFirst().allSatisfy({ $0.isNumber || $0 == "." }) {
                found.append("one letter for a word \(token)")
            }
            if token == "M", index > 0, words[index - 1].allSatisfy({ $0.isNumber || $0 == "." }) {
                found.append("one letter for a unit \(words[index - 1]) M")
            }
        }
        return found
    }

    /// "1e+05", "2.5E-3": a figure, an e, a sign, a digit. Swift and JavaScript both write the
    /// exponent's sign; without one it is a revision hash ("280e82"), not a figure.
    static func exponent(_ text: String) -> Bool {
        let characters = Array(text)
        for (index, character) in characters.enumerated() where (character == "e" || character == "E") && index > 0 {
            guard characters[index - 1].isNumber else { continue }
            // A figure, not a word or a hash ("cf1f2e0"): nothing but digits before it.
            var start = index - 1
            while start > 0, characters[start - 1].isNumber || characters[start - 1] == "." { start -= 1 }
            if start > 0, characters[start - 1].isLetter { continue }
            var next = index + 1
            guard next < characters.count, characters[next] == "+" || characters[next] == "-" else { continue }
            next += 1
            guard next < characters.count, characters[next].isNumber else { continue }
            // A figure's end, not a hash's middle ("427e6f").
            while next < characters.count, characters[next].isNumber { next += 1 }
            if next == characters.count || !(characters[next].isLetter || characters[next].isNumber) { return true }
        }
        return false
    }
}
