import Glibc
import Synchronization

/// Log lines go to stderr, one line per event, so stdout stays free for the display and JSON.
/// While the full-screen terminal display owns the terminal they are held (the newest shown
/// on the health page) and written out when it hands the terminal back, so none is lost and
/// none scribbles over the screen.
public enum Log {
    fileprivate static let held = Mutex<(holding: Bool, lines: [String], recent: [String])>((false, [], []))
    /// Lines kept while held; beyond this the oldest are dropped, and the count says so.
    package static let holdLimit = 1000

    public static func info(_ message: String) { write("lodestone: " + message, priority: 6) }
    public static func warning(_ message: String) { write("lodestone: warning: " + message, priority: 4) }
    public static func error(_ message: String) { write("lodestone: error: " + message, priority: 3) }

    /// A line at a syslog priority (3 error, 4 warning, 6 information).
    public static func write(_ line: String, priority: Int = 3) {
        let holding = held.withLock { state -> Bool in
            state.recent.append(line)
            if state.recent.count > 8 { state.recent.removeFirst() }
            guard state.holding else { return false }
            if state.lines.count < holdLimit { state.lines.append(line) }
            return true
        }
        if !holding { writeError((toJournal ? "<\(priority)>" : "") + line + "\n") }
    }

    /// Whether stderr is the journal's stream ($JOURNAL_STREAM names its device and inode), so
    /// each line starts with its priority ("<4>") and journald keeps the levels.
    static let toJournal: Bool = {
        guard let value = getenv("JOURNAL_STREAM").map({ String(cString: $0) }) else { return false }
        let parts = value.split(separator: ":")
        var status = stat()
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]), fstat(2, &status) == 0 else { return false }
        return UInt64(status.st_dev) == device && UInt64(status.st_ino) == inode
    }()

    /// The newest lines, oldest first.
    package static func recent(_ count: Int) -> [String] { held.withLock { Array($0.recent.suffix(count)) } }

    /// Holds lines from now on (the terminal display has taken the terminal).
    package static func hold() { held.withLock { $0.holding = true } }

    /// Writes the held lines and goes back to writing each as it comes.
    package static func release() {
        let lines = held.withLock { state -> [String] in
            state.holding = false
            defer { state.lines.removeAll() }
            return state.lines.count >= holdLimit ? state.lines + ["lodestone: (later lines were dropped while the display ran)"] : state.lines
        }
        if !lines.isEmpty { writeError(lines.joined(separator: "\n") + "\n") }
    }

    private static func writeError(_ line: String) {
        var text = line
        text.withUTF8 { _ = Glibc.write(2, $0.baseAddress, $0.count) }
    }
}

/// Writes text to stdout immediately (no buffering between frames of the display).
public func writeOut(_ text: String) { _ = writeOutChecked(text) }

/// `writeOut`, saying why stdout took not all of it: the write's errno (EIO once a terminal
/// has hung up), nil when everything went.
package func writeOutChecked(_ text: String) -> Int32? {
    var copy = text
    return copy.withUTF8 { bytes -> Int32? in
        var offset = 0
        while offset < bytes.count {
            guard let base = bytes.baseAddress else { return nil }
            let n = Glibc.write(1, base + offset, bytes.count - offset)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return n == 0 ? EIO : errno }
            offset += n
        }
        return nil
    }
}

extension Log {
    /// Stops holding and hands back the held lines unwritten (the referee keeps a trip's log
    /// to itself and shows it only when asked).
    package static func takeHeld() -> [String] {
        held.withLock { state -> [String] in
            state.holding = false
            defer { state.lines.removeAll() }
            return state.lines
        }
    }
}
