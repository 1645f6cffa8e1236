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
    /// Seconds for each completed kilometre.
    public var splits: [Double] = []
    public var points = 0
    /// Distance along the track (m) and fused altitude (m), at most `profileLength` pairs.
    public var profile: [(distance: Double, altitude: Double)] = []

    public static func == (a: TrackStatistics, b: TrackStatistics) -> Bool {
        a.distance == b.distance && a.totalTime == b.totalTime && a.movingTime == b.movingTime && a.maximumSpeed == b.maximumSpeed
            && a.elevationGain == b.elevationGain && a.elevationLoss == b.elevationLoss && a.splits == b.splits && a.points == b.points
            && a.profile.elementsEqual(b.profile) { $0.distance == $1.distance && $0.altitude == $1.altitude }
    }

    public static let profileLength = 200

    public static let movingSpeed = 0.3
    public static let elevationHysteresis = 3.0

    public init() {}

    public var averageSpeed: Double { totalTime > 0 ? distance / totalTime : 0 }
    public var averageMovingSpeed: Double { movingTime > 0 ? distance / movingTime : 0 }
    /// Seconds per kilometre while moving.
    public var averagePace: Double { distance > 0 ? movingTime / (distance / 1000) : 0 }

    public static func of(_ track: [TrackPoint]) -> TrackStatistics {
        var s = TrackStatistics()
        s.points = track.count
        guard let first = track.first else { return s }
        var previous = first
        var fusion = AltitudeFusion()
        var reference = fusion.update(barometric: first.baroAltitude, gps: first.gpsAltitude, interval: 0)
        var profile: [(Double, Double)] = reference.isFinite ? [(0, reference)] : []
        var splitStart = first.time
        var nextSplit = 1000.0
        for point in track.dropFirst() {
            let leg = Geodesy.distance(latitude1: previous.latitude, longitude1: previous.longitude,
                                       latitude2: point.latitude, longitude2: point.longitude)
            let interval = point.time - previous.time
            s.distance += leg
            if interval > 0 {
                s.totalTime += interval
                let speed = point.speed.isFinite ? point.speed : leg / interval
                if speed >= movingSpeed { s.movingTime += interval }
                s.maximumSpeed = max(s.maximumSpeed, speed)
            }
            while s.distance >= nextSplit {
                s.splits.append(point.time - splitStart)
                splitStart = point.time
                nextSplit += 1000
            }
            let altitude = fusion.update(barometric: point.baroAltitude, gps: point.gpsAltitude, interval: interval)
            if altitude.isFinite { profile.append((s.distance, altitude)) }
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
            previous = point
        }
        // Every n-th pair, and always the last, so a day's track draws in 200 points.
        let step = max(1, (profile.count + profileLength - 1) / profileLength)
        s.profile = profile.enumerated().filter { $0.offset % step == 0 || $0.offset == profile.count - 1 }.map(\.element)
        return s
    }
}
