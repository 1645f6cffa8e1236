import Glibc

/// Log lines go to stderr, one line per event, so stdout stays free for the display and JSON.
public enum Log {
    public static func info(_ message: String) { write("lodestone: " + message) }
    public static func warning(_ message: String) { write("lodestone: warning: " + message) }
    public static func error(_ message: String) { write("lodestone: error: " + message) }

    public static func write(_ line: String) {
        var text = line + "\n"
        text.withUTF8 { _ = Glibc.write(2, $0.baseAddress, $0.count) }
    }
}

/// Writes text to stdout immediately (no buffering between frames of the display).
public func writeOut(_ text: String) {
    var copy = text
    copy.withUTF8 { bytes in
        var offset = 0
        while offset < bytes.count {
            guard let base = bytes.baseAddress else { return }
            let n = Glibc.write(1, base + offset, bytes.count - offset)
            if n <= 0 { if errno == EINTR { continue } else { return } }
            offset += n
        }
    }
}
