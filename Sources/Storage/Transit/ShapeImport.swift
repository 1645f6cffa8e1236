import LodestoneCore
import LodestoneDomain

extension GTFSImport {
    /// How the import reads one table: its name, the columns it needs, whether it may be
    /// missing, and what to do with each row; false when an optional table is not there.
    typealias TableReader = (String, [String], Bool, @escaping (CSVReader.Row) throws(CSVReader.Failure) -> Void) throws(Failure) -> Bool

    /// `shapes.txt`, for the shapes the kept trips follow (`named`: shape id -> number): each
    /// shape's points in `shape_pt_sequence` order. A shape is kept only with a
    /// `shape_dist_traveled` at every point, growing along it: that is what places a ship
    /// between two stops on it; without, its trips' legs are the straight lines between stops.
    static func readShapes(table: TableReader, named: [String: Int], into timetable: inout Timetable, summary: inout Summary) throws(Failure) {
        guard !named.isEmpty else { return }
        var collected = [[(sequence: Int, point: Timetable.Shape.Point)]](repeating: [], count: named.count)
        var others = 0
        let found = try table("shapes.txt", ["shape_id", "shape_pt_lat", "shape_pt_lon", "shape_pt_sequence"], true) { row throws(CSVReader.Failure) in
            let latitudeText = row["shape_pt_lat"], longitudeText = row["shape_pt_lon"]
            guard let latitude = Double(latitudeText), let longitude = Double(longitudeText), abs(latitude) <= 90, abs(longitude) <= 180 else {
                throw CSVReader.Failure(description: "shapes.txt line \(row.line): the position '\(latitudeText),\(longitudeText)' is not one")
            }
            let sequenceText = row["shape_pt_sequence"], distanceText = row["shape_dist_traveled"]
            guard let sequence = Int(sequenceText), sequence >= 0 else {
                throw CSVReader.Failure(description: "shapes.txt line \(row.line): shape_pt_sequence '\(sequenceText)' is not a whole number")
            }
            let along = Double(distanceText)
            guard distanceText.isEmpty || along.map({ $0.isFinite && $0 >= 0 && $0 < 1e9 }) == true else {
                throw CSVReader.Failure(description: "shapes.txt line \(row.line): shape_dist_traveled '\(distanceText)' is not a distance of 0 or more")
            }
            guard let number = named[row["shape_id"]], collected.indices.contains(number) else { others += 1; return }
            collected[number].append((sequence, Timetable.Shape.Point(latitude: latitude, longitude: longitude, along: along ?? .nan)))
        }
        var ids = [String](repeating: "", count: named.count)
        for (id, number) in named where ids.indices.contains(number) { ids[number] = id }
        var unplaced = 0, missing = 0
        timetable.shapes = zip(ids, collected).map { id, rows in
            let points = rows.sorted { $0.sequence < $1.sequence }.map(\.point)
            if points.isEmpty { missing += 1; return Timetable.Shape(id: id, points: []) }
            let placed = points.count >= 2 && points.allSatisfy { !$0.along.isNaN } && zip(points, points.dropFirst()).allSatisfy { $0.along <= $1.along }
            if !placed { unplaced += 1 }
            return Timetable.Shape(id: id, points: placed ? points : [])
        }
        let kept = timetable.shapes.filter { !$0.points.isEmpty }
        summary.kept.append(("shapes", kept.count))
        if !found || missing > 0 {
            summary.skipped.append(
                "\(found ? missing : named.count) shapes the trips name but shapes.txt does not draw: their wakes run straight between stops")
        }
        if unplaced > 0 {
            summary.skipped.append("\(unplaced) shapes without a growing shape_dist_traveled at every point: their wakes run straight between stops")
        }
        if others > 0 { summary.skipped.append("\(others) shape points of trips not kept") }
    }
}
