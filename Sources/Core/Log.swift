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

    /// A line at a syslog priority (3 error, 4 warning, 6 information). A line that says again
    /// what one said less than a minute before (the same words, whatever the numbers) is
    /// counted instead, and the next one written says how many there were.
    public static func write(_ line: String, priority: Int = 3) {
        var clock = timespec()
        clock_gettime(CLOCK_MONOTONIC, &clock)
        let now = Double(clock.tv_sec) + Double(clock.tv_nsec) / 1e9
        let key = wordsKey(line)
        let written = repeats.withLock { seen -> String? in
            if let last = seen[key], now - last.time < repeatInterval {
                seen[key] = (last.time, last.count + 1)
                return nil
            }
            if seen.count >= 512 { seen = seen.filter { now - $0.value.time < repeatInterval } }
            let before = seen[key]?.count ?? 0
            seen[key] = (now, 0)
            return before > 0 ? line + " (\(before) more like it in the minute before)" : line
        }
        guard let written else { return }
        let holding = held.withLock { state -> Bool in
            state.recent.append(written)
            if state.recent.count > 8 { state.recent.removeFirst() }
            guard state.holding else { return false }
            if state.lines.count < holdLimit { state.lines.append(written) }
            return true
        }
        guard !holding else { return }
        writeLine(written, prefix: toJournal ? journalPrefixes[min(max(priority, 0), 7)] : "")
    }

    /// `prefix`, `line` and a newline to stderr in one writev: whole, as one line among other
    /// threads' (a pipe takes up to 4 KiB at once), and without joining them into a new string.
    private static func writeLine(_ line: String, prefix: String) {
        var line = line, prefix = prefix
        var newline: UInt8 = 10
        line.withUTF8 { text in
            prefix.withUTF8 { head in
                withUnsafeMutablePointer(to: &newline) { end in
                    var pieces = (
                        iovec(iov_base: UnsafeMutableRawPointer(mutating: head.baseAddress), iov_len: head.count),
                        iovec(iov_base: UnsafeMutableRawPointer(mutating: text.baseAddress), iov_len: text.count),
                        iovec(iov_base: UnsafeMutableRawPointer(end), iov_len: 1)
                    )
                    withUnsafeMutableBytes(of: &pieces) { raw in
                        _ = writev(2, raw.baseAddress?.assumingMemoryBound(to: iovec.self), 3)
                    }
                }
            }
        }
    }

    /// "<0>" to "<7>": journald's priority prefixes.
    private static let journalPrefixes = (0...7).map { "<\($0)>" }

    /// A line's words, its digits left out, as a number (FNV-1a over the other scalars): lines
    /// that differ only in their numbers share it. A number rather than the words themselves,
    /// so saying a line again builds no string.
    static func wordsKey(_ line: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for scalar in line.unicodeScalars where !("0"..."9").contains(scalar) {
            var value = scalar.value
            for _ in 0..<4 {
                hash = (hash ^ UInt64(value & 0xFF)) &* 0x0000_0100_0000_01B3
                value >>= 8
            }
        }
        return hash
    }

    /// Seconds within which a line said again is counted, not written.
    package static let repeatInterval = 60.0
    /// Each line's words (see `wordsKey`): when it was last written, and how many like it since.
    private static let repeats = Mutex<[UInt64: (time: Double, count: Int)]>([:])

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
