import LodestoneCore
import LodestoneBoard

extension BoardDescription {
    /// Reads and validates a board file. The error names the file, the field and what is wrong.
    /// `path` may also be a board's name ("raspberry-pi-4"): see `installedFolders`.
    public static func load(file path: String) throws(ConfigurationError) -> BoardDescription {
        let path = find(path)
        let text: String
        do { text = try readTextFile(path) } catch {
            let names = installedNames()
            let hint = path.contains("/") ? "" : NearestWord.hint(path, among: names)
            throw ConfigurationError(
                file: path, key: nil,
                problem: error.description + hint + "; give --board sim, a board's name ("
                    + (names.isEmpty ? "none installed" : names.joined(separator: ", ")) + ") or the path of a board file", what: "board file")
        }
        return try parse(text, file: path)
    }

    /// Where boards are found by name, first match wins: the owner's own (/etc/lodestone/boards),
    /// the package's (/usr/share/lodestone/boards), a source tree's (boards/).
    public static let installedFolders = ["/etc/lodestone/boards", "/usr/share/lodestone/boards", "boards"]

    /// The file a `--board` value names: itself when it exists or is a path, else NAME.json in
    /// the first folder of `installedFolders` that has it.
    public static func find(_ value: String) -> String {
        if fileExists(value) || value.contains("/") { return value }
        let file = value.hasSuffix(".json") ? value : value + ".json"
        return installedFolders.map { $0 + "/" + file }.first(where: fileExists) ?? value
    }

    /// The boards found by name, without .json, each once.
    public static func installedNames() -> [String] {
        var names: [String] = []
        for folder in installedFolders {
            for entry in directoryEntries(folder).sorted() where entry.hasSuffix(".json") {
                let name = String(entry.dropLast(5))
                if !names.contains(name) { names.append(name) }
            }
        }
        return names
    }

    /// A board file's text, naming any chip a driver supports.
    public static func parse(_ text: String, file path: String) throws(ConfigurationError) -> BoardDescription {
        try parse(text, file: path, chips: SupportedChips.all)
    }
}
