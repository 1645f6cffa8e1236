import LodestoneCore
import LodestoneDomain
import Testing

/// "Take me back" along a recorded path: the target just back along it, the distance left to
/// the start, off track with hysteresis, and the right leg where the path crosses itself.
@Suite struct BacktrackTests {
    /// 1 km due north from (46.5, 7.9), a point every 10 m.
    static let north: [(latitude: Double, longitude: Double)] = (0...100).map { (46.5 + Double($0) * 10 / 111_132.0, 7.9) }
    /// Metres east as degrees of longitude at 46.5°.
    static func east(_ metres: Double) -> Double { metres / (111_320 * 0.6884) }

    @Test func fromTheEndTheWayLeadsBackToTheStart() throws {
        var back = try #require(Backtrack(path: Self.north))
        #expect(abs(back.length - 1000) < 2, "\(back.length)")
        let end = try #require(Self.north.last)
        let first = back.update(latitude: end.latitude, longitude: end.longitude)
        #expect(abs(first.bearing - 180) < 1 && first.distance > 15 && first.distance < 35, "\(first)")
        #expect(abs(first.remaining - 1000) < 3 && !first.offTrack)
        // Halfway back, 10 m east of the path: south again, 500 m to go, on track.
        let half = back.update(latitude: 46.5 + 500 / 111_132.0, longitude: 7.9 + Self.east(10))
        #expect(abs(half.remaining - 500) < 10 && abs(half.crossTrack - 10) < 1 && !half.offTrack, "\(half)")
        #expect(half.bearing > 180 && half.bearing < 220, "south, a little west back to the path: \(half.bearing)")
        // At the start: nothing left.
        let home = back.update(latitude: 46.5, longitude: 7.9)
        #expect(home.remaining < 1)
    }

    /// 60 m off: off track; back to 40 m: still off (hysteresis); 20 m: on again.
    @Test func offTrackWithHysteresis() throws {
        var back = try #require(Backtrack(path: Self.north))
        let latitude = 46.5 + 700 / 111_132.0
        _ = back.update(latitude: latitude, longitude: 7.9)
        let off = back.update(latitude: latitude, longitude: 7.9 + Self.east(60))
        #expect(off.offTrack && abs(off.crossTrack - 60) < 2, "\(off)")
        #expect(back.update(latitude: latitude, longitude: 7.9 + Self.east(40)).offTrack)
        #expect(!back.update(latitude: latitude, longitude: 7.9 + Self.east(20)).offTrack)
    }

    /// A path that goes north 600 m, east 300 m, south 300 m and west 600 m crosses its first leg
    /// 300 m from the start, halfway along its last leg. Coming back along the last leg, at the
    /// crossing the way leads on east along it (the way it came), not down the first leg.
    @Test func aCrossingDoesNotShortCutTheWay() throws {
        let metre = 1 / 111_132.0
        var path: [(latitude: Double, longitude: Double)] = []
        for i in 0...60 { path.append((46.5 + Double(i) * 10 * metre, 7.9)) }
        for i in 1...30 { path.append((46.5 + 600 * metre, 7.9 + Self.east(Double(i) * 10))) }
        for i in 1...30 { path.append((46.5 + (600 - Double(i) * 10) * metre, 7.9 + Self.east(300))) }
        for i in 1...60 { path.append((46.5 + 300 * metre, 7.9 + Self.east(300 - Double(i) * 10))) }
        #expect(abs((path.last?.longitude ?? 0) - (7.9 + Self.east(-300))) < 1e-9, "the last leg ends 300 m west of the first")
        var back = try #require(Backtrack(path: path))
        // Walk back from the end (300 m west of the crossing), east along the last leg, to the crossing.
        for step in 0...30 {
            _ = back.update(latitude: 46.5 + 300 * metre, longitude: 7.9 + Self.east(-300 + Double(step) * 10))
        }
        let atCrossing = back.update(latitude: 46.5 + 300 * metre, longitude: 7.9 + Self.east(2))
        #expect(atCrossing.bearing > 45 && atCrossing.bearing < 135, "on east along the last leg: \(atCrossing.bearing)")
        #expect(atCrossing.remaining > 1400, "the whole way round still ahead: \(atCrossing.remaining)")
    }

    @Test func tooShortAPathLeadsNowhere() {
        #expect(Backtrack(path: []) == nil && Backtrack(path: [(46.5, 7.9), (46.5, 7.9)]) == nil)
    }
}
