import LodestoneCore
import LodestoneDomain
import Testing

/// The statistics taken a point at a time (what a track import works out as it writes each
/// point, holding none) give exactly the figures of the whole-list computation as it was
/// before the accumulator existed (kept below as the reference), on tracks with pauses, time
/// gaps, standing still, elevation noise from both altitudes, unknown figures and splits.
@Suite struct TrackStatisticsAccumulatorTests {
    /// A reproducible track: `count` points a second apart, walking at `speed` m/s with
    /// positional jitter, a pause (a new segment) and a gap every so often, barometric and GPS
    /// altitudes with noise, some figures unknown.
    static func track(count: Int, seed start: UInt64, speed: Double, pauses: Bool, gaps: Bool, altitudes: Bool) -> [TrackPoint] {
        var seed = start
        func random() -> Double {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(seed >> 11) / Double(1 << 53) - 0.5
        }
        var time = 1_782_028_800.0, along = 0.0
        var points: [TrackPoint] = []
        for index in 0..<count {
            var segment = false
            if gaps && index % 97 == 50 { time += 600 }
            if pauses && index % 131 == 70 {
                time += 1200
                segment = true
            }
            // Standing still a while: only the receiver's jitter moves.
            let moving = index % 300 < 240
            if moving { along += speed * (1 + 0.3 * random()) }
            var point = TrackPoint(
                time: time, latitude: 47 + along / 111_200 + random() * 2e-5, longitude: 8 + random() * 2e-5,
                gpsAltitude: altitudes ? 500 + 0.05 * along + 6 * random() : .nan,
                baroAltitude: altitudes && index % 7 != 3 ? 480 + 0.05 * along + 0.4 * random() : .nan,
                speed: index % 5 == 0 ? .nan : (moving ? speed : 0.05))
            point.startsSegment = segment
            points.append(point)
            // Now and then the same second twice (a receiver repeating itself).
            if index % 53 != 0 { time += 1 }
        }
        return points
    }

    static var tracks: [[TrackPoint]] {
        [
            [],
            [TrackPoint(time: 1_782_028_800, latitude: 47, longitude: 8, gpsAltitude: 400)],
            track(count: 3000, seed: 1, speed: 1.4, pauses: false, gaps: false, altitudes: true),
            track(count: 3000, seed: 2, speed: 1.4, pauses: true, gaps: true, altitudes: true),
            track(count: 2000, seed: 3, speed: 8, pauses: true, gaps: false, altitudes: false),
            track(count: 1500, seed: 4, speed: 0.2, pauses: false, gaps: true, altitudes: true),
            track(count: 5000, seed: 5, speed: 3, pauses: true, gaps: true, altitudes: true)
        ]
    }

    @Test func theAccumulatorGivesWhatTheWholeListGave() {
        for (number, points) in Self.tracks.enumerated() {
            let reference = Self.reference(points)
            #expect(TrackStatistics.of(points) == reference, "track \(number)")
            #expect(TrackElevation.of(points).elementsEqual(Self.referenceElevations(points)) { $0 == $1 || ($0.isNaN && $1.isNaN) })
            // As an import works them out: the elevations a point at a time, no profile kept.
            var elevation = TrackElevation.Stream()
            var accumulator = TrackStatistics.Accumulator(keepsProfile: false)
            for point in points { accumulator.add(point, altitude: elevation.next(point)) }
            var withoutProfile = reference
            withoutProfile.profile = []
            #expect(accumulator.statistics == withoutProfile, "track \(number)")
            #expect(accumulator.points == points.count)
            // Other split lengths, and elevations given (a trimmed export's).
            let given = Self.referenceElevations(points).map { $0 + 1 }
            #expect(TrackStatistics.of(points, elevations: given, splitLength: 250) == Self.reference(points, elevations: given, splitLength: 250))
            #expect(TrackStatistics.of(points, splitLength: 0) == Self.reference(points, splitLength: 0))
        }
    }

    @Test func theFiguresSoFarGrowWithTheTrack() {
        let points = Self.track(count: 800, seed: 9, speed: 1.4, pauses: true, gaps: true, altitudes: true)
        var elevation = TrackElevation.Stream()
        var accumulator = TrackStatistics.Accumulator()
        for (index, point) in points.enumerated() {
            accumulator.add(point, altitude: elevation.next(point))
            if index % 199 == 0 {
                #expect(accumulator.statistics == Self.reference(Array(points[...index])), "after \(index + 1) points")
            }
        }
    }

    /// The elevations as `TrackElevation.of` worked them out over the whole list.
    static func referenceElevations(_ points: [TrackPoint]) -> [Double] {
        var fusion = AltitudeFusion()
        var previous = Double.nan
        return points.map { point in
            let interval = previous.isFinite && point.time.isFinite ? max(0, point.time - previous) : 0
            if point.time.isFinite { previous = point.time }
            return fusion.update(barometric: point.baroAltitude, gps: point.gpsAltitude, interval: interval)
        }
    }

    /// `TrackStatistics.of` as it was over the whole list, before the accumulator.
    static func reference(_ track: [TrackPoint], elevations given: [Double]? = nil, splitLength: Double = 1000) -> TrackStatistics {
        typealias T = TrackStatistics
        var s = TrackStatistics()
        s.splitLength = splitLength > 0 ? splitLength : 1000
        s.points = track.count
        guard let first = track.first else { return s }
        let elevations = given.flatMap { $0.count == track.count ? $0 : nil } ?? referenceElevations(track)
        var previous = first
        var anchor = first
        var atAnchor = true
        var reference = elevations.first ?? .nan
        var profile: [(Double, Double)] = reference.isFinite ? [(0, reference)] : []
        var splitStart = first.time
        var nextSplit = s.splitLength
        for (point, altitude) in zip(track.dropFirst(), elevations.dropFirst()) {
            if point.startsSegment {
                if !atAnchor {
                    s.distance += Geodesy.distance(
                        latitude1: anchor.latitude, longitude1: anchor.longitude, latitude2: previous.latitude, longitude2: previous.longitude)
                }
                if point.time > previous.time { s.totalTime += point.time - previous.time }
                anchor = point
                atAnchor = true
                if point.time > previous.time { splitStart += point.time - previous.time }
                previous = point
                if altitude.isFinite { profile.append((s.distance, altitude)) }
                continue
            }
            let leg = Geodesy.distance(
                latitude1: previous.latitude, longitude1: previous.longitude, latitude2: point.latitude, longitude2: point.longitude)
            let interval = point.time - previous.time
            let fromAnchor = Geodesy.distance(
                latitude1: anchor.latitude, longitude1: anchor.longitude, latitude2: point.latitude, longitude2: point.longitude)
            if fromAnchor >= T.minimumLeg {
                s.distance += fromAnchor
                anchor = point
            }
            atAnchor = fromAnchor >= T.minimumLeg
            let along = atAnchor ? s.distance : s.distance + fromAnchor
            if interval > 0 {
                s.totalTime += interval
                let speed = point.speed.isFinite ? point.speed : leg / interval
                if speed >= T.movingSpeed { s.movingTime += interval }
                s.maximumSpeed = max(s.maximumSpeed, speed)
            }
            while along >= nextSplit {
                s.splits.append(point.time - splitStart)
                splitStart = point.time
                nextSplit += s.splitLength
            }
            if altitude.isFinite { profile.append((along, altitude)) }
            if altitude.isFinite {
                if !reference.isFinite { reference = altitude }
                if altitude - reference >= T.elevationHysteresis {
                    s.elevationGain += altitude - reference
                    reference = altitude
                } else if reference - altitude >= T.elevationHysteresis {
                    s.elevationLoss += reference - altitude
                    reference = altitude
                }
            }
            previous = point
        }
        if let last = track.last, !atAnchor {
            s.distance += Geodesy.distance(
                latitude1: anchor.latitude, longitude1: anchor.longitude, latitude2: last.latitude, longitude2: last.longitude)
        }
        // The split under way: what follows the completed ones, by distance and by the split's clock.
        if let last = track.last {
            s.splitUnderWay = (max(0, s.distance - Double(s.splits.count) * s.splitLength), max(0, last.time - splitStart))
        }
        let step = max(1, (profile.count + T.profileLength - 1) / T.profileLength)
        s.profile = profile.enumerated().filter { $0.offset % step == 0 || $0.offset == profile.count - 1 }.map(\.element)
        return s
    }
}
