import Glibc
import LodestoneCore

/// "Take me back": guidance along a recorded path to its start. Each position is matched to
/// the path near where the person last was (so a path that crosses itself does not jump to
/// the wrong leg), and the target is the path's point a little way further back toward the
/// start: its bearing and distance, and the distance left to the start along the path. Off
/// track means farther from the path than 50 m, back on track nearer than 30 m (hysteresis, so
/// GPS noise at the edge does not flicker).
public struct Backtrack: Sendable {
    public struct Guidance: Sendable, Equatable {
        /// The point to walk to now, and its bearing (true) and distance from here.
        public var target: (latitude: Double, longitude: Double)
        public var bearing: Double
        public var distance: Double
        /// From here to the start: to the target, then along the path.
        public var remaining: Double
        /// The distance from the path, and whether that is off track.
        public var crossTrack: Double
        public var offTrack: Bool

        public static func == (a: Guidance, b: Guidance) -> Bool {
            a.target.latitude == b.target.latitude && a.target.longitude == b.target.longitude && a.bearing == b.bearing
                && a.distance == b.distance && a.remaining == b.remaining && a.crossTrack == b.crossTrack && a.offTrack == b.offTrack
        }
    }

    public static let offTrackMetres = 50.0, onTrackMetres = 30.0
    /// How far back along the path the target is from the matched point.
    public static let lookAhead = 25.0
    /// How far along the path (either way) a match is looked for around the last one.
    public static let window = 300.0

    let path: [(latitude: Double, longitude: Double)]
    /// Distance along the path from the start to each point, metres.
    let along: [Double]
    /// Where the person was last matched (an index into the path); the end to begin with.
    private(set) var matched: Int
    private(set) var offTrack = false

    /// `path` from its start to where the way back begins; nil without two distinct points.
    public init?(path: [(latitude: Double, longitude: Double)]) {
        let kept = path.filter { $0.latitude.isFinite && $0.longitude.isFinite }
        guard kept.count >= 2 else { return nil }
        var along = [0.0]
        for (a, b) in zip(kept, kept.dropFirst()) {
            along.append(
                (along.last ?? 0) + Geodesy.inverse(latitude1: a.latitude, longitude1: a.longitude, latitude2: b.latitude, longitude2: b.longitude).distance)
        }
        guard let total = along.last, total > 0 else { return nil }
        (self.path, self.along, matched) = (kept, along, kept.count - 1)
    }

    /// The path's length, metres.
    public var length: Double { along.last ?? 0 }

    /// Guidance from a position.
    public mutating func update(latitude: Double, longitude: Double) -> Guidance {
        // The nearest point within the window around the last match, preferring the way back.
        let here = along[matched]
        var best = matched, bestDistance = Double.infinity
        for index in path.indices where abs(along[index] - here) <= Self.window {
            let d = Geodesy.inverse(latitude1: latitude, longitude1: longitude, latitude2: path[index].latitude, longitude2: path[index].longitude).distance
            if d < bestDistance || (d == bestDistance && index < best) { (best, bestDistance) = (index, d) }
        }
        // Off the window (a long detour): match anywhere rather than lose the person.
        if bestDistance > Self.offTrackMetres * 4 {
            for index in path.indices {
                let d = Geodesy.inverse(latitude1: latitude, longitude1: longitude, latitude2: path[index].latitude, longitude2: path[index].longitude).distance
                if d < bestDistance { (best, bestDistance) = (index, d) }
            }
        }
        matched = best
        let crossTrack = crossTrackDistance(latitude: latitude, longitude: longitude, near: best)
        if offTrack { offTrack = crossTrack > Self.onTrackMetres } else { offTrack = crossTrack > Self.offTrackMetres }
        // The target: lookAhead metres further toward the start (the start itself at the end).
        let goal = max(0, along[best] - Self.lookAhead)
        let target = path.indices.last { along[$0] <= goal } ?? 0
        let leg = Geodesy.inverse(latitude1: latitude, longitude1: longitude, latitude2: path[target].latitude, longitude2: path[target].longitude)
        return Guidance(
            target: path[target], bearing: leg.distance > 0 ? leg.bearing : 0, distance: leg.distance,
            remaining: leg.distance + along[target], crossTrack: crossTrack, offTrack: offTrack)
    }

    /// The distance from a position to the path's segments either side of point `index`.
    func crossTrackDistance(latitude: Double, longitude: Double, near index: Int) -> Double {
        var nearest = Double.infinity
        let cosine = cos(latitude * .pi / 180)
        for segment in max(0, index - 1)..<min(path.count - 1, index + 1) {
            // A local flat projection is exact enough over a segment of a walk.
            let a = path[segment], b = path[segment + 1]
            let (ax, ay) = ((a.longitude - longitude) * cosine * 111_320, (a.latitude - latitude) * 111_320)
            let (bx, by) = ((b.longitude - longitude) * cosine * 111_320, (b.latitude - latitude) * 111_320)
            let (dx, dy) = (bx - ax, by - ay)
            let lengthSquared = dx * dx + dy * dy
            let t = lengthSquared > 0 ? max(0, min(1, -(ax * dx + ay * dy) / lengthSquared)) : 0
            let (px, py) = (ax + t * dx, ay + t * dy)
            nearest = min(nearest, (px * px + py * py).squareRoot())
        }
        if nearest == .infinity {
            nearest = Geodesy.inverse(latitude1: latitude, longitude1: longitude, latitude2: path[index].latitude, longitude2: path[index].longitude).distance
        }
        return nearest
    }
}
