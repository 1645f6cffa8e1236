import LodestoneDomain
import LodestoneOutputs
import LodestoneEncoding
import LodestoneStorage

/// The track the referee's client recorded during a trip, read back from the device's store
/// as a person would get it: the summary `track list` shows, the points, and the GPX, CSV and
/// JSON exports.
struct RecordedTrack {
    var summary: TrackStore.Summary
    var points: [TrackPoint]
    var gpx: String
    var csv: String
    var json: String

    /// The newest stored track under a data directory, nil when none was saved.
    static func newest(dataDirectory: String) -> RecordedTrack? {
        let store = TrackStore(dataDirectory: dataDirectory)
        guard let summary = store.list().first, let track = store.load(id: summary.id),
            let gpx = store.export(id: summary.id, format: "gpx"), let csv = store.export(id: summary.id, format: "csv"),
            let json = store.export(id: summary.id, format: "json")
        else { return nil }
        return RecordedTrack(summary: summary, points: track.points, gpx: gpx, csv: csv, json: json)
    }

    /// The `<ele>` of every `<trkpt>`, NaN where a point has none.
    var gpxElevations: [Double] {
        gpx.split(separator: "\n").filter { $0.contains("<trkpt") }.map { line in
            guard let open = line.firstRange(of: "<ele>"), let close = line.firstRange(of: "</ele>") else { return .nan }
            return Double(line[open.upperBound..<close.lowerBound]) ?? .nan
        }
    }

    /// The `elevation` column of the CSV export.
    var csvElevations: [Double] {
        let lines = csv.split(separator: "\n")
        guard let header = lines.first?.split(separator: ",", omittingEmptySubsequences: false),
            let column = header.firstIndex(of: "elevation")
        else { return [] }
        return lines.dropFirst().map { line in
            let cells = line.split(separator: ",", omittingEmptySubsequences: false)
            return column < cells.count ? Double(cells[column]) ?? .nan : .nan
        }
    }

    /// The JSON export's point elevations and its profile's altitudes.
    var jsonElevations: (points: [Double], profile: [Double]) {
        guard let value = try? JSONValue.parse(json) else { return ([], []) }
        let points = value["points"]?.arrayValue?.map { $0["elevation"]?.numberValue ?? .nan } ?? []
        let profile =
            value["statistics"]?["profile"]?.arrayValue?.compactMap { pair -> Double? in
                guard let items = pair.arrayValue, items.count == 2 else { return nil }
                return items[1].numberValue
            } ?? []
        return (points, profile)
    }
}
