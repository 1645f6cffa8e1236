import LodestoneCore
import LodestoneDomain
import LodestoneReports

/// The track drawn in text cells (a terminal, a small LCD, `lodestone track show --plot`): the
/// path as dots, `S` the start, `@` the position now, the waypoints by their initials, a north
/// arrow when the map is turned or not, and a scale bar; then the elevation profile as a
/// sparkline with the kilometre splits.
public enum TrackMap {
    /// The map's lines, `columns` x `rows` cells (a cell about twice as tall as wide).
    public static func lines(_ track: DisplayModel.TrackPanel, units: Units, columns: Int, rows: Int, _ language: Language = .en) -> [(String, Ink)] {
        guard columns >= 8, rows >= 3, !track.path.isEmpty else { return [] }
        let mapRows = rows - 1
        let marks = track.waypoints.map { ($0.latitude, $0.longitude) } + (track.here.map { [$0] } ?? [])
        let plot = TrackPlot(points: track.path, marks: marks, width: Double(columns), height: Double(mapRows), aspect: 2, headingUp: track.headingUp)
        var grid = [[Character]](repeating: [Character](repeating: " ", count: columns), count: mapRows)
        func put(_ c: Character, _ latitude: Double, _ longitude: Double) {
            let p = plot.position(latitude: latitude, longitude: longitude)
            guard plot.contains(p) else { return }
            let (x, y) = (Int(p.x), Int(p.y))
            if y >= 0, y < mapRows, x >= 0, x < columns { grid[y][x] = c }
        }
        // The path joined point to point, so a fast leg is not a row of gaps.
        for (a, b) in zip(track.path, track.path.dropFirst()) {
            let pa = plot.position(latitude: a.latitude, longitude: a.longitude), pb = plot.position(latitude: b.latitude, longitude: b.longitude)
            let steps = max(1, Int(max(abs(pb.x - pa.x), abs(pb.y - pa.y)).rounded(.up)))
            for step in 0...steps {
                let t = Double(step) / Double(steps)
                let (x, y) = (Int(pa.x + (pb.x - pa.x) * t), Int(pa.y + (pb.y - pa.y) * t))
                if y >= 0, y < mapRows, x >= 0, x < columns, grid[y][x] == " " { grid[y][x] = "·" }
            }
        }
        for w in track.waypoints { put(w.name.first.map { Character($0.uppercased()) } ?? "W", w.latitude, w.longitude) }
        // A photo is "*" (a waypoint's initial is a letter).
        for photo in track.photos { put("*", photo.latitude, photo.longitude) }
        if let start = track.path.first { put("S", start.latitude, start.longitude) }
        if let here = track.here ?? track.path.last { put("@", here.latitude, here.longitude) }
        var out = grid.map { (String($0), Ink.text) }
        // North: "N↑" when north is up, the heading when the map is turned.
        let north = track.headingUp.map { language.say("hdg").uppercased() + " \(Int($0.rounded()) % 360)°" } ?? "N↑"
        if var first = out.first?.0 {
            let end = first.index(first.endIndex, offsetBy: -min(first.count, north.count))
            first.replaceSubrange(end..., with: north)
            out[0] = (first, .text)
        }
        let bar = max(2, Int(plot.scaleBarUnits.rounded()))
        out.append(("|" + String(repeating: "-", count: max(0, bar - 2)) + "| " + units.distance(plot.scaleBarMetres), .dim))
        return out
    }

    /// The elevation profile as one line, and the splits (minutes per km, mile or nm).
    public static func profile(_ track: DisplayModel.TrackPanel, units: Units, columns: Int, _ language: Language = .en) -> [String] {
        var out: [String] = []
        if track.profile.contains(where: \.isFinite), let low = track.profile.filter(\.isFinite).min(), let high = track.profile.filter(\.isFinite).max() {
            let width = max(4, columns - 16)
            out.append(Sparkline.draw(track.profile, width: width) + " " + units.altitude(low) + "-" + units.altitude(high))
        }
        if !track.splits.isEmpty {
            let text = track.splits.enumerated().map { "\($0.offset + 1): \(Int($0.element) / 60):\(zeroPadded(Int($0.element) % 60, 2))" }
            var line = language.say("splits")
            for item in text {
                if line.count + item.count + 2 > columns { out.append(line); line = " " }
                line += "  " + item
            }
            out.append(line)
        }
        return out
    }
}
