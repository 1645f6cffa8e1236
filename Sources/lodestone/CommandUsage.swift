import LodestoneSampling
import LodestoneSettings
import LodestoneBoard

/// What a command accepts, read from the "Usage:" lines of its help (the one place each
/// command states it): its actions (`track start`, `track list`), its options, and the
/// choices an option names (`--sort date|distance|pace`). `run`'s options are the settings
/// table's flags. Completions and the reference pages are made from it, so they follow the
/// help as it changes.
struct CommandUsage {
    struct Option: Equatable {
        var name: String
        /// Nil for a flag; empty for a value without fixed choices.
        var choices: [String]?
        /// The value is a file or a folder (FILE, DIR, PATH, FILE.gpx ...).
        var isPath = false
    }

    var actions: [String] = []
    var options: [Option] = []

    /// The usage block: from "Usage:" to the first blank line.
    static func usageLines(_ help: String) -> [Substring] {
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { $0.hasPrefix("Usage:") }) else { return [] }
        return Array(lines[start...].prefix { !$0.trimmingSpaces.isEmpty })
    }

    init(command: String, help: String) {
        if command == "run" {
            options =
                Setting.all.compactMap { setting in
                    guard let flag = setting.flag else { return nil }
                    if setting.flagSets != nil { return Option(name: flag, choices: nil) }
                    let choices = flag == "board" ? ["sim"] + BoardDescription.installedNames().filter { $0 != "sim" } : setting.choices ?? []
                    return Option(name: flag, choices: choices, isPath: setting.type == .path && flag != "board")
                } + [Option(name: "config", choices: [], isPath: true)]
            return
        }
        for line in Self.usageLines(help) {
            let words = line.split(separator: " ").map(String.init)
            // The action: the word after "lodestone COMMAND" when it is a plain lower-case word
            // (with "a | b | c" for several).
            if let at = words.firstIndex(of: command), words.indices.contains(at - 1), words[at - 1] == "lodestone" {
                var index = at + 1
                while index < words.count, Self.isAction(words[index]) {
                    if !actions.contains(words[index]) { actions.append(words[index]) }
                    index += 1
                    if index < words.count, words[index] == "|" { index += 1 } else { break }
                }
            }
            for (index, word) in words.enumerated() {
                for name in Self.optionNames(in: word) {
                    let attached = word.split(separator: "|").count > 1 && word.hasPrefix("[--") && word.contains("|--")
                    let next = index + 1 < words.count && !attached ? words[index + 1] : ""
                    let value = word.hasSuffix("]") || next.hasPrefix("[") || next.hasPrefix("--") || next.hasPrefix("(") || next == "|" ? "" : next
                    add(Self.option(name, value: value))
                }
            }
        }
    }

    /// `--name` words in one usage word: "[--sort", "[--private|--public]", "--plot".
    static func optionNames(in word: String) -> [String] {
        word.split(separator: "|").compactMap { part in
            let trimmed = part.drop { $0 == "[" }
            guard trimmed.hasPrefix("--") else { return nil }
            let name = trimmed.dropFirst(2).prefix { $0.isLetter || $0.isNumber || $0 == "-" }
            return name.isEmpty ? nil : String(name)
        }
    }

    /// An option from its name and the usage's word after it: nothing (a flag), choices
    /// "a|b|c", or a placeholder in capitals.
    static func option(_ name: String, value: String) -> Option {
        let bare = String(value.filter { $0 != "]" && $0 != "[" && $0 != "\"" })
        if bare.isEmpty || bare == "..." { return Option(name: name, choices: nil) }
        let parts = bare.split(separator: "|").map(String.init)
        if parts.count > 1, parts.allSatisfy({ $0.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "-" } && !$0.isEmpty }) {
            return Option(name: name, choices: parts)
        }
        if name == "units" { return Option(name: name, choices: ["metric", "imperial", "nautical"]) }
        let pathWords = ["FILE", "DIR", "PATH", "FOLDER"]
        return Option(name: name, choices: [], isPath: pathWords.contains { bare.hasPrefix($0) } || bare.contains("FILE"))
    }

    static func isAction(_ word: String) -> Bool {
        !word.isEmpty && word.allSatisfy { $0.isLowercase || $0 == "-" } && !word.hasPrefix("-")
    }

    /// Keeps the first sighting of an option, taking choices or a path learnt later.
    mutating func add(_ option: Option) {
        guard let index = options.firstIndex(where: { $0.name == option.name }) else {
            options.append(option)
            return
        }
        if options[index].choices?.isEmpty ?? true, let choices = option.choices, !choices.isEmpty { options[index].choices = choices }
        if options[index].choices == nil, option.choices != nil { options[index].choices = option.choices }
        options[index].isPath = options[index].isPath || option.isPath
    }
}

private extension Substring {
    var trimmingSpaces: Substring { drop { $0 == " " } }
}
