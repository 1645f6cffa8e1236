import Glibc
import LodestoneCore
import Testing

/// The shells' completions and the manual pages, from the built binary as a user gets them.
@Suite(.serialized) struct CompletionAndManualTests {
    let binary = EndToEndTests()

    func output(_ program: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        binary.finish(try binary.spawnProgram(program, arguments))
    }

    /// Writes `lodestone completion SHELL` to a file and returns its path.
    func script(_ shell: String) throws -> String {
        let (status, text) = try output(EndToEndTests.executable, ["completion", shell])
        try #require(status == 0, "\(text)")
        let path = "/tmp/lodestone-completion-\(getpid()).\(shell)"
        try #require(writeFileAtomically(path, Array(text.utf8)))
        return path
    }

    /// Typed words and what completing the last one must offer.
    static let cases: [(words: [String], offers: [String])] = [
        (["lodestone", "tr"], ["track"]),
        (["lodestone", "track", ""], ["start", "list", "import", "delete"]),
        (["lodestone", "track", "list", "--so"], ["--sort"]),
        (["lodestone", "track", "list", "--sort", ""], ["date", "distance", "duration", "pace", "name"]),
        (["lodestone", "run", "--page", ""], ["compass", "level", "sky", "waves"]),
        (["lodestone", "run", "--scenario", ""], ["walk", "boat", "still"]),
        (["lodestone", "run", "--units", "n"], ["nautical"]),
        (["lodestone", "run", "--board", ""], ["sim", "raspberry-pi-4"]),
        (["lodestone", "help", "wa"], ["watch", "waypoint", "waves"]),
        (["lodestone", "completion", ""], [])
    ]

    @Test func bashOffersCommandsActionsOptionsAndChoices() throws {
        let path = try script("bash")
        for (words, offers) in Self.cases where !offers.isEmpty {
            let quoted = words.map { "'\($0)'" }.joined(separator: " ")
            let program = "source \(path); COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); _lodestone; printf '%s\\n' \"${COMPREPLY[@]}\""
            let (status, said) = try output("/bin/bash", ["-c", program])
            let offered = Set(said.split(separator: "\n").map(String.init))
            #expect(status == 0 && offers.allSatisfy(offered.contains), "\(words): \(said)")
        }
    }

    @Test func fishOffersTheSame() throws {
        guard fileExists("/usr/bin/fish") else {
            Issue.record("fish is not installed (scripts/install-deps --test installs it): the fish completion was not tried")
            return
        }
        let path = try script("fish")
        for (words, offers) in Self.cases where !offers.isEmpty {
            let line = words.joined(separator: " ")
            let (status, said) = try output("/usr/bin/fish", ["--no-config", "-c", "source \(path); complete -C '\(line)'"])
            let offered = Set(said.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") })
            #expect(status == 0 && offers.allSatisfy(offered.contains), "\(line): \(said)")
        }
    }

    @Test func zshOffersTheSame() throws {
        guard fileExists("/usr/bin/zsh") else {
            Issue.record("zsh is not installed (scripts/install-deps --test installs it): the zsh completion was not tried")
            return
        }
        let path = try script("zsh")
        #expect(try output("/usr/bin/zsh", ["-n", path]).status == 0, "the script parses")
        for (words, offers) in Self.cases where !offers.isEmpty {
            // compadd stands in for the completion system: it prints what it is given, and zsh's
            // own matching against the typed prefix is done here.
            let quoted = words.map { "'\($0)'" }.joined(separator: " ")
            let program =
                "compadd() { [[ $1 == -- ]] && shift; print -rl -- \"$@\"; }; _files() { print -r -- FILES; }; compdef() { :; }; "
                + "source \(path); words=(\(quoted)); CURRENT=${#words}; PREFIX=${words[CURRENT]}; _lodestone"
            let (status, said) = try output("/usr/bin/zsh", ["-f", "-c", program])
            let typed = words.last ?? ""
            let offered = Set(said.split(separator: "\n").map(String.init).filter { $0.hasPrefix(typed) })
            #expect(status == 0 && offers.allSatisfy(offered.contains), "\(words): \(said)")
        }
    }

    @Test func anUnknownShellIsAUsageError() throws {
        let (status, said) = try output(EndToEndTests.executable, ["completion", "zhs"])
        #expect(status == 2 && said.contains("did you mean 'zsh'?"), "\(said)")
    }

    @Test func everyCommandHasAManualPageWithTheSectionsOfOne() throws {
        let folder = "/tmp/lodestone-man-\(getpid())"
        let (status, said) = try output(EndToEndTests.executable, ["docs", "man", folder])
        try #require(status == 0, "\(said)")
        let (_, help) = try output(EndToEndTests.executable, ["help"])
        let commands = help.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("  "), let word = line.split(separator: " ").first, word != "help" else { return nil }
            return String(word)
        }
        #expect(commands.count >= 30 && commands.contains("export-all") && commands.contains("forget-all"))
        for page in ["lodestone.1", "lodestone.json.5"] + commands.map({ "lodestone-\($0).1" }) {
            let text = (try? readTextFile(folder + "/" + page)) ?? ""
            for heading in ["NAME", "SYNOPSIS", "FILES", "SEE ALSO"] {
                #expect(text.contains(".SH \"\(heading)\""), "\(page) has \(heading)")
            }
            if page.hasSuffix(".1") {
                #expect(text.contains(".SH \"EXIT STATUS\"") && text.contains(".SH \"ENVIRONMENT\""), "\(page)")
            }
        }
        // Every setting is in lodestone.json(5).
        let configuration = (try? readTextFile(folder + "/lodestone.json.5")) ?? ""
        for key in ["board", "mqtt.broker", "signalKUDP", "nmeaUDP", "tracks.autoPauseSpeed"] {
            #expect(configuration.contains("\\fB" + key.replacing("-", with: "\\-") + "\\fR"), "lodestone.json(5) has \(key)")
        }
        // man reads them without a warning.
        if fileExists("/usr/bin/groff") {
            for page in ["lodestone.1", "lodestone-track.1", "lodestone.json.5"] {
                let (_, warnings) = try output("/bin/sh", ["-c", "groff -man -ww -z \(folder)/\(page) 2>&1"])
                #expect(warnings.isEmpty, "\(page): \(warnings)")
            }
        }
    }

    @Test func theReferencePagesAreTheGeneratedOnes() throws {
        guard fileExists("docs/reference/commands.md") else {
            Issue.record("the tests do not run from the package's folder: no docs/reference/commands.md")
            return
        }
        let folder = "/tmp/lodestone-reference-\(getpid())"
        let (status, said) = try output(EndToEndTests.executable, ["docs", "reference", folder])
        try #require(status == 0, "\(said)")
        for page in ["commands.md", "settings.md"] {
            let kept = (try? readTextFile("docs/reference/" + page, limit: 4 << 20)) ?? ""
            let made = (try? readTextFile(folder + "/" + page, limit: 4 << 20)) ?? ""
            #expect(
                !made.isEmpty && kept == made, "docs/reference/\(page) is not what the help and settings say now: run 'lodestone docs reference docs/reference'"
            )
        }
    }
}
