import LodestoneCore
import LodestoneDomain
import LodestoneReports

/// `track show ID` on a terminal: what a runner reads after a run. Distance, moving and total
/// time, average and best pace, the splits per kilometre or mile (by the units), elevation gain
/// and loss (counted past a 3 m dead band), the highest and lowest points.
public enum TrackSummaryText {
    /// The split's length and name in the units: a mile for imperial, a nautical mile at sea.
    public static func split(_ units: Units) -> (metres: Double, name: String) {
        switch units {
        case .metric: return (1000, "km")
        case .imperial: return (1609.344, "mi")
        case .nautical: return (1852, "nm")
        }
    }

    /// "5:42" for seconds.
    public static func clock(_ seconds: Double) -> String {
        // A stored summary's duration may be anything (1e19): beyond an Int it is not a time.
        guard seconds >= 0, let whole = Int(rounding: seconds) else { return "--" }
        let hours = whole / 3600, minutes = (whole % 3600) / 60, rest = whole % 60
        return hours > 0 ? "\(hours):\(zeroPadded(minutes, 2)):\(zeroPadded(rest, 2))" : "\(minutes):\(zeroPadded(rest, 2))"
    }

    public static func text(summary: TrackStore.Summary, points: [TrackPoint], timeless: Bool, units: Units, photos: [TrackPhoto] = []) -> String {
        let (length, unit) = split(units)
        let elevations = TrackElevation.of(points)
        let s = TrackStatistics.of(points, elevations: elevations, splitLength: length)
        var lines: [String] = []
        lines.append("\(summary.name)  (\(summary.id))" + (summary.isPrivate ? "  private" : ""))
        if !timeless, summary.started > 0 { lines.append("started    " + CivilTime(unixSeconds: summary.started).iso8601) }
        if !summary.tags.isEmpty { lines.append("tags       #" + summary.tags.joined(separator: " #")) }
        if !summary.notes.isEmpty { lines.append("notes      " + summary.notes) }
        lines.append("distance   " + units.distance(s.distance) + "  (\(s.points) points)")
        if timeless {
            lines.append("time       none: the file this track came from had no times (its shape is kept)")
        } else {
            lines.append("moving     " + clock(s.movingTime) + "   total " + clock(s.totalTime))
            let perSplit = s.distance > 0 ? s.movingTime / (s.distance / length) : .nan
            lines.append(
                "pace       " + clock(perSplit) + " /\(unit) average" + (s.splits.min().map { "   " + clock($0) + " /\(unit) best split" } ?? "")
                    + (s.averageMovingSpeed > 0 ? "   (" + units.speed(s.averageMovingSpeed) + ")" : ""))
        }
        let known = elevations.filter(\.isFinite)
        if let high = known.max(), let low = known.min() {
            lines.append(
                "climb      +" + units.altitude(s.elevationGain) + "  -" + units.altitude(s.elevationLoss)
                    + "   highest " + units.altitude(high) + "  lowest " + units.altitude(low))
        }
        if !timeless && !s.splits.isEmpty {
            lines.append("splits")
            for (index, seconds) in s.splits.enumerated() {
                let label = "  \(unit) \(index + 1)"
                lines.append(label + String(repeating: " ", count: max(1, 9 - label.count)) + clock(seconds))
            }
            let rest = s.distance - Double(s.splits.count) * length
            if rest >= length / 100 { lines.append("  +" + units.distance(rest)) }
        }
        if !photos.isEmpty {
            lines.append("photos     \(photos.count)")
            for photo in photos {
                let place = photo.hasPlace ? "  \(fixed(photo.latitude, 6)), \(fixed(photo.longitude, 6))" : "  (no fix)"
                lines.append("  photos/\(photo.file)  " + String(CivilTime(unixSeconds: photo.time).iso8601.dropFirst(11).prefix(8)) + place)
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
