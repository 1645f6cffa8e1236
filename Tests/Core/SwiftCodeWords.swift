/// The words of a Swift file's code: its comments and the text of its string literals are left
/// out (an interpolation's code stays in), so a type named in a doc comment or a log message is
/// not counted as a use of it. Enough of Swift's lexical rules for that, no more: nested block
/// comments, multi-line and raw strings, interpolations holding strings of their own.
struct SwiftCodeWords {
    struct Word {
        var text: String
        /// How many braces are open where it stands: 0 at the file's top level.
        var depth: Int
        /// Something other than white space (an `@`, a parenthesis, `=`...) stands between it
        /// and the word before, so it does not continue that word's list of modifiers.
        var afterPunctuation: Bool
    }

    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0
    private var current: [UInt8] = []
    private var punctuation = true
    private(set) var words: [Word] = []

    init(_ text: String) {
        bytes = Array(text.utf8)
        code(untilClosingParenthesis: false)
    }

    /// The names a file declares at its top level and other files can use: `private` and
    /// `fileprivate` ones are the file's own, and nested types are reached through their
    /// outer type's name.
    var declaredTypes: [String] {
        let kinds: Set<String> = ["struct", "class", "enum", "protocol", "actor", "typealias"]
        var names: [String] = []
        for (position, word) in words.enumerated() where word.depth == 0 && kinds.contains(word.text) && position + 1 < words.count {
            var modifier = position
            var visible = true
            while modifier > 0 && !words[modifier].afterPunctuation {
                modifier -= 1
                if ["private", "fileprivate"].contains(words[modifier].text) { visible = false }
            }
            if visible { names.append(words[position + 1].text) }
        }
        return names
    }

    private static func isIdentifier(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "_") || byte >= 0x80 || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }

    private func peek(_ offset: Int) -> UInt8? { index + offset < bytes.count ? bytes[index + offset] : nil }

    private mutating func endWord() {
        guard !current.isEmpty else { return }
        words.append(Word(text: String(decoding: current, as: UTF8.self), depth: depth, afterPunctuation: punctuation))
        current.removeAll(keepingCapacity: true)
        punctuation = false
    }

    /// Code up to the end (or, in an interpolation, up to its closing parenthesis).
    private mutating func code(untilClosingParenthesis: Bool) {
        var parentheses = 0
        while let byte = peek(0) {
            if Self.isIdentifier(byte) {
                current.append(byte)
                index += 1
                continue
            }
            endWord()
            if byte == UInt8(ascii: "/") && peek(1) == UInt8(ascii: "/") {
                while let next = peek(0), next != UInt8(ascii: "\n") { index += 1 }
                continue
            }
            if byte == UInt8(ascii: "/") && peek(1) == UInt8(ascii: "*") {
                blockComment()
                continue
            }
            if byte == UInt8(ascii: "\"") || (byte == UInt8(ascii: "#") && opensRawString()) {
                string()
                punctuation = true
                continue
            }
            if byte == UInt8(ascii: "(") { parentheses += 1 }
            if byte == UInt8(ascii: ")") {
                if untilClosingParenthesis && parentheses == 0 {
                    index += 1
                    return
                }
                parentheses -= 1
            }
            if byte == UInt8(ascii: "{") { depth += 1 }
            if byte == UInt8(ascii: "}") { depth -= 1 }
            if byte != UInt8(ascii: " ") && byte != UInt8(ascii: "\n") && byte != UInt8(ascii: "\t") { punctuation = true }
            index += 1
        }
        endWord()
    }

    private func opensRawString() -> Bool {
        var offset = 0
        while peek(offset) == UInt8(ascii: "#") { offset += 1 }
        return peek(offset) == UInt8(ascii: "\"")
    }

    private mutating func blockComment() {
        var open = 0
        while let byte = peek(0) {
            if byte == UInt8(ascii: "/") && peek(1) == UInt8(ascii: "*") {
                open += 1
                index += 2
            } else if byte == UInt8(ascii: "*") && peek(1) == UInt8(ascii: "/") {
                open -= 1
                index += 2
                if open == 0 { return }
            } else {
                index += 1
            }
        }
    }

    /// A string literal from its opening `#`s or quote to its closing quote and `#`s; only its
    /// interpolations are read as code.
    private mutating func string() {
        var hashes = 0
        while peek(0) == UInt8(ascii: "#") {
            hashes += 1
            index += 1
        }
        let quote = UInt8(ascii: "\"")
        let quotes = peek(1) == quote && peek(2) == quote ? 3 : 1
        index += quotes
        while let byte = peek(0) {
            if byte == UInt8(ascii: "\\") {
                var offset = 1
                while offset <= hashes && peek(offset) == UInt8(ascii: "#") { offset += 1 }
                guard offset == hashes + 1 else {
                    index += 1
                    continue
                }
                if peek(offset) == UInt8(ascii: "(") {
                    index += offset + 1
                    code(untilClosingParenthesis: true)
                } else {
                    // An escape: the character after it is the string's, whatever it is.
                    index += offset + 1
                }
                continue
            }
            if byte == quote && (0..<quotes).allSatisfy({ peek($0) == quote })
                && (0..<hashes).allSatisfy({ peek(quotes + $0) == UInt8(ascii: "#") })
            {
                index += quotes + hashes
                return
            }
            // A one-line string that runs past its line is not Swift; stop before it swallows the file.
            if quotes == 1 && byte == UInt8(ascii: "\n") { return }
            index += 1
        }
    }
}
