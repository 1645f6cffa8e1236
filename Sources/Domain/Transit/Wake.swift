import Glibc

/// A ship's wake reaching a spot on the shore. Between two consecutive calls the ship is placed
/// by linear interpolation in time along its path (the feed's shape, or the straight line
/// between the stops), in a flat projection about the spot (a lake's few kilometres); where it
/// passes closest, at time `t` and distance `d`, the Kelvin wedge (half-angle 19.47°) reaches
/// the spot at `t + d / tan(19.47°) / v`, `v` the ship's speed on that leg.
public enum Wake {
    public static let kelvinHalfAngle = 19.47
    static let metresPerDegree = 6_371_008.8 * Double.pi / 180

    public struct Passing: Sendable, Equatable {
        /// The closest approach: when, how far (m), at what speed (m/s); and the wake's arrival.
        public var time: Double, distance: Double, speed: Double
        public var arrival: Double
    }

    /// A point as metres east and north of the spot.
    public static func local(latitude: Double, longitude: Double, spot: (latitude: Double, longitude: Double)) -> (x: Double, y: Double) {
        ((longitude - spot.longitude) * cos(spot.latitude * .pi / 180) * metresPerDegree, (latitude - spot.latitude) * metresPerDegree)
    }

    /// The leg from `start` to `end` (times in UTC seconds) along `path` (at least two points,
    /// metres about the spot): its closest approach to the spot and the wake's arrival there;
    /// nil for a leg without length or time (a ship waiting at a stop makes no wake).
    public static func passing(path: [(x: Double, y: Double)], start: Double, end: Double) -> Passing? {
        guard path.count >= 2, end > start else { return nil }
        var length = 0.0
        var best = (distance: Double.infinity, along: 0.0)
        for (a, b) in zip(path, path.dropFirst()) {
            let (dx, dy) = (b.x - a.x, b.y - a.y)
            let segment = (dx * dx + dy * dy).squareRoot()
            // The fraction of the segment nearest the spot (the origin), kept within it.
            let fraction = segment > 0 ? max(0, min(1, -(a.x * dx + a.y * dy) / (segment * segment))) : 0
            let (px, py) = (a.x + fraction * dx, a.y + fraction * dy)
            let distance = (px * px + py * py).squareRoot()
            if distance < best.distance { best = (distance, length + fraction * segment) }
            length += segment
        }
        guard length > 0 else { return nil }
        let speed = length / (end - start)
        let time = start + (end - start) * best.along / length
        return Passing(
            time: time, distance: best.distance, speed: speed,
            arrival: time + best.distance / tan(kelvinHalfAngle * .pi / 180) / speed)
    }

    /// The piece of a shape between two distances along it (`shape_dist_traveled`), with the
    /// points interpolated at both ends.
    public static func piece(of shape: [(x: Double, y: Double, along: Double)], from: Double, to: Double) -> [(x: Double, y: Double)] {
        guard shape.count >= 2, to > from else { return [] }
        func at(_ d: Double) -> (x: Double, y: Double) {
            guard let upper = shape.firstIndex(where: { $0.along >= d }), upper > 0 else {
                let end = d <= (shape.first?.along ?? 0) ? shape[0] : shape[shape.count - 1]
                return (end.x, end.y)
            }
            let (a, b) = (shape[upper - 1], shape[upper])
            let f = b.along > a.along ? (d - a.along) / (b.along - a.along) : 0
            return (a.x + f * (b.x - a.x), a.y + f * (b.y - a.y))
        }
        return [at(from)] + shape.filter { $0.along > from && $0.along < to }.map { ($0.x, $0.y) } + [at(to)]
    }
}
