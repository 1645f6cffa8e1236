import Glibc
import LodestoneCore
import LodestoneDomain
import LodestoneOutputs

/// Tracks under `<dataDir>/tracks/`: `recording.track` while one is recorded, then
/// `<id>.track` with a `<id>.json` summary beside it (so listing reads summaries, not points).
/// An id is the start time as YYYYMMDD-HHMMSS.
public struct TrackStore: Sendable {
    public struct Summary: Sendable, Equatable {
        public var id: String
        public var name: String
        public var started: Double
        public var distance: Double
        public var movingTime: Double
        public var elevationGain: Double
        public var points: Int
    }

    public let directory: String
    public init(dataDirectory: String) { directory = dataDirectory + "/tracks" }

    var recordingPath: String { directory + "/recording.track" }

    static func id(started: Double) -> String {
        let t = CivilTime(unixSeconds: started)
        func two(_ v: Int) -> String { (v < 10 ? "0" : "") + String(v) }
        return String(t.year) + two(t.month) + two(t.day) + "-" + two(t.hour) + two(t.minute) + two(Int(t.second))
    }

    /// Files a finished recording under its id with its summary; returns the summary.
    @discardableResult
    func file(_ recording: TrackRecording) -> Summary? {
        recording.sync()
        let id = Self.id(started: recording.started)
        guard rename(recording.path, directory + "/" + id + ".track") == 0 else { return nil }
        let statistics = TrackStatistics.of(recording.points)
        let summary = Summary(id: id, name: recording.name, started: recording.started, distance: statistics.distance,
                              movingTime: statistics.movingTime, elevationGain: statistics.elevationGain, points: statistics.points)
        var w = JSONObjectWriter()
        w.string("id", id)
        w.string("name", summary.name)
        w.number("started", summary.started, decimals: 0)
        w.raw("statistics", TrackExport.statisticsJSON(statistics))
        writeFileAtomically(directory + "/" + id + ".json", Array((w.finished + "\n").utf8))
        return summary
    }

    /// Summaries, newest first, matching the filters.
    public func list(text: String? = nil, from: Double? = nil, to: Double? = nil, minimumDistance: Double? = nil) -> [Summary] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var result: [Summary] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard name.hasSuffix(".json"), let text = try? readTextFile(directory + "/" + name, limit: 1 << 20),
                  let json = try? JSONValue.parse(text), let id = json["id"]?.stringValue else { continue }
            let s = json["statistics"]
            result.append(Summary(id: id, name: json["name"]?.stringValue ?? "", started: json["started"]?.numberValue ?? 0,
                                  distance: s?["distance"]?.numberValue ?? 0, movingTime: s?["movingTime"]?.numberValue ?? 0,
                                  elevationGain: s?["elevationGain"]?.numberValue ?? 0, points: Int(s?["points"]?.numberValue ?? 0)))
        }
        return result.filter { s in
            (text.map { t in s.name.lowercased().contains(t.lowercased()) || s.id.contains(t) } ?? true)
                && (from.map { s.started >= $0 } ?? true) && (to.map { s.started <= $0 } ?? true)
                && (minimumDistance.map { s.distance >= $0 } ?? true)
        }.sorted { $0.started > $1.started }
    }

    /// A stored track's name and points.
    public func load(id: String) -> (name: String, points: [TrackPoint])? {
        guard !id.contains("/"), let text = try? readTextFile(directory + "/" + id + ".track", limit: 256 << 20),
              let parsed = TrackFile.parse(text) else { return nil }
        return (parsed.name, parsed.points)
    }

    public func delete(id: String) -> Bool {
        guard !id.contains("/"), unlink(directory + "/" + id + ".track") == 0 else { return false }
        unlink(directory + "/" + id + ".json")
        return true
    }

    public func export(id: String, format: String) -> String? {
        guard let track = load(id: id) else { return nil }
        switch format {
        case "gpx": return TrackExport.gpx(name: track.name, points: track.points)
        case "csv": return TrackExport.csv(track.points)
        case "json": return TrackExport.json(name: track.name, points: track.points, statistics: TrackStatistics.of(track.points))
        default: return nil
        }
    }
}
