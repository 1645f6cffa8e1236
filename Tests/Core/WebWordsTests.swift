import LodestoneCore
import Testing

/// The web app's fixed words come from the table, as the display's and the terminal's do:
/// every text of `web/index.html` and `web/pairing.html` a person reads (a heading, a label, a
/// button, a hint, an option, an empty state) stands in an element marked `data-w="KEY"`, and
/// every aria-label, title and placeholder has its `data-w-...` twin, so that a German browser
/// never reads English the table has German for (`web/lang.js` fills them in). Figures, units,
/// symbols and the few names in `names` need no entry. Each key is one of the table's, and the
/// English a page keeps for the moment before its script runs is the table's English.
@Suite struct WebWordsTests {
    static let pages = ["web/index.html", "web/pairing.html"]
    /// Names and units that stand in a page as they are, in every language.
    static let names: Set<String> = ["Lodestone", "s", "min", "h", "m", "km", "km/h", "mph", "kn", "hPa", "°C"]
    /// Elements whose text is not the page's words: a command stays as it is typed.
    static let verbatim: Set<String> = ["code", "script", "style"]
    static let attributes = ["aria-label", "title", "placeholder", "alt"]

    static func read(_ file: String) -> String? {
        try? readTextFile(WordsTests.repository + "/" + file)
    }

    @Test(arguments: pages) func everyWordOfThePageIsTheTables(file: String) throws {
        let html = try #require(Self.read(file), "cannot read \(file)")
        let problems = WebWordsCheck(names: Self.names, verbatim: Self.verbatim, attributes: Self.attributes).problems(in: html)
        #expect(problems.isEmpty, "\(file): \(problems.joined(separator: "\n"))")
    }

    /// Every key a page's script names ("label.distance", "trend.waiting") is the table's: a
    /// missing one would show nothing, or "undefined", in either language.
    @Test func everyKeyTheScriptsNameIsTheTables() throws {
        let groups = Set(Words.table.compactMap { $0.key.split(separator: ".", maxSplits: 1).first.map(String.init) })
        let files = [
            "alerts", "api", "banner", "barometer", "compass", "departures", "device", "format", "graph", "history", "lang", "map", "position",
            "recording", "settings", "sky", "skyevents", "snapshots", "station", "stops", "track", "units", "waves", "waypoints", "zone"
        ]
        for name in files {
            let text = try #require(Self.read("web/\(name).js"), "cannot read web/\(name).js")
            for literal in WebWordsCheck.stringLiterals(text) {
                let parts = literal.split(separator: ".", maxSplits: 1).map(String.init)
                guard parts.count == 2, groups.contains(parts[0]), !parts[1].isEmpty, !parts[1].contains("/") else { continue }
                #expect(Words.has(literal), "web/\(name).js names \(literal), which the table lacks")
            }
        }
    }

    /// The check itself, on a page that breaks each rule and one that keeps them.
    @Test func theCheckFindsEnglishLeftInAPage() {
        let check = WebWordsCheck(names: Self.names, verbatim: Self.verbatim, attributes: Self.attributes)
        let broken = """
            <h2>Distance</h2><button title="Night theme" data-w="label.close">Close</button>
            <p data-w="label.nowhere">Elsewhere</p><dt data-w="label.speed">Velocity</dt>
            """
        let problems = check.problems(in: broken)
        #expect(problems.count == 4, "\(problems)")
        let kept = """
            <title>Lodestone</title><h2 data-w="label.distance">Distance</h2><span>1 h</span> <b>---°</b>
            <p data-w="pairing.run">Run <code>lodestone web pair</code>: it prints an address and, on a terminal, draws it as a QR code.</p>
            <dt data-w="word.gust">Gust</dt><input placeholder="e.g. Ridge walk" data-w-placeholder="label.trackNameExample"><!-- a comment -->
            """
        #expect(check.problems(in: kept).isEmpty, "\(check.problems(in: kept))")
    }
}

/// Just enough of HTML for the app's own pages: tags with their attributes, and text; the
/// doctype, comments, and a script's or a style's content left out.
struct WebWordsCheck {
    let names: Set<String>
    let verbatim: Set<String>
    let attributes: [String]
    static let void: Set<String> = ["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"]

    enum Piece: Equatable {
        case open(name: String, attributes: [String: String], closed: Bool)
        case close(String)
        case text(String)
    }

    /// An element open at a point of the page: its name, attributes, and its words so far with
    /// `{1}`, `{2}` for its own elements (as `lang.js` puts them back).
    struct Open {
        var name: String
        var attributes: [String: String]
        var shape = ""
        var children = 0
    }

    func problems(in html: String) -> [String] {
        var problems: [String] = []
        var stack: [Open] = []
        for piece in Self.pieces(html) {
            switch piece {
            case .open(let name, let attributes, let closed):
                problems += attributeProblems(name, attributes)
                if let key = attributes["data-w"], !Words.has(key) { problems.append("<\(name) data-w=\"\(key)\">: the table has no \(key)") }
                if var parent = stack.popLast() {
                    parent.children += 1
                    parent.shape += "{\(parent.children)}"
                    stack.append(parent)
                }
                if !closed && !Self.void.contains(name) { stack.append(Open(name: name, attributes: attributes)) }
            case .close(let name):
                while let open = stack.popLast() {
                    problems += englishProblems(open)
                    if open.name == name { break }
                }
            case .text(let text):
                guard var open = stack.popLast() else { continue }
                open.shape += text
                stack.append(open)
                let named = stack.contains { verbatim.contains($0.name) || $0.attributes["translate"] == "no" }
                if open.attributes["data-w"] == nil, !named, !standsAsItIs(text) {
                    problems.append("<\(open.name)> shows \"\(Self.collapsed(text))\" without data-w")
                }
            }
        }
        return problems
    }

    /// Figures, symbols, units and names: no word of a language.
    func standsAsItIs(_ text: String) -> Bool {
        text.split(whereSeparator: \.isWhitespace).allSatisfy { token in !token.contains(where: \.isLetter) || names.contains(String(token)) }
    }

    /// An aria-label, title or placeholder in words must have its key, whose English it is.
    func attributeProblems(_ name: String, _ attributes: [String: String]) -> [String] {
        var problems: [String] = []
        for attribute in self.attributes {
            guard let value = attributes[attribute], !standsAsItIs(value) else { continue }
            guard let key = attributes["data-w-" + attribute] else {
                problems.append("<\(name) \(attribute)=\"\(value)\"> without data-w-\(attribute)")
                continue
            }
            if Words.lookup(key) != value { problems.append("<\(name) \(attribute)=\"\(value)\">: the table's \(key) says \(Words.lookup(key) ?? "nothing")") }
        }
        return problems
    }

    /// The page's English for an element with a key is the table's (its first letter in either case).
    func englishProblems(_ open: Open) -> [String] {
        guard let key = open.attributes["data-w"], let english = Words.lookup(key) else { return [] }
        let shown = Self.collapsed(open.shape)
        return shown.lowercased() == Self.collapsed(english).lowercased() && shown.dropFirst() == Self.collapsed(english).dropFirst()
            ? [] : ["<\(open.name) data-w=\"\(key)\"> shows \"\(shown)\" where the table's English is \"\(english)\""]
    }

    static func collapsed(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    static func pieces(_ html: String) -> [Piece] {
        let characters = Array(html)
        var pieces: [Piece] = []
        var text = ""
        var index = 0
        var skipUntil: String?
        while index < characters.count {
            let character = characters[index]
            guard character == "<" else {
                if skipUntil == nil { text.append(character) }
                index += 1
                continue
            }
            if !text.isEmpty { pieces.append(.text(text)) }
            text = ""
            if starts(characters, at: index, with: "<!--") {
                index = end(of: "-->", in: characters, from: index)
                continue
            }
            let close = tagEnd(characters, from: index + 1)
            let inside = String(characters[(index + 1)..<close])
            index = close + 1
            if let skipped = skipUntil {
                if inside.lowercased() == "/" + skipped { skipUntil = nil } else { continue }
            }
            guard let first = inside.first, first != "!" else { continue }
            if first == "/" {
                pieces.append(.close(String(inside.dropFirst()).trimmingWhitespace().lowercased()))
                continue
            }
            let (name, attributes) = tag(inside)
            pieces.append(.open(name: name, attributes: attributes, closed: inside.hasSuffix("/")))
            if name == "script" || name == "style" { skipUntil = name }
        }
        if !text.isEmpty { pieces.append(.text(text)) }
        return pieces
    }

    static func starts(_ characters: [Character], at index: Int, with prefix: String) -> Bool {
        let wanted = Array(prefix)
        return index + wanted.count <= characters.count && Array(characters[index..<(index + wanted.count)]) == wanted
    }

    /// The index just past `marker` from `index` (the end of the page when there is none).
    static func end(of marker: String, in characters: [Character], from index: Int) -> Int {
        var at = index
        while at < characters.count {
            if starts(characters, at: at, with: marker) { return at + marker.count }
            at += 1
        }
        return characters.count
    }

    /// The index of the `>` that closes a tag opened before `index`, quotes respected (the
    /// page's end when there is none).
    static func tagEnd(_ characters: [Character], from index: Int) -> Int {
        var at = index
        var quote: Character?
        while at < characters.count {
            let character = characters[at]
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == ">" {
                return at
            }
            at += 1
        }
        return characters.count
    }

    /// A tag's name and attributes from what stands between its `<` and `>`.
    static func tag(_ inside: String) -> (String, [String: String]) {
        var rest = Substring(inside.hasSuffix("/") ? String(inside.dropLast()) : inside)
        let name = String(rest.prefix { !$0.isWhitespace }).lowercased()
        rest = rest.dropFirst(name.count)
        var attributes: [String: String] = [:]
        while true {
            rest = rest.drop { $0.isWhitespace }
            let attribute = String(rest.prefix { !$0.isWhitespace && $0 != "=" }).lowercased()
            guard !attribute.isEmpty else { break }
            rest = rest.dropFirst(attribute.count).drop { $0.isWhitespace }
            guard rest.first == "=" else {
                attributes[attribute] = ""
                continue
            }
            rest = rest.dropFirst().drop { $0.isWhitespace }
            if let quote = rest.first, quote == "\"" || quote == "'" {
                let value = rest.dropFirst().prefix { $0 != quote }
                attributes[attribute] = String(value)
                rest = rest.dropFirst(value.count + 2)
            } else {
                let value = rest.prefix { !$0.isWhitespace }
                attributes[attribute] = String(value)
                rest = rest.dropFirst(value.count)
            }
        }
        return (name, attributes)
    }

    /// The texts of a script's double-quoted string literals (comments and other quotes left aside).
    static func stringLiterals(_ script: String) -> [String] {
        var literals: [String] = []
        for line in script.split(separator: "\n") where !line.trimmingWhitespace().hasPrefix("//") {
            var inside: String?
            var escaped = false
            for character in line {
                if var literal = inside {
                    if escaped {
                        escaped = false
                        literal.append(character)
                    } else if character == "\\" {
                        escaped = true
                    } else if character == "\"" {
                        literals.append(literal)
                        inside = nil
                        continue
                    } else {
                        literal.append(character)
                    }
                    inside = literal
                } else if character == "\"" {
                    inside = ""
                }
            }
        }
        return literals
    }
}

extension StringProtocol {
    fileprivate func trimmingWhitespace() -> String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}
