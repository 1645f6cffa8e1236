import Glibc
import LodestoneCore
import Testing

/// The docs cannot go stale: every command shown with its output in a `console` block of the
/// README or docs/ is run here (the built binary, from the package's folder, so the files a
/// command names are the repository's) and what it prints is compared with what the page shows.
/// Commands of one block run in order against a fresh /tmp/lodestone-docs.
@Suite(.serialized) struct DocumentedCommandTests {
    struct Shown {
        var page: String
        var line: Int
        var command: String
        var output: [String]
    }

    /// The `console` blocks' commands ("$ lodestone ...") and the lines shown after each, by block.
    static func blocks(in text: String, page: String) -> [[Shown]] {
        var blocks: [[Shown]] = []
        var current: [Shown]?
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if current == nil {
                if line.hasPrefix("```console") { current = [] }
                continue
            }
            if line.hasPrefix("```") {
                blocks.append(current ?? [])
                current = nil
            } else if line.hasPrefix("$ ") {
                current?.append(Shown(page: page, line: index + 1, command: String(line.dropFirst(2)), output: []))
            } else if let last = current?.indices.last {
                current?[last].output.append(String(line))
            }
        }
        return blocks
    }

    /// A command line's words, with "..." and '...' quoting as a shell reads it.
    static func words(_ line: String) -> [String] {
        var words: [String] = [], word = "", quote: Character?, inWord = false
        for character in line {
            if let open = quote {
                if character == open { quote = nil } else { word.append(character) }
            } else if character == "\"" || character == "'" {
                quote = character
                inWord = true
            } else if character == " " {
                if inWord { words.append(word) }
                (word, inWord) = ("", false)
            } else {
                word.append(character)
                inWord = true
            }
        }
        if inWord { words.append(word) }
        return words
    }

    static func pages() -> [String] {
        var pages = ["README.md"]
        var folders = ["docs"]
        while let folder = folders.popLast() {
            for entry in directoryEntries(folder).sorted() {
                let path = folder + "/" + entry
                var status = stat()
                guard lstat(path, &status) == 0 else { continue }
                if status.st_mode & S_IFMT == S_IFDIR { folders.append(path) } else if entry.hasSuffix(".md") { pages.append(path) }
            }
        }
        return pages
    }

    @Test func everyShownCommandPrintsWhatThePageShows() throws {
        guard fileExists("docs/README.md") else {
            Issue.record("the tests do not run from the package's folder: no docs/README.md, the documented commands were not run")
            return
        }
        let binary = EndToEndTests()
        var run = 0
        for page in Self.pages() {
            let text = try readTextFile(page, limit: 4 << 20)
            for block in Self.blocks(in: text, page: page) {
                removeTree("/tmp/lodestone-docs")
                for shown in block {
                    let words = Self.words(shown.command)
                    guard words.first == "lodestone" else {
                        Issue.record("\(page):\(shown.line): a console block runs only lodestone commands, not '\(shown.command)'")
                        continue
                    }
                    let (_, said) = binary.finish(try binary.spawn(Array(words.dropFirst())))
                    let got = said.split(separator: "\n", omittingEmptySubsequences: false).map { String($0.reversed().drop { $0 == " " }.reversed()) }
                    let expected = shown.output.map { String($0.reversed().drop { $0 == " " }.reversed()) }
                    func trimmed(_ lines: [String]) -> [String] { Array(lines.reversed().drop { $0.isEmpty }.reversed()) }
                    #expect(
                        trimmed(got) == trimmed(expected),
                        "\(page):\(shown.line): '\(shown.command)' printed:\n\(trimmed(got).joined(separator: "\n"))\nthe page shows:\n\(trimmed(expected).joined(separator: "\n"))"
                    )
                    run += 1
                }
            }
        }
        removeTree("/tmp/lodestone-docs")
        #expect(run >= 5, "the docs show \(run) commands with their output")
    }
}
