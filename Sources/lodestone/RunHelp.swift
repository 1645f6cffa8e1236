import LodestoneCore
import LodestoneOutputs
import LodestoneRuntime
import LodestoneEncoding
import LodestoneSettings

/// `lodestone run --help`: the options are the settings table's flags, with their defaults.
enum RunHelp {
    static let text = """
        Usage: lodestone run [options]

        Samples the IMU, magnetometer, barometer and GPS on a fixed-rate loop and publishes the
        results on a local socket (gpsd JSON), the terminal or a framebuffer display. Without a
        board it runs the simulated board, so it works on any Linux machine.

        Options (each is also a key of the configuration file: 'lodestone config keys'):

        """ + options + """

            Keys on the terminal display: 1-9 pick a page, tab, space, n or the right arrow the next,
            p or the left arrow the previous; t day/night theme; u metric, imperial, nautical; q quit. A board's
            page button steps through the pages and a long press on it toggles the theme, as does the
            flip gesture (face down and back).

            Examples:
              lodestone run --duration 60 --scenario boat --speed 10 --stats
              lodestone run --board raspberry-pi-4
              lodestone run --board ./my-board.json --display fb:/tmp/screen.raw
            """

    /// One entry per flag: `--flag VALUE`, the help wrapped beside it, the default.
    static var options: String {
        var lines: [String] = []
        for setting in Setting.all {
            guard let flag = setting.flag else { continue }
            var left = "  --" + flag
            if setting.flagSets == nil { left += " " + placeholder(setting) }
            // The file's null is the command line's none.
            var help = setting.help.split(separator: "null: ", omittingEmptySubsequences: false).joined(separator: "none: ")
            if setting.flagSets == nil, setting.defaultValue != .null { help += " (default \(shown(setting.defaultValue)))" }
            lines += columns(left, help)
        }
        lines += columns("  --config FILE", "the configuration file (default /etc/lodestone/lodestone.json if present); the command line wins over it")
        return lines.joined(separator: "\n") + "\n"
    }

    /// What the value looks like: the choices when they are few, else its kind.
    static func placeholder(_ setting: Setting) -> String {
        var text: String
        switch setting.type {
        case .number: text = setting.unit.map { $0 == "Hz" ? "HZ" : ($0 == "hPa" ? "HPA" : "X") } ?? "X"
        case .integer: text = "N"
        case .path: text = "PATH"
        case .address: text = "ADDR"
        case .choice:
            let all = (setting.choices ?? []).joined(separator: "|")
            text = all.count <= 24 ? all : "NAME"
        default: text = setting.key == "faults" ? "LIST" : "TEXT"
        }
        if setting.nullable { text += "|none" }
        return text
    }

    /// A value as typed on the command line.
    static func shown(_ value: JSONValue) -> String {
        if case .string(let text) = value { return text }
        return value.serialized
    }

    /// What a setting must be, said for the command line (`none` where the file has null).
    static func commandLine(_ expected: String) -> String {
        expected.hasSuffix(", or null") ? String(expected.dropLast(4)) + "none" : expected
    }

    /// `left` in a column of 26, `help` wrapped to 92 beside and under it.
    static func columns(_ left: String, _ help: String) -> [String] {
        let indent = String(repeating: " ", count: 26)
        var lines: [String] = []
        var line = left.count < 25 ? left + String(repeating: " ", count: 26 - left.count) : left
        if left.count >= 25 { lines.append(line); line = indent }
        var empty = true
        for word in help.split(separator: " ") {
            if !empty && line.count + 1 + word.count > 92 {
                lines.append(line)
                line = indent
                empty = true
            }
            line += (empty ? "" : " ") + word
            empty = false
        }
        lines.append(line)
        return lines
    }
}
