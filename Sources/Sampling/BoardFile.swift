import LodestoneCore
import LodestoneDevices
import LodestoneSettings

extension BoardDescription {
    /// Reads and validates a board file. The error names the file, the field and what is wrong.
    public static func load(file path: String) throws(ConfigurationError) -> BoardDescription {
        let text: String
        do { text = try readTextFile(path) } catch {
            throw ConfigurationError(file: path, key: nil, problem: error.description + "; give --board sim or the path of a board file (see boards/)", what: "board file")
        }
        return try parse(text, file: path)
    }

    /// A board file's text, naming any chip a driver supports.
    public static func parse(_ text: String, file path: String) throws(ConfigurationError) -> BoardDescription {
        try parse(text, file: path, chips: SupportedChips.all)
    }
}
