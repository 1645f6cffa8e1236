import LodestoneDomain
import Testing

/// The figures a recording shows while it goes on: moving time leaves the stops out, climb
/// and descent ignore the altimeter's noise, and the split under way is what is left after
/// the completed ones, with its clock stopped over a pause.
@Suite struct RecordingFiguresTests {
    static let start = 1_782_028_800.0

    /// A point `t` s in, `north` metres from 47° N, at `altitude` and `speed`.
    static func point(_ t: Double, north: Double, altitude: Double = 500, speed: Double = 1.5) -> TrackPoint {
        TrackPoint(time: start + t, latitude: 47 + north / 111_195, longitude: 8, baroAltitude: altitude, speed: speed)
    }

    @Test func movingTimeLeavesTheStopsOut() {
        // 600 s walking at 1.5 m/s, 300 s standing, 600 s walking.
        var points: [TrackPoint] = []
        for t in stride(from: 0.0, through: 600, by: 5) { points.append(Self.point(t, north: t * 1.5)) }
        for t in stride(from: 605.0, through: 900, by: 5) { points.append(Self.point(t, north: 900, speed: 0.05)) }
        for t in stride(from: 905.0, through: 1500, by: 5) { points.append(Self.point(t, north: 900 + (t - 900) * 1.5)) }
        let s = TrackStatistics.of(points)
        #expect(s.totalTime == 1500)
        #expect(abs(s.movingTime - 1200) <= 5, "\(s.movingTime)")
        #expect(abs(s.distance - 1800) < 20, "\(s.distance)")
    }

    @Test func climbCountsTheHillNotTheNoise() {
        // ±1.2 m of noise on a flat kilometre, then 50 m up and 20 m down.
        var points: [TrackPoint] = []
        for i in 0...200 {
            let noise = i % 2 == 0 ? 1.2 : -1.2
            points.append(Self.point(Double(i) * 5, north: Double(i) * 5, altitude: 500 + noise))
        }
        for i in 1...50 { points.append(Self.point(1000 + Double(i) * 5, north: 1000 + Double(i) * 5, altitude: 500 + Double(i))) }
        for i in 1...20 { points.append(Self.point(1250 + Double(i) * 5, north: 1250 + Double(i) * 5, altitude: 550 - Double(i))) }
        let s = TrackStatistics.of(points)
        #expect(TrackStatistics.elevationHysteresis == 3)
        #expect(abs(s.elevationGain - 50) <= TrackStatistics.elevationHysteresis, "gain \(s.elevationGain)")
        #expect(abs(s.elevationLoss - 20) <= TrackStatistics.elevationHysteresis, "loss \(s.elevationLoss)")
        let flat = TrackStatistics.of(Array(points.prefix(201)))
        #expect(flat.elevationGain == 0 && flat.elevationLoss == 0, "noise read as height: \(flat.elevationGain) \(flat.elevationLoss)")
    }

    @Test func theSplitUnderWayIsWhatFollowsTheLastCompletedOne() {
        // 2.5 km at 2 m/s, a point every 10 s (20 m).
        let points = stride(from: 0.0, through: 1250, by: 10).map { Self.point($0, north: $0 * 2, speed: 2) }
        let s = TrackStatistics.of(points)
        #expect(s.splits.count == 2)
        #expect(s.splits.allSatisfy { abs($0 - 500) <= 10 }, "\(s.splits)")
        #expect(abs(s.splitUnderWay.distance - 500) < 10, "\(s.splitUnderWay)")
        #expect(abs(s.splitUnderWay.time - 250) <= 10, "\(s.splitUnderWay)")
        // A mile split, as a person who reads miles asks.
        let miles = TrackStatistics.of(points, splitLength: 1609.344)
        #expect(miles.splits.count == 1 && abs(miles.splitUnderWay.distance - (2500 - 1609.344)) < 10)
    }

    @Test func theSplitsClockStopsOverAPause() {
        var points = stride(from: 0.0, through: 300, by: 10).map { Self.point($0, north: $0 * 2, speed: 2) }
        // A ten-minute pause, then 100 m more.
        var resumed = Self.point(900, north: 600, speed: 2)
        resumed.startsSegment = true
        points.append(resumed)
        points += stride(from: 910.0, through: 950, by: 10).map { Self.point($0, north: 600 + ($0 - 900) * 2, speed: 2) }
        let s = TrackStatistics.of(points)
        #expect(s.splits.isEmpty)
        #expect(abs(s.splitUnderWay.distance - 700) < 10, "\(s.splitUnderWay)")
        #expect(abs(s.splitUnderWay.time - 350) <= 10, "the pause counts in no split: \(s.splitUnderWay)")
    }

    @Test func nothingRecordedIsNoSplit() {
        let s = TrackStatistics.of([])
        #expect(s.splitUnderWay.distance == 0 && s.splitUnderWay.time == 0 && s.splits.isEmpty)
        let one = TrackStatistics.of([Self.point(0, north: 0)])
        #expect(one.splitUnderWay.distance == 0 && one.splitUnderWay.time == 0)
    }
}
