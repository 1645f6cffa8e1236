import Glibc
import LodestoneCore
import LodestoneReports
import LodestoneEncoding

/// Logging sessions on disk: list, read back (every intact record of every segment, with what
/// a power cut took), export to CSV and JSON, delete.
public struct LogStore: Sendable {
    public let directory: String
    public init(dataDirectory: String) { directory = dataDirectory + "/logs" }

    /// What a session may record, by name.
    public static let streams = LogRequest.streams

    public struct Session: Sendable {
        public var id: String
        public var fields: [String]
        public var interval: Double
        public var started: Double
        /// Rows of (UTC seconds, values by field order; NaN when empty).
        public var rows: [(time: Double, values: [Double])]
        /// Bytes cut from torn segment ends.
        public var cutBytes: Int
        public var bytes: Int
    }

    public func ids() -> [String] {
        directoryEntries(directory).filter { !$0.hasPrefix(".") }.sorted()
    }

    public func load(id: String) -> Session? {
        guard !id.contains("/"), !id.isEmpty else { return nil }
        let segments = directoryEntries(directory + "/" + id).filter { $0.hasSuffix(".rec") }.sorted()
        guard !segments.isEmpty else { return nil }
        var session = Session(id: id, fields: [], interval: 0, started: 0, rows: [], cutBytes: 0, bytes: 0)
        for segment in segments {
            guard let bytes = try? readStoreBytes(directory + "/" + id + "/" + segment) else { continue }
            let (records, valid) = RecordLog.parse(bytes)
            session.cutBytes += bytes.count - valid
            session.bytes += bytes.count
            for (index, record) in records.enumerated() {
                let text = String(decoding: record, as: UTF8.self)
                if index == 0, let header = try? JSONValue.parse(text) {
                    session.fields = header["fields"]?.arrayValue?.compactMap(\.stringValue) ?? session.fields
                    session.interval = header["interval"]?.numberValue ?? 0
                    session.started = header["started"]?.numberValue ?? 0
                    continue
                }
                let cells = text.split(separator: ",", omittingEmptySubsequences: false)
                guard let time = cells.first.flatMap({ Double($0) }) else { continue }
                session.rows.append((time, cells.dropFirst().map { Double($0) ?? .nan }))
            }
        }
        return session
    }

    public func delete(id: String) -> Bool {
        guard !id.contains("/"), !id.isEmpty else { return false }
        let path = directory + "/" + id
        for name in directoryEntries(path) { unlink(path + "/" + name) }
        return rmdir(path) == 0
    }

    /// CSV for spreadsheets: a header row (`time` and one column per field), ISO-8601 UTC times,
    /// empty cells for values not known at that moment.
    public static func csv(_ session: Session) -> String {
        var out = (["time"] + session.fields).joined(separator: ",") + "\n"
        for row in session.rows {
            out +=
                ([CivilTime(unixSeconds: row.time).iso8601] + row.values.map { $0.isFinite ? JSONObjectWriter.format($0, decimals: 6) : "" })
                .joined(separator: ",") + "\n"
        }
        return out
    }

    /// JSON: the session's description and its records as objects.
    public static func json(_ session: Session) -> String {
        var w = JSONObjectWriter()
        w.string("id", session.id)
        w.raw("fields", "[" + session.fields.map(JSONObjectWriter.quoted).joined(separator: ",") + "]")
        w.number("interval", session.interval, decimals: 3)
        w.string("started", CivilTime(unixSeconds: session.started).iso8601)
        let records = session.rows.map { row -> String in
            var r = JSONObjectWriter()
            r.string("time", CivilTime(unixSeconds: row.time).iso8601)
            for (name, value) in zip(session.fields, row.values) {
                if value.isFinite { r.number(name, value, decimals: 6) } else { r.null(name) }
            }
            return r.finished
        }
        w.raw("records", "[" + records.joined(separator: ",\n") + "]")
        return w.finished + "\n"
    }
}
