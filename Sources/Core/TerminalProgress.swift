import Glibc

/// One line of progress on the terminal for long work ("importing stop_times.txt: 43% (120 of
/// 280 MB)"), redrawn at most ten times a second and cleared when the work ends. Silent when
/// standard error is not a terminal (a pipe, a log, a service), so scripts see only results.
public final class TerminalProgress {
    public let enabled: Bool
    private var lastDrawn = -1.0
    private var showing = false

    public init(enabled: Bool = isatty(2) == 1) { self.enabled = enabled }

    /// What is being done, how far, and out of how much (nil: not known, a count is shown).
    /// `unit` is what `done` counts ("MB" divides bytes; anything else is shown as it is).
    public func update(_ label: String, done: Int, total: Int?, unit: String = "") {
        guard enabled else { return }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let seconds = Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
        guard seconds - lastDrawn >= 0.1 else { return }
        lastDrawn = seconds
        writeLine(Self.line(label, done: done, total: total, unit: unit))
    }

    /// Clears the line (the result that follows is printed on a clean one).
    public func finish() {
        guard enabled, showing else { return }
        writeError("\r\u{1B}[K")
        showing = false
    }

    /// The text of a progress line.
    public static func line(_ label: String, done: Int, total: Int?, unit: String) -> String {
        func amount(_ value: Int) -> String {
            unit == "MB" ? DecimalText.compact(Double(value) / 1_048_576, 1) : String(value)
        }
        let suffix = unit.isEmpty ? "" : " " + unit
        guard let total, total > 0 else { return "\(label): \(amount(done))\(suffix)" }
        let percent = min(100, max(0, done * 100 / total))
        return "\(label): \(percent)% (\(amount(done)) of \(amount(total))\(suffix))"
    }

    private func writeLine(_ text: String) {
        writeError("\r\u{1B}[K" + text)
        showing = true
    }

    private func writeError(_ text: String) {
        var text = text
        text.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
    }
}
