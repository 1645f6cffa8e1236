import Glibc
import LodestoneCore
import LodestoneEncoding
import LodestoneStorage

/// `verify --recording FILE --reports FILE2`: the replay's reports held to the ones the device
/// published while it recorded (`run --record FILE --reports FILE2`), report for report. Each
/// class and device is its own stream, compared in order; the first report that differs is
/// named with its place, its time and the first field that differs.
///
/// The published file is read as the replay goes, a piece at a time (an hour of reports is far
/// more than the memory a board has to spare); a line that is not a report (a cut write) is
/// warned about and skipped.
public final class PublishedReports {
    /// A stream: a report class and the device it names ("" for reports that name none).
    struct Stream: Hashable {
        var kind: String
        var device: String
    }

    private let path: String
    private let fd: Int32
    private var buffer: [UInt8] = []
    private var ended = false
    private var lineNumber = 0
    /// Published reports read ahead of the replay, per stream.
    private var waiting: [Stream: [(line: String, number: Int)]] = [:]
    /// Reports compared so far per stream (for "the 12th ATT").
    private var compared: [Stream: Int] = [:]
    private(set) var matched = 0
    /// The first difference found, in words; nil while every report matched.
    private(set) var firstDifference: String?
    private var replayedOnly = 0
    private var firstReplayedOnly: String?
    private(set) var skipped = 0

    /// Opens the published reports; the error says why not.
    public init(path: String) throws(StorageError) {
        self.path = path
        do { fd = try GuardedOpen.input(path) } catch {
            throw StorageError("cannot read the published reports: \(error.description) (write them with 'lodestone run --record FILE --reports FILE2')")
        }
        // A blocking descriptor from here on: the file is regular (a pipe was refused).
        _ = fcntl(fd, F_SETFL, 0)
    }

    deinit { close(fd) }

    /// One replayed report (a gpsd JSON line), in the order the replay published it.
    public func take(_ line: String) {
        guard let stream = Self.stream(of: line) else { return }
        let number = compared[stream, default: 0] + 1
        compared[stream] = number
        while waiting[stream]?.isEmpty ?? true, readPublished() {}
        guard var queue = waiting[stream], !queue.isEmpty else {
            replayedOnly += 1
            if firstReplayedOnly == nil { firstReplayedOnly = Self.place(number, stream) + " was replayed but never published: " + Self.excerpt(line) }
            return
        }
        let published = queue.removeFirst()
        waiting[stream] = queue
        if published.line == line {
            matched += 1
        } else if firstDifference == nil {
            firstDifference = Self.place(number, stream) + " (line \(published.number) of \(path))" + Self.difference(published.line, line)
        }
    }

    /// The verdict once the replay has ended: every published report replayed, equal and in order.
    public func check(trip: String) -> RefereeCheck {
        while readPublished() {}
        let unreplayed = waiting.values.reduce(0) { $0 + $1.count }
        var problems: [String] = []
        if let firstDifference { problems.append(firstDifference) }
        if unreplayed > 0, let (stream, first) = waiting.first(where: { !$0.value.isEmpty }).map({ ($0.key, $0.value[0]) }) {
            problems.append(
                "\(unreplayed) published reports were not replayed, first \(Self.place(compared[stream, default: 0] + 1, stream)) "
                    + "(line \(first.number)): \(Self.excerpt(first.line))")
        }
        if let firstReplayedOnly { problems.append("\(replayedOnly) replayed reports were never published, first " + firstReplayedOnly) }
        let passed = problems.isEmpty && matched > 0
        let detail =
            passed
            ? "\(matched) reports, each as published" + (skipped > 0 ? "; \(skipped) lines of \(path) were not reports and were skipped" : "")
            : (problems.isEmpty ? "no reports to compare in \(path)" : problems.joined(separator: "; "))
        return RefereeCheck(
            trip: trip, name: "the published reports reproduced", measured: Double(matched), comparison: "", limit: .nan, unit: "reports",
            passed: passed, detail: detail)
    }

    /// Reads published lines until at least one report is queued; false at the end of the file.
    private func readPublished() -> Bool {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                if queue(line) { return true }
                continue
            }
            if ended {
                guard !buffer.isEmpty else { return false }
                // The last line without its newline: a write the run did not finish.
                let line = String(decoding: buffer, as: UTF8.self)
                buffer.removeAll()
                if queue(line) { return true }
                return false
            }
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count <= 0 {
                if count < 0 { Log.warning("\(path): \(String(cString: strerror(errno))); comparing what was read") }
                ended = true
            } else {
                buffer += chunk[..<count]
            }
        }
    }

    private func queue(_ line: String) -> Bool {
        lineNumber += 1
        guard !line.isEmpty else { return false }
        guard let stream = Self.stream(of: line) else {
            skipped += 1
            if skipped == 1 { Log.warning("\(path), line \(lineNumber): not a report (a cut write?); skipped") }
            return false
        }
        waiting[stream, default: []].append((line, lineNumber))
        return true
    }

    static func stream(of line: String) -> Stream? {
        guard let report = try? JSONValue.parse(line), let kind = report["class"]?.stringValue else { return nil }
        return Stream(kind: kind, device: report["device"]?.stringValue ?? "")
    }

    static func place(_ number: Int, _ stream: Stream) -> String {
        "the \(ordinal(number)) \(stream.kind)" + (stream.device.isEmpty ? "" : " of \(stream.device)")
    }

    /// Where two reports of one stream part: the first field whose value differs.
    static func difference(_ published: String, _ replayed: String) -> String {
        guard case .object(let a)? = try? JSONValue.parse(published), case .object(let b)? = try? JSONValue.parse(replayed) else {
            return " differs: published \(excerpt(published)), replayed \(excerpt(replayed))"
        }
        let time = a.first { $0.0 == "time" }?.1.stringValue.map { " at \($0)" } ?? ""
        for (key, value) in a where b.first(where: { $0.0 == key })?.1 != value {
            let other = b.first { $0.0 == key }?.1
            return "\(time) differs in \"\(key)\": published \(value.serialized), replayed \(other?.serialized ?? "nothing")"
        }
        if let extra = b.first(where: { field in !a.contains { $0.0 == field.0 } }) {
            return "\(time) differs: the replay adds \"\(extra.0)\": \(extra.1.serialized)"
        }
        return "\(time) differs in the order of its fields: published \(excerpt(published)), replayed \(excerpt(replayed))"
    }

    static func excerpt(_ line: String) -> String { line.count <= 160 ? line : String(line.prefix(157)) + "..." }

    static func ordinal(_ n: Int) -> String {
        let suffix: String
        switch (n % 10, n % 100) {
        case (_, 11...13): suffix = "th"
        case (1, _): suffix = "st"
        case (2, _): suffix = "nd"
        case (3, _): suffix = "rd"
        default: suffix = "th"
        }
        return "\(n)\(suffix)"
    }
}
