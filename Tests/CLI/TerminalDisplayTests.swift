import Glibc
import LodestoneRuntime
import Testing
@testable import LodestoneStorage
@testable import LodestoneCore

/// The terminal display as a person sees it: `lodestone run` in a tmux pane, keys sent with
/// send-keys, the screen read back with capture-pane.
@Suite(.serialized) struct TerminalDisplayTests {
    /// Runs a shell command and returns what it printed.
    static func output(_ command: String) -> String {
        guard let pipe = popen(command + " 2>&1", "r") else { return "" }
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = fread(&buffer, 1, buffer.count, pipe)
            if n <= 0 { break }
            out += buffer[0..<n]
        }
        pclose(pipe)
        return String(decoding: out, as: UTF8.self)
    }

    static var hasTmux: Bool { access("/usr/bin/tmux", X_OK) == 0 }

    /// Polls the pane until `condition` holds (up to 15 s); returns the last screen.
    static func screen(_ session: String, escapes: Bool = false, until condition: (String) -> Bool) -> String {
        var text = ""
        for _ in 0..<150 {
            text = output("tmux capture-pane -p \(escapes ? "-e " : "")-t \(session)")
            if condition(text) { return text }
            usleep(100_000)
        }
        return text
    }

    struct Session {
        let name: String
        let directory: String

        /// - Parameter keepsLog: lodestone's log goes to `log.txt` and its exit status to
        ///   `status.txt` in the session's folder, which outlive the pane (its shell survives
        ///   the hang-up to write them).
        init(_ tag: String, size: String = "-x 80 -y 24", arguments: String = "", keepsLog: Bool = false) {
            name = "lodestone-\(tag)-\(getpid())"
            directory = "/tmp/\(name)"
            _ = TerminalDisplayTests.output("rm -rf \(directory); mkdir -p \(directory)")
            // After lodestone ends, the pane's shell prints the terminal's modes (canonical
            // input and echo must be back) and stays, so the pane can be read.
            let script = """
                #!/bin/sh
                \(keepsLog ? "trap 'echo hung up > \(directory)/shell.txt' HUP" : "")
                \(EndToEndTests.executable) run --scenario still --display terminal --socket \(directory)/s.sock --data-dir \(directory) --duration 60 \(arguments)\(keepsLog ? " 2> \(directory)/log.txt" : "")
                \(keepsLog ? "echo $? > \(directory)/status.txt" : "")
                echo "modes: $(stty -a | tr ' ' '\\n' | grep -x -e icanon -e -icanon -e echo -e -echo | tr '\\n' ' ')"
                sleep 60
                """
            let path = directory + "/run.sh"
            if let file = fopen(path, "w") {
                fputs(script, file)
                fclose(file)
            }
            chmod(path, 0o755)
            _ = TerminalDisplayTests.output("tmux new-session -d -s \(name) \(size) \(path)")
        }

        func keys(_ keys: String) { _ = TerminalDisplayTests.output("tmux send-keys -t \(name) \(keys)") }
        func flag(_ format: String) -> String {
            TerminalDisplayTests.output("tmux display-message -p -t \(name) '\(format)'").split(separator: "\n").first.map(String.init) ?? ""
        }
        func end() { _ = TerminalDisplayTests.output("tmux kill-session -t \(name); rm -rf \(directory)") }
    }

    @Test func keysSwitchPagesThemeAndUnitsAndQuitRestoresTheTerminal() {
        guard Self.hasTmux else {
            print("skipped: tmux is not installed (scripts/install-deps --test installs it)")
            return
        }
        let session = Session("pages")
        defer { session.end() }
        // A whole frame is more than tmux takes in one read: until its last line (the keys) is
        // there, the pane may show a frame half drawn.
        let hint = "0-9/tab pages  t night  u units  m north  r track  q quit"
        let first = Self.screen(session.name) { $0.contains("COMPASS  1/12") && $0.contains("°") && $0.contains(hint) }
        #expect(first.hasPrefix("COMPASS  1/12") && first.contains(hint), "\(first)")
        #expect(session.flag("#{alternate_on} #{cursor_flag}") == "1 0")
        for (key, title) in [
            ("2", "POSITION  2/12"), ("3", "LEVEL  3/12"), ("4", "BAROMETER  4/12"), ("5", "SKY  5/12"),
            ("6", "CHART  6/12"), ("7", "TRACK  7/12"), ("8", "DEPARTURES  8/12"), ("9", "WAVES  9/12"), ("0", "DAY  10/12"), ("Tab", "HEALTH  11/12"),
            ("Tab", "CONNECT  12/12"), ("Tab", "COMPASS  1/12"), ("Left", "CONNECT  12/12"), ("Right", "COMPASS  1/12")
        ] {
            session.keys(key)
            let text = Self.screen(session.name) { $0.hasPrefix(title) }
            #expect(text.hasPrefix(title), "after \(key): \(text)")
        }
        session.keys("2")
        let metric = Self.screen(session.name) { $0.hasPrefix("POSITION") && $0.contains(" m GPS") }
        #expect(metric.contains(" m GPS"), "\(metric)")
        session.keys("u")
        let imperial = Self.screen(session.name) { $0.contains(" ft GPS") }
        #expect(imperial.contains(" ft GPS"), "\(imperial)")
        session.keys("t")
        // tmux reports colours one attribute at a time: red (31) on black (40), no amber (33).
        let night = Self.screen(session.name, escapes: true) { $0.contains("\u{1B}[31m\u{1B}[40m") }
        #expect(night.contains("\u{1B}[31m\u{1B}[40m") && !night.contains("33m"))
        // Every line fits the 80 columns: nothing wraps onto the next.
        for line in Self.screen(session.name) { _ in true }.split(separator: "\n") { #expect(line.count <= 80) }
        session.keys("q")
        let after = Self.screen(session.name) { $0.contains("stopped (quit key)") }
        #expect(after.contains("stopped (quit key)") && !after.contains("COMPASS  1/12"), "\(after)")
        #expect(Self.afterExit(session) == "0 1 icanon echo", "alternate screen, cursor, terminal modes")
    }

    /// The theme and units chosen with keys are there at the next start; the command line's
    /// choice wins over them.
    @Test func aChosenThemeAndUnitsAreKeptForTheNextStart() {
        guard Self.hasTmux else {
            print("skipped: tmux is not installed (scripts/install-deps --test installs it)")
            return
        }
        let first = Session("remember")
        defer { first.end() }
        _ = Self.screen(first.name) { $0.hasPrefix("COMPASS  1/12") }
        first.keys("u")
        first.keys("t")
        first.keys("q")
        _ = Self.screen(first.name) { $0.contains("stopped (quit key)") }
        let saved = Self.output("cat \(first.directory)/display.json")
        #expect(saved.contains("\"theme\":\"night\"") && saved.contains("\"units\":\"imperial\""), "\(saved)")

        let second = Session("remember-again", arguments: "--data-dir \(first.directory) --page position")
        defer { second.end() }
        let imperial = Self.screen(second.name) { $0.hasPrefix("POSITION") && $0.contains(" ft GPS") }
        #expect(imperial.contains(" ft GPS"), "\(imperial)")
        let night = Self.screen(second.name, escapes: true) { $0.contains("\u{1B}[31m") }
        #expect(night.contains("\u{1B}[31m"), "the night theme, red")
        second.keys("q")

        let third = Session("remember-cli", arguments: "--data-dir \(first.directory) --page position --units metric")
        defer { third.end() }
        let metric = Self.screen(third.name) { $0.hasPrefix("POSITION") && $0.contains(" m GPS") }
        #expect(metric.contains(" m GPS") && !metric.contains(" ft GPS"), "\(metric)")
        third.keys("q")
    }

    /// The terminal once lodestone has gone: "alternate-screen cursor-shown" and the modes
    /// the shell found ("0 1 icanon echo" when everything was put back).
    static func afterExit(_ session: Session) -> String {
        let text = screen(session.name) { $0.contains("modes: ") }
        let modes = text.split(separator: "\n").first { $0.hasPrefix("modes: ") }.map { $0.dropFirst(7).trimmingSpaces } ?? "?"
        return session.flag("#{alternate_on} #{cursor_flag}") + " " + modes
    }

    /// A crash (here SIGSEGV from outside) still hands the terminal back: the normal screen
    /// and a visible cursor.
    @Test func aCrashRestoresTheTerminal() {
        guard Self.hasTmux else {
            print("skipped: tmux is not installed (scripts/install-deps --test installs it)")
            return
        }
        let session = Session("crash")
        defer { session.end() }
        _ = Self.screen(session.name) { $0.contains("COMPASS  1/12") }
        _ = Self.output("pkill -SEGV -f 'lodestone run --scenario still --display terminal --socket \(session.directory)/'")
        let state = Self.afterExit(session)
        #expect(state == "0 1 icanon echo", "alternate screen, cursor, terminal modes: \(state)")
    }

    /// Polls for a file the session's shell writes (up to 15 s); its text, nil if it never came.
    static func file(_ path: String) -> String? {
        for _ in 0..<150 {
            if access(path, R_OK) == 0, let text = try? readTextFile(path, limit: 1 << 20), !text.isEmpty { return text }
            usleep(100_000)
        }
        return nil
    }

    /// The terminal goes away under a running display (the window closed: tmux closes the
    /// pane's pseudo-terminal): the run stops cleanly, says why, and removes its socket,
    /// instead of drawing into nothing until its duration ends.
    @Test func aClosedTerminalStopsTheRun() {
        guard Self.hasTmux else {
            print("skipped: tmux is not installed (scripts/install-deps --test installs it)")
            return
        }
        let session = Session("closed", keepsLog: true)
        defer { session.end() }
        _ = Self.screen(session.name) { $0.contains("COMPASS  1/12") }
        #expect(access(session.directory + "/s.sock", F_OK) == 0, "the run serves its socket")
        _ = Self.output("tmux kill-session -t \(session.name)")
        let status = Self.file(session.directory + "/status.txt")
        let log = (try? readTextFile(session.directory + "/log.txt", limit: 1 << 20)) ?? ""
        #expect(status == "0\n", "exit status \(status ?? "none within 15 s"); log: \(log)")
        #expect(log.contains("stopped (the terminal is gone: ") || log.contains("stopped (SIGHUP: the terminal hung up)"), "\(log)")
        #expect(access(session.directory + "/s.sock", F_OK) != 0, "the socket is removed")
        if status == nil { _ = Self.output("pkill -TERM -f 'lodestone run --scenario still --display terminal --socket \(session.directory)/'") }
    }

    /// SIGHUP while the display is the terminal is the terminal hanging up, not a request to
    /// read the configuration again: the run stops, says so, and hands the terminal back.
    @Test func aHangUpStopsATerminalRun() {
        guard Self.hasTmux else {
            print("skipped: tmux is not installed (scripts/install-deps --test installs it)")
            return
        }
        let session = Session("hangup")
        defer { session.end() }
        _ = Self.screen(session.name) { $0.contains("COMPASS  1/12") }
        _ = Self.output("pkill -HUP -f 'lodestone run --scenario still --display terminal --socket \(session.directory)/'")
        let after = Self.screen(session.name) { $0.contains("modes: ") }
        #expect(after.contains("stopped (SIGHUP: the terminal hung up)"), "\(after)")
        #expect(Self.afterExit(session) == "0 1 icanon echo", "alternate screen, cursor, terminal modes")
        #expect(access(session.directory + "/s.sock", F_OK) != 0, "the socket is removed")
        if !after.contains("modes: ") { _ = Self.output("pkill -TERM -f 'lodestone run --scenario still --display terminal --socket \(session.directory)/'") }
    }

    /// A larger terminal gets more: the compass rose beside the figures on 120 x 40.
    @Test func aLargeTerminalShowsTheRose() {
        guard Self.hasTmux else {
            print("skipped: tmux is not installed (scripts/install-deps --test installs it)")
            return
        }
        let session = Session("large", size: "-x 120 -y 40")
        defer { session.end() }
        let text = Self.screen(session.name) { $0.contains("COMPASS  1/12") && $0.contains("v") && $0.contains("°") }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first?.count ?? 0 > 100 && lines.contains { $0.hasPrefix("            ") && $0.contains("·") }, "\(text)")
    }
}

extension Substring {
    var trimmingSpaces: String {
        var text = String(self)
        while text.last == " " { text.removeLast() }
        return text
    }
}

/// `lodestone screenshot` end to end: a PNG of the asked size from the running simulation.
@Suite struct ScreenshotCommandTests {
    @Test func writesAPNGOfThePageAtTheSize() throws {
        let path = "/tmp/lodestone-screenshot-test-\(getpid()).png"
        defer { unlink(path) }
        let end = EndToEndTests()
        let (status, output) = end.finish(try end.spawn(["screenshot", "--page", "sky", "--size", "240x240", "--out", path, "--settle", "2"]))
        #expect(status == 0, "\(output)")
        let header = TerminalDisplayTests.output("od -A n -t x1 -N 24 \(path)").split(whereSeparator: { $0 == " " || $0 == "\n" })
        // The PNG signature, then IHDR with width and height 240 (0xf0).
        #expect(header.prefix(8) == ["89", "50", "4e", "47", "0d", "0a", "1a", "0a"], "\(header)")
        #expect(header.count == 24 && header[19] == "f0" && header[23] == "f0", "\(header)")
        let (bad, message) = end.finish(try end.spawn(["screenshot", "--size", "12", "--out", path]))
        #expect(bad == 2 && message.contains("--size takes WIDTHxHEIGHT"))
    }
}
