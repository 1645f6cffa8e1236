import Glibc
import LodestoneCore
import LodestoneOutputs
import LodestoneRuntime
import LodestoneEncoding
import LodestoneSettings

/// `lodestone config`: the settings table as a person or a program reads it, a file checked
/// before it is installed, and a commented file to start from.
enum ConfigCommand {
    static let help = """
        Usage: lodestone config keys [--json]
               lodestone config check FILE [--socket PATH]
               lodestone config example [--service]
               lodestone config hand-over USER [--data-dir DIR]

        Every setting of 'lodestone run' is declared once, in one table: its key in the
        configuration file, its command-line flag, type, unit, default, range or choices, and
        whether a SIGHUP applies it (live) or it waits for a restart.

          keys      the table: one line per setting, or with --json an array of
                    {key, flag, type, unit, default, min, max, choices, reload, help}
          check     reads FILE as 'run --config FILE' would and says what is wrong with it (exit 1),
                    else what a reload of the running device (on --socket, default the usual
                    socket) would change, each change marked live or restart; with no device
                    running, what FILE changes from the defaults
          example   a configuration file with every setting at its default, each explained by a
                    "// key" comment (keys starting with // are comments); --service: with the
                    values the system service runs with (its socket, /var/lib/lodestone, no display),
                    as the package installs it in /etc/lodestone/lodestone.json
          hand-over gives USER what root's runs left in the data folder (default
                    /var/lib/lodestone), so a service running as USER can write its stores: only
                    root's folders and files with no other name, never following or changing a
                    link (the package's postinst runs it for the lodestone account; root only)

        Nested keys are objects in the file: "rates.imu" is written {"rates": {"imu": 100}}.

        Examples:
          lodestone config keys
          lodestone config check /etc/lodestone/lodestone.json
          lodestone config example > lodestone.json
        """

    static func main(_ arguments: ArraySlice<String>) throws(UsageError) -> Int32 {
        let options = try Options(arguments, spec: OptionSpec(valued: ["socket", "data-dir"], flags: ["json", "service"]), command: "config")
        switch options.positional.first {
        case "keys":
            guard options.positional.count == 1 else { throw UsageError(message: "'config keys' takes no arguments (see 'lodestone config --help')") }
            writeOut(options.flags.contains("json") ? keysJSON() + "\n" : keysTable())
            return 0
        case "check":
            guard options.positional.count == 2 else { throw UsageError(message: "'config check' takes one FILE (see 'lodestone config --help')") }
            return check(options.positional[1], socket: options.values["socket"] ?? Configuration.clientSocketPath())
        case "example":
            var configuration = Configuration()
            if options.flags.contains("service") {
                (configuration.socket, configuration.dataDir, configuration.display) = ("/run/lodestone/lodestone.sock", "/var/lib/lodestone", "none")
            }
            writeOut(example(configuration))
            return 0
        case "hand-over":
            guard options.positional.count == 2 else { throw UsageError(message: "'config hand-over' takes one USER (see 'lodestone config --help')") }
            return handOver(to: options.positional[1], directory: options.values["data-dir"] ?? "/var/lib/lodestone")
        case nil:
            throw UsageError(message: "'config' needs keys, check FILE, example or hand-over USER (see 'lodestone config --help')")
        case let other?:
            throw UsageError.unknown("config action", other, among: ["keys", "check", "example", "hand-over"])
        }
    }

    /// `config hand-over USER`: root's files in the data folder given to USER.
    static func handOver(to user: String, directory: String) -> Int32 {
        guard geteuid() == 0 else {
            Log.error("config hand-over changes files' owner: run it as root (sudo)")
            return 1
        }
        guard let account = getpwnam(user) else {
            Log.error("no user '\(user)' on this system")
            return 1
        }
        let outcome = StateHandover.give(directory, to: account.pointee.pw_uid, group: account.pointee.pw_gid)
        for reason in outcome.leftAlone { Log.warning("left as it is: " + reason) }
        writeOut("\(outcome.changed) entries of \(directory) given to \(user)\n")
        return 0
    }

    /// The table as JSON: one object per setting, every field present (null when it has none).
    static func keysJSON() -> String {
        "["
            + Setting.all.map { setting in
                var members: [(String, JSONValue)] = [("key", .string(setting.key))]
                members.append(("flag", setting.flag.map { .string("--" + $0) } ?? .null))
                members.append(("type", .string(setting.type.rawValue)))
                members.append(("unit", setting.unit.map { .string($0) } ?? .null))
                members.append(("default", setting.defaultValue))
                members.append(("min", setting.min.map { .number($0) } ?? .null))
                members.append(("max", setting.max.map { .number($0) } ?? .null))
                members.append(("choices", setting.choices.map { .array($0.map { .string($0) }) } ?? .null))
                members.append(("reload", .string(setting.reload.rawValue)))
                members.append(("help", .string(setting.help)))
                return JSONValue.object(members).serialized
            }.joined(separator: ",\n") + "]"
    }

    /// The table for a person: key, flag, default and range, then the help indented below.
    static func keysTable() -> String {
        var out = ""
        for setting in Setting.all {
            var head = setting.key
            if let flag = setting.flag { head += " (--\(flag))" }
            head += "  " + setting.type.rawValue
            if let unit = setting.unit { head += ", " + unit }
            if let min = setting.min, let max = setting.max { head += ", \(fixed(min, 3))..\(fixed(max, 3))" }
            if let choices = setting.choices { head += ": " + choices.joined(separator: "|") }
            head += ", default \(setting.defaultValue.serialized), \(setting.reload.rawValue)"
            out += head + "\n"
            for line in RunHelp.columns("", setting.help) { out += "    " + line.drop { $0 == " " } + "\n" }
        }
        return out
    }

    /// Checks a file; then lists what it changes against the running device (or the defaults).
    static func check(_ path: String, socket: String) -> Int32 {
        let fresh: Configuration
        do { fresh = try Configuration.read(file: path) } catch {
            Log.error(error.description)
            return 1
        }
        writeOut("\(path): valid\n")
        let (against, what) =
            runningSettings(socket).map { ($0, "the device running on \(socket)") }
            ?? (Dictionary(uniqueKeysWithValues: Setting.all.map { ($0.key, $0.defaultValue) }), "the defaults (no device answers on \(socket))")
        let changes = Setting.all.filter { setting in
            guard let before = against[setting.key] else { return false }
            return before != setting.current(fresh)
        }
        if changes.isEmpty {
            writeOut("against \(what): nothing changes\n")
            return 0
        }
        writeOut("against \(what):\n")
        for setting in changes {
            let before = against[setting.key]?.serialized ?? "null"
            let when = setting.reload == .live ? "applied by a reload (SIGHUP)" : "after a restart"
            writeOut("  \(setting.key): \(before) -> \(setting.current(fresh).serialized)  (\(when))\n")
        }
        return 0
    }

    /// The running device's settings (CONFIG), or nil when none answers.
    static func runningSettings(_ socket: String) -> [String: JSONValue]? {
        guard let client = try? ReportClient(path: socket) else { return nil }
        client.send(PlainRequest.config.text)
        while let line = client.readLine(timeoutMilliseconds: 3000) {
            guard line.contains("\"class\":\"CONFIG\""), let report = try? JSONValue.parse(line),
                case .object(let members)? = report["settings"]
            else { continue }
            return Dictionary(members, uniquingKeysWith: { _, last in last })
        }
        return nil
    }

    /// A configuration file with every top-level key at its value in `configuration`,
    /// explained in comments.
    static func example(_ configuration: Configuration = Configuration()) -> String {
        var out =
            "{\n  \"//\": \"Lodestone's configuration (lodestone run --config FILE; /etc/lodestone/lodestone.json for the service). "
            + "Keys starting with // are comments; 'lodestone config keys' lists every setting.\""
        var written = Set<String>()
        for setting in Setting.all {
            let top = String(setting.key.split(separator: ".").first ?? "")
            guard !written.contains(top) else { continue }
            written.insert(top)
            let members = Setting.all.filter { $0.key == top || $0.key.hasPrefix(top + ".") }
            let comment =
                members.count == 1
                ? setting.help
                : members.map { String($0.key.dropFirst(top.count + 1)) + ": " + $0.help }.joined(separator: "; ")
            out += ",\n  " + JSONObjectWriter.quoted("// " + top) + ": " + JSONObjectWriter.quoted(comment)
            // A setting left unset by default (an output that is off) is only explained.
            if let value = Setting.value(of: top, members: members, in: configuration) {
                out += ",\n  " + JSONObjectWriter.quoted(top) + ": " + value.serialized
            }
        }
        return out + "\n}\n"
    }
}
