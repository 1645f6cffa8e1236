import LodestoneCore
import LodestoneSampling
import LodestoneSettings

/// The manual pages, made from the command table, each command's help and the settings table
/// (so `man` and `--help` never disagree): lodestone(1), one lodestone-COMMAND(1) per command
/// and lodestone.json(5).
enum ManualPages {
    /// Every page: its file name and its roff.
    @MainActor static func all(version: String) -> [(file: String, text: String)] {
        [("lodestone.1", overview(version: version))]
            + commands.map { ("lodestone-\($0.name).1", command($0, version: version)) }
            + [("lodestone.json.5", configuration(version: version))]
    }

    static let exitStatus = [
        ("0", "success"), ("1", "a failure at run time (a device, a file, the socket), said on standard error"),
        ("2", "a usage error: an unknown command or option, or a value out of range; the message says the nearest known word")
    ]

    static let environment = [
        ("XDG_RUNTIME_DIR", "where the socket is made when run by a user ($XDG_RUNTIME_DIR/lodestone.sock)"),
        ("HOME", "the data folder of a user's runs (~/.local/share/lodestone)"),
        ("CREDENTIALS_DIRECTORY", "systemd's credentials folder (LoadCredential=): an mqtt.passwordFile given as a bare name is read from it"),
        ("JOURNAL_STREAM", "set by systemd: the log is written for the journal, without its own time stamps")
    ]

    static let files = [
        ("/etc/lodestone/lodestone.json", "the service's configuration (lodestone.json(5))"),
        ("/var/lib/lodestone/", "what the service keeps: calibration, tracks, waypoints, photos, logs, history"),
        ("~/.local/share/lodestone/", "what a user's runs keep"),
        ("/run/lodestone/lodestone.sock", "the service's socket (gpsd JSON and Lodestone's reports)"),
        ("/usr/share/lodestone/boards/", "the board files installed, found by name with --board NAME"),
        ("/etc/lodestone/boards/", "the owner's own board files, found first")
    ]

    @MainActor static func overview(version: String) -> String {
        var page = header("LODESTONE", 1, version: version, title: "User Commands")
        page += section("NAME") + "lodestone \\- real-time sensor runtime for compass, GPS, barometer and sky on small Linux boards\n"
        page += section("SYNOPSIS") + ".B lodestone\n.I command\n[\\fIoptions\\fR]\n"
        page +=
            section("DESCRIPTION")
            + paragraph(
                """
                One process samples a magnetometer, an IMU and a barometer on I2C and a GPS on a UART on a \
                fixed-rate loop, and publishes heading, attitude, position, pressure, tracks and the sky to a \
                display, a gpsd-compatible socket, NMEA 0183, Signal K and MQTT. Without a board it runs the \
                simulated board, so every command works on any Linux machine.
                """)
        page += section("COMMANDS")
        for command in commands {
            page += ".TP\n\\fBlodestone \(roff(command.name))\\fR (\\fBlodestone\\-\(roff(command.name))\\fR(1))\n\(roff(command.summary))\n"
        }
        page += common(seeAlso: commands.map { "lodestone-\($0.name)(1)" } + ["lodestone.json(5)", "gpsd(8)", "chronyd(8)"])
        return page
    }

    static func command(_ command: Command, version: String) -> String {
        var page = header("LODESTONE-" + command.name.uppercased(), 1, version: version, title: "User Commands")
        page += section("NAME") + "lodestone\\-\(roff(command.name)) \\- \(roff(command.summary))\n"
        let usage = CommandUsage.usageLines(command.help)
        let rest = command.help.split(separator: "\n", omittingEmptySubsequences: false).dropFirst(usage.count)
            .drop { $0.isEmpty }
        // "Usage: " and the indentation under it go; the continuation lines keep their alignment.
        page +=
            section("SYNOPSIS") + ".nf\n"
            + usage.map { roff(String($0.hasPrefix("Usage: ") ? $0.dropFirst(7) : $0.dropFirst(min(7, $0.prefix { $0 == " " }.count)))) }
            .joined(separator: "\n") + "\n.fi\n"
        if !rest.isEmpty { page += section("DESCRIPTION") + ".nf\n" + rest.map { roff(String($0)) }.joined(separator: "\n") + "\n.fi\n" }
        if command.name == "run" {
            page += section("OPTIONS")
            for setting in Setting.all {
                guard let flag = setting.flag else { continue }
                let value = setting.flagSets == nil ? " \\fI" + roff(RunHelp.placeholder(setting)) + "\\fR" : ""
                page += ".TP\n\\fB\\-\\-\(roff(flag))\\fR\(value)\n\(roff(setting.help))"
                if setting.flagSets == nil, setting.defaultValue != .null { page += " (default \(breakable(RunHelp.shown(setting.defaultValue))))" }
                page += ". Setting \\fB\(roff(setting.key))\\fR in lodestone.json(5).\n"
            }
        }
        page += common(seeAlso: ["lodestone(1)", "lodestone.json(5)"])
        return page
    }

    static func configuration(version: String) -> String {
        var page = header("LODESTONE.JSON", 5, version: version, title: "File Formats")
        page += section("NAME") + "lodestone.json \\- the configuration of lodestone\n"
        page += section("SYNOPSIS") + ".I /etc/lodestone/lodestone.json\n.br\n\\fBlodestone run \\-\\-config\\fR \\fIFILE\\fR\n"
        page +=
            section("DESCRIPTION")
            + paragraph(
                """
                A JSON object of settings; a key starting with // is a comment. A setting not given keeps its \
                default; an unknown key or a value out of range is refused with the key, what it must be and \
                the nearest known key. The command line's options override the file. A SIGHUP to the running \
                process reads the file again: settings marked live apply at once, the others at the next start. \
                'lodestone config example' prints a file with every setting explained; 'lodestone config check \
                FILE' checks one.
                """)
        page += section("SETTINGS")
        for setting in Setting.all {
            let flag = setting.flag.map { ", \\fB\\-\\-\(roff($0))\\fR on the command line" } ?? ""
            page +=
                ".TP\n\\fB\(roff(setting.key))\\fR (\(roff(setting.expected)))\n\(roff(setting.help)). Default \\fB\(breakable(setting.defaultValue.serialized))\\fR; "
                + (setting.reload == .live ? "applies on SIGHUP" : "applies at the next start") + "\(flag).\n"
        }
        page +=
            section("EXAMPLE") + ".nf\n"
            + roff(
                """
                {
                  "board": "raspberry-pi-4",
                  "units": "nautical",
                  "mqtt": {"broker": "192.168.1.10"},
                  "nmeaUDP": "192.168.1.255:10110"
                }
                """) + "\n.fi\n"
        page += section("FILES") + files.prefix(2).map { ".TP\n.I \(roff($0.0))\n\(roff($0.1))\n" }.joined()
        page += section("SEE ALSO") + "lodestone(1), lodestone\\-run(1), lodestone\\-config(1)\n"
        return page
    }

    // MARK: roff

    static func header(_ name: String, _ section: Int, version: String, title: String) -> String {
        // Ragged right (.na): long values such as an object's default cannot be spread evenly.
        ".TH \"\(name)\" \"\(section)\" \"\" \"lodestone \(roff(version))\" \"\(title)\"\n.na\n"
    }

    static func section(_ name: String) -> String { ".SH \"\(name)\"\n" }

    static func paragraph(_ text: String) -> String { roff(text) + "\n" }

    /// The sections every page ends with.
    static func common(seeAlso: [String]) -> String {
        section("EXIT STATUS") + exitStatus.map { ".TP\n.B \($0.0)\n\(roff($0.1))\n" }.joined()
            + section("ENVIRONMENT") + environment.map { ".TP\n.B \($0.0)\n\(roff($0.1))\n" }.joined()
            + section("FILES") + files.map { ".TP\n.I \(roff($0.0))\n\(roff($0.1))\n" }.joined()
            + section("SEE ALSO") + seeAlso.map { $0.replacing("-", with: "\\-") }.joined(separator: ", ") + "\n"
    }

    /// A long value (an object's JSON) as roff that may break after its commas.
    static func breakable(_ text: String) -> String { roff(text).replacing(",", with: ",\\:") }

    /// Text as roff: backslashes doubled, a line starting with . or ' kept as text, hyphens as
    /// the minus sign options are written with.
    static func roff(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            var out = String(line).replacing("\\", with: "\\e").replacing("-", with: "\\-")
            if out.hasPrefix(".") || out.hasPrefix("'") { out = "\\&" + out }
            return out
        }.joined(separator: "\n")
    }
}
