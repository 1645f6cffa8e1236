import Glibc
import LodestoneCore
import LodestoneOutputs
@testable import LodestoneRuntime
import Testing
@testable import LodestoneEncoding
@testable import LodestoneSettings
@testable import LodestoneStorage

/// The settings table from the outside: `config keys`, `config check`, `config example`, and
/// `run`'s options, all from the one table.
@Suite(.serialized) struct ConfigCommandTests {
    static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let end = EndToEndTests()
        return end.finish(try end.spawn(arguments))
    }

    /// `config keys --json`: one object per setting with every field of the contract; keys
    /// unique; each flag `run` takes appears once; each default is a value the setting accepts.
    @Test func keysAsJSON() throws {
        let (status, output) = try Self.run(["config", "keys", "--json"])
        #expect(status == 0, "\(output.prefix(400))")
        guard case .array(let rows)? = try? JSONValue.parse(output) else {
            Issue.record("not a JSON array: \(output.prefix(400))")
            return
        }
        #expect(rows.count == Setting.all.count && rows.count > 60)
        var keys = Set<String>(), flags = Set<String>()
        for row in rows {
            guard case .object(let members) = row else { Issue.record("not an object: \(row)"); continue }
            #expect(members.map(\.0) == ["key", "flag", "type", "unit", "default", "min", "max", "choices", "reload", "help"])
            let key = row["key"]?.stringValue ?? ""
            #expect(keys.insert(key).inserted, "\(key) twice")
            if let flag = row["flag"]?.stringValue { #expect(flags.insert(flag).inserted && flag.hasPrefix("--"), "\(flag)") }
            #expect(["live", "restart"].contains(row["reload"]?.stringValue ?? ""), "\(key)")
            #expect((row["help"]?.stringValue ?? "").isEmpty == false, "\(key) has no help")
            if let low = row["min"]?.numberValue, let high = row["max"]?.numberValue, let value = row["default"]?.numberValue {
                #expect(low <= value && value <= high, "\(key): default \(value) outside \(low)...\(high)")
            }
            if case .array(let choices)? = row["choices"], let value = row["default"]?.stringValue {
                #expect(choices.contains(.string(value)), "\(key): default \(value) not among the choices")
            }
        }
        for expected in ["--speed", "--imu-rate", "--mqtt", "--no-mlock", "--qnh", "--nmea-udp"] { #expect(flags.contains(expected), "\(expected)") }
        #expect(rows.first { $0["key"]?.stringValue == "qnh" }?["reload"]?.stringValue == "live")
        #expect(rows.first { $0["key"]?.stringValue == "board" }?["reload"]?.stringValue == "restart")
        // `run --help` lists every flag of the table.
        let help = try Self.run(["run", "--help"]).output
        for flag in flags { #expect(help.contains(flag + " ") || help.contains(flag + "\n"), "run --help lacks \(flag)") }
    }

    /// The example is a valid configuration that `run` reads (back to the defaults), and
    /// every top-level key is explained by a comment.
    @Test func theExampleIsValidAndExplained() throws {
        let (status, example) = try Self.run(["config", "example"])
        #expect(status == 0)
        let value = try JSONValue.parse(example)
        var configuration = Configuration()
        try configuration.load(text: example, file: "example.json")
        try configuration.validate(file: "example.json")
        for setting in Setting.all { #expect(setting.current(configuration) == setting.defaultValue, "\(setting.key)") }
        guard case .object(let members) = value else { Issue.record("not an object"); return }
        for (key, _) in members where !key.hasPrefix("//") { #expect(value["// " + key] != nil, "\(key) has no comment") }
    }

    /// `config check`: a wrong file is refused with the key (exit 1); a right one is listed
    /// against the defaults when no device answers, and against the running device's
    /// settings (CONFIG) when one does, each change marked live or restart.
    @Test func checkSaysWhatIsWrongAndWhatAReloadWouldChange() throws {
        let directory = "/tmp/lodestone-config-check-\(getpid())"
        _ = TerminalDisplayTests.output("rm -rf \(directory); mkdir -p \(directory)")
        defer { _ = TerminalDisplayTests.output("rm -rf \(directory)") }
        try replaceFile(directory + "/bad.json", with: Array(#"{"rates": {"imu": 5000}}"#.utf8))
        let bad = try Self.run(["config", "check", directory + "/bad.json", "--socket", directory + "/none.sock"])
        #expect(bad.status == 1 && bad.output.contains("'rates.imu': must be a number from 1 to 1000, found 5000"), "\(bad.output)")
        try replaceFile(directory + "/good.json", with: Array(#"{"qnh": 1020, "board": "sim", "rates": {"imu": 50}, "page": "sky"}"#.utf8))
        let alone = try Self.run(["config", "check", directory + "/good.json", "--socket", directory + "/none.sock"])
        #expect(alone.status == 0 && alone.output.contains("against the defaults"), "\(alone.output)")
        #expect(alone.output.contains("qnh: 1013.25 -> 1020  (applied by a reload (SIGHUP))"), "\(alone.output)")
        #expect(!alone.output.contains("board:"), "an unchanged setting listed: \(alone.output)")

        let end = EndToEndTests()
        let socket = directory + "/run.sock"
        let child = try end.spawn([
            "run", "--duration", "20", "--display", "none", "--socket", socket, "--data-dir", directory + "/data",
            "--scenario", "still", "--page", "sky", "--seed", "7"
        ])
        defer { kill(child.pid, SIGTERM); _ = end.finish(child) }
        _ = try #require(end.connect(socket, to: child))
        let running = try Self.run(["config", "check", directory + "/good.json", "--socket", socket])
        #expect(running.output.contains("against the device running on \(socket)"), "\(running.output)")
        #expect(
            running.output.contains("seed: 7 -> 1  (after a restart)") && running.output.contains("scenario: \"still\" -> \"walk\"  (after a restart)"),
            "\(running.output)")
        #expect(running.output.contains("rates.imu: 100 -> 50  (applied by a reload (SIGHUP))") && !running.output.contains("page:"), "\(running.output)")
    }

    /// A flag is checked as the file's key is, by the same row: the same range, said for the
    /// command line.
    @Test func theCommandLineIsCheckedByTheTable() throws {
        let speed = try Self.run(["run", "--speed", "5000", "--duration", "1"])
        #expect(speed.status == 2 && speed.output.contains("--speed must be a number from 0.1 to 1000, not '5000'"), "\(speed.output)")
        let priority = try Self.run(["run", "--priority", "high", "--duration", "1"])
        #expect(priority.status == 2 && priority.output.contains("--priority must be a whole number from 1 to 99, or none"), "\(priority.output)")
    }

    /// The bash completion completes `run`'s flags and their choices from the table, in a real
    /// bash.
    @Test func bashCompletesFlagsAndChoices() throws {
        guard access("/bin/bash", X_OK) == 0 else {
            print("skipped: no bash")
            return
        }
        let directory = "/tmp/lodestone-completion-\(getpid())"
        _ = TerminalDisplayTests.output("mkdir -p \(directory)")
        defer { _ = TerminalDisplayTests.output("rm -rf \(directory)") }
        let (status, script) = try Self.run(["completion", "bash"])
        #expect(status == 0)
        try replaceFile(directory + "/lodestone.bash", with: Array(script.utf8))
        func complete(_ words: String) -> String {
            TerminalDisplayTests.output(
                "/bin/bash -c 'source \(directory)/lodestone.bash; COMP_WORDS=(\(words)); "
                    + "COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _lodestone; echo \"${COMPREPLY[@]}\"'")
        }
        #expect(complete("lodestone ru").contains("run"))
        #expect(complete("lodestone run --imu").contains("--imu-rate"))
        #expect(complete("lodestone run --page s").split(whereSeparator: \.isWhitespace).map(String.init).sorted() == ["sky"])
        #expect(complete("lodestone run --scenario b").contains("boat"))
    }
}
