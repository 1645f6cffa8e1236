import Glibc
import LodestoneCore
import LodestoneDomain
import LodestoneEncoding

/// Snapshots in `<dataDir>/snapshots/<id>.json`, one file each, written atomically. The JSON
/// shape is a contract (extended, never renamed):
/// `{"id","timestamp","location":{"latitude","longitude","altitude","accuracy"},
///   "barometer":{"pressure","seaLevelPressure","attitude":{"roll","pitch","yaw"}},
///   "weather":{"temperature","humidity","conditions"},
///   "motion":{"accelerometer":{"x","y","z"},"gyroscope":{..},"magnetometer":{..}},"photoCount"}`
/// plus `name` and `notes`. Unknown values are null.
public struct SnapshotStore: Sendable {
    public let directory: String
    public init(dataDirectory: String) { directory = dataDirectory + "/snapshots" }

    /// An id from the time: YYYYMMDD-HHMMSS, with -2, -3... when taken within the same second.
    public func newID(time: Double) -> String {
        let t = CivilTime(unixSeconds: time)
        let base =
            zeroPadded(t.year, 4) + zeroPadded(t.month, 2) + zeroPadded(t.day, 2) + "-" + zeroPadded(t.hour, 2)
            + zeroPadded(t.minute, 2) + zeroPadded(Int(t.second), 2)
        var id = base, number = 2
        while fileExists(directory + "/" + id + ".json") {
            id = base + "-" + String(number)
            number += 1
        }
        return id
    }

    public func save(_ snapshot: Snapshot) throws(StorageError) {
        guard makeDirectories(directory), writeFileAtomically(directory + "/" + snapshot.id + ".json", Array((SnapshotJSON.object(snapshot) + "\n").utf8))
        else {
            throw StorageError("cannot write \(directory)/\(snapshot.id).json")
        }
    }

    public func load(id: String) -> Snapshot? {
        guard !id.contains("/"), let text = try? readStoreText(directory + "/" + id + ".json"), let json = try? JSONValue.parse(text) else { return nil }
        return SnapshotJSON.snapshot(json)
    }

    /// Every snapshot, oldest first.
    public func list() -> [Snapshot] { listReporting().snapshots }

    /// Every readable snapshot, oldest first, and a warning naming each file that could not be
    /// read (damaged or cut short): it stays where it is, for the person to see.
    public func listReporting() -> (snapshots: [Snapshot], warnings: [String]) {
        guard let dir = opendir(directory) else { return ([], []) }
        defer { closedir(dir) }
        var ids: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasSuffix(".json") { ids.append(String(name.dropLast(5))) }
        }
        var snapshots: [Snapshot] = [], warnings: [String] = []
        for id in ids {
            if let snapshot = load(id: id) {
                snapshots.append(snapshot)
            } else {
                warnings.append("\(directory)/\(id).json is damaged or cut short: it is not listed, and left as it is")
            }
        }
        return (snapshots.sorted { ($0.timestamp, $0.id) < ($1.timestamp, $1.id) }, warnings.sorted())
    }

    public func delete(id: String) -> Bool {
        !id.contains("/") && unlink(directory + "/" + id + ".json") == 0
    }

    /// What `lodestone snapshot export` writes and the web app downloads: one snapshot (`one`)
    /// as a JSON object, several as a JSON array, or CSV.
    public static func export(_ snapshots: [Snapshot], one: Bool, format: String) -> String {
        if format == "csv" { return csv(snapshots) }
        if one, let first = snapshots.first { return SnapshotJSON.object(first) + "\n" }
        return SnapshotJSON.list(snapshots) + "\n"
    }

    /// CSV: a header row, then one row per snapshot (id, ISO-8601 time, name, notes, conditions,
    /// then every number in the shape's order); empty cells for unknown values.
    public static func csv(_ snapshots: [Snapshot]) -> String {
        let columns = Snapshot(id: "", timestamp: 0, name: "", notes: "").numbers.map(\.path)
        var out = (["id", "timestamp", "name", "notes", "weather.conditions"] + columns).joined(separator: ",") + "\n"
        for s in snapshots {
            let numbers = s.numbers.map { $0.value.isFinite ? JSONObjectWriter.format($0.value, decimals: 7) : "" }
            out +=
                ([s.id, CivilTime(unixSeconds: s.timestamp).iso8601, csvField(s.name), csvField(s.notes), csvField(s.conditions)]
                + numbers).joined(separator: ",") + "\n"
        }
        return out
    }

    /// A CSV cell: quoted when it holds a comma, a quote or a line break (RFC 4180).
    public static func csvField(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingAll("\"", with: "\"\"") + "\""
    }
}

extension String {
    /// Every `target` replaced (Foundation-free).
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var out = ""
        for c in self { if c == target { out += replacement } else { out.append(c) } }
        return out
    }
}
