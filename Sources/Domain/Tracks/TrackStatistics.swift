/// What a finished (or growing) track amounts to: distance on the ellipsoid, total and moving
/// time, speeds, elevation gain and loss, per-kilometre splits and an elevation profile.
/// Altitudes are the barometer's fused with GPS (`AltitudeFusion`), so a change in the weather
/// over a day's walk does not read as a climb. Elevation changes count only once they exceed
/// `elevationHysteresis`, so a metre of noise over an hour of flat walking does not add up to
/// a hill.
public struct TrackStatistics: Sendable, Equatable {
    public var distance = 0.0
    public var totalTime = 0.0
    public var movingTime = 0.0
    public var maximumSpeed = 0.0
    public var elevationGain = 0.0
    public var elevationLoss = 0.0
    /// Seconds for each completed split (a kilometre unless asked otherwise).
    public var splits: [Double] = []
    /// The length of a split, metres.
    public var splitLength = 1000.0
    /// The split under way: metres and seconds (moving or not, pauses left out) since the last
    /// completed one, or since the start.
    public var splitUnderWay = (distance: 0.0, time: 0.0)
    public var points = 0
    /// Distance along the track (m) and fused altitude (m), at most `profileLength` pairs.
    public var profile: [(distance: Double, altitude: Double)] = []

    public static func == (a: TrackStatistics, b: TrackStatistics) -> Bool {
        a.distance == b.distance && a.totalTime == b.totalTime && a.movingTime == b.movingTime && a.maximumSpeed == b.maximumSpeed
            && a.elevationGain == b.elevationGain && a.elevationLoss == b.elevationLoss && a.splits == b.splits && a.points == b.points
            && a.splitUnderWay == b.splitUnderWay
            && a.profile.elementsEqual(b.profile) { $0.distance == $1.distance && $0.altitude == $1.altitude }
    }

    public static let profileLength = 200

    public static let movingSpeed = 0.3
    /// Metres a point must lie from the last counted one before the leg counts. A filtered
    /// fix jitters by about half a metre across the path; summed over 1 s legs of a walk that
    /// adds several percent, over 10 m legs well under one. A bend cut by a 10 m chord loses
    /// under a metre.
    public static let minimumLeg = 10.0
    public static let elevationHysteresis = 3.0

    public init() {}

    public var averageSpeed: Double { totalTime > 0 ? distance / totalTime : 0 }
    public var averageMovingSpeed: Double { movingTime > 0 ? distance / movingTime : 0 }
    /// Seconds per kilometre while moving.
    public var averagePace: Double { distance > 0 ? movingTime / (distance / 1000) : 0 }

    /// - Parameter elevations: one per point (`TrackElevation.of` the whole recording when the
    ///   points are a trimmed part of it); computed from the points when nil.
    public static func of(_ track: [TrackPoint], elevations given: [Double]? = nil, splitLength: Double = 1000) -> TrackStatistics {
        let elevations = given.flatMap { $0.count == track.count ? $0 : nil } ?? TrackElevation.of(track)
        var accumulator = Accumulator(splitLength: splitLength)
        for (point, altitude) in zip(track, elevations) { accumulator.add(point, altitude: altitude) }
        return accumulator.statistics
    }

    /// The statistics of a track taken a point at a time, as it is read or written, without
    /// holding its points: the same figures `of` gives the whole list (which is worked out by
    /// it). The elevation profile is the one figure that needs every point (its spacing depends
    /// on how many there are): it is kept only when asked (`keepsProfile`), a pair a point.
    public struct Accumulator: Sendable {
        private var s = TrackStatistics()
        private let keepsProfile: Bool
        private var previous: TrackPoint?
        // Distance is counted from the last point that was far enough away, so the receiver's
        // jitter (a metre or two each second, at a standstill or along a straight path) does
        // not add up to kilometres over a day.
        private var anchor = TrackPoint(time: .nan, latitude: 0, longitude: 0)
        // Whether the last point seen is the anchor (compared by position in the track: a point
        // with an unknown figure, NaN, is never == itself).
        private var atAnchor = true
        private var reference = Double.nan
        private var profile: [(Double, Double)] = []
        private var splitStart = 0.0
        private var nextSplit = 0.0

        /// `splitLength`: metres a split (1000 when not above 0). `keepsProfile`: false for a
        /// summary, which holds no profile (then `statistics.profile` is empty).
        public init(splitLength: Double = 1000, keepsProfile: Bool = true) {
            s.splitLength = splitLength > 0 ? splitLength : 1000
            self.keepsProfile = keepsProfile
        }

        /// The points taken so far.
        public var points: Int { s.points }

        /// The track's next point, with its elevation (`TrackElevation.Stream`, or the whole
        /// recording's when the points are a trimmed part of it).
        public mutating func add(_ point: TrackPoint, altitude: Double) {
            s.points += 1
            guard let previous else {
                self.previous = point
                anchor = point
                reference = altitude
                if reference.isFinite && keepsProfile { profile.append((0, reference)) }
                splitStart = point.time
                nextSplit = s.splitLength
                return
            }
            defer { self.previous = point }
            if point.startsSegment {
                // Across a pause: the time passes, but nothing was walked that counts.
                if !atAnchor {
                    s.distance += Geodesy.distance(
                        latitude1: anchor.latitude, longitude1: anchor.longitude,
                        latitude2: previous.latitude, longitude2: previous.longitude)
                }
                if point.time > previous.time { s.totalTime += point.time - previous.time }
                anchor = point
                atAnchor = true
                // The split's clock stops over the pause.
                if point.time > previous.time { splitStart += point.time - previous.time }
                if altitude.isFinite && keepsProfile { profile.append((s.distance, altitude)) }
                return
            }
            let leg = Geodesy.distance(
                latitude1: previous.latitude, longitude1: previous.longitude,
                latitude2: point.latitude, longitude2: point.longitude)
            let interval = point.time - previous.time
            let fromAnchor = Geodesy.distance(
                latitude1: anchor.latitude, longitude1: anchor.longitude,
                latitude2: point.latitude, longitude2: point.longitude)
            if fromAnchor >= minimumLeg {
                s.distance += fromAnchor
                anchor = point
            }
            atAnchor = fromAnchor >= minimumLeg
            // How far along the track this point is (the last point's is the whole distance).
            let along = atAnchor ? s.distance : s.distance + fromAnchor
            if interval > 0 {
                s.totalTime += interval
                let speed = point.speed.isFinite ? point.speed : leg / interval
                if speed >= movingSpeed { s.movingTime += interval }
                s.maximumSpeed = max(s.maximumSpeed, speed)
            }
            while along >= nextSplit {
                s.splits.append(point.time - splitStart)
                splitStart = point.time
                nextSplit += s.splitLength
            }
            if altitude.isFinite && keepsProfile { profile.append((along, altitude)) }
            if altitude.isFinite {
                if !reference.isFinite { reference = altitude }
                if altitude - reference >= elevationHysteresis {
                    s.elevationGain += altitude - reference
                    reference = altitude
                } else if reference - altitude >= elevationHysteresis {
                    s.elevationLoss += reference - altitude
                    reference = altitude
                }
            }
        }

        /// The statistics of the points taken so far (more may follow).
        public var statistics: TrackStatistics {
            var result = s
            if let last = previous, !atAnchor {
                result.distance += Geodesy.distance(
                    latitude1: anchor.latitude, longitude1: anchor.longitude,
                    latitude2: last.latitude, longitude2: last.longitude)
            }
            if let last = previous {
                let done = Double(result.splits.count) * result.splitLength
                result.splitUnderWay = (max(0, result.distance - done), max(0, last.time - splitStart))
            }
            // Every n-th pair, and always the last, so a day's track draws in 200 points.
            let step = max(1, (profile.count + profileLength - 1) / profileLength)
            result.profile = profile.enumerated().filter { $0.offset % step == 0 || $0.offset == profile.count - 1 }.map(\.element)
            return result
        }
    }
}
