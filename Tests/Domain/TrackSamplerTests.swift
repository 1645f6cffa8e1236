import Glibc
import LodestoneDomain
import Testing

/// Track points where they tell the path: fixed intervals as asked, or adaptive (dense on
/// turns and at speed, sparse on a steady course).
@Suite struct TrackSamplerTests {
    /// Feeds one fix a second along a path; returns the seconds at which points were taken.
    static func run(_ mode: TrackSampler.Mode, seconds: Int, speed: Double, course: (Int) -> Double) -> [Int] {
        var sampler = TrackSampler(mode)
        var north = 0.0, east = 0.0
        var taken: [Int] = []
        for second in 0..<seconds {
            let heading = course(second) * .pi / 180
            north += speed * cos(heading)
            east += speed * sin(heading)
            if sampler.take(
                time: Double(second), latitude: 47 + north / 111_200, longitude: 8 + east / 75_800, speed: speed,
                course: course(second))
            {
                taken.append(second)
            }
        }
        return taken
    }

    @Test func aFixedIntervalIsKept() {
        let taken = Self.run(.every(5), seconds: 60, speed: 1.4) { _ in 90 }
        #expect(taken == Array(stride(from: 0, to: 60, by: 5)))
    }

    @Test func adaptiveIsSparseOnAStraightWalkAndDenseAtSpeed() {
        // 1.4 m/s straight: 50 m takes 36 s, so the 30 s ceiling sets the pace.
        let walk = Self.run(.adaptive, seconds: 300, speed: 1.4) { _ in 45 }
        #expect(walk.count == 10)
        // 12 m/s (a bicycle downhill): a point every 50 m, about every 4-5 s.
        let ride = Self.run(.adaptive, seconds: 300, speed: 12) { _ in 45 }
        #expect(ride.count >= 60 && ride.count <= 80, "\(ride.count) points")
    }

    @Test func adaptiveTakesAPointOnEveryTurn() {
        // Straight north, then a 90 degree turn at 100 s, then east.
        let taken = Self.run(.adaptive, seconds: 160, speed: 1.4) { $0 < 100 ? 0 : 90 }
        #expect(taken.contains(100), "\(taken)")
        // A slow curve of 2 degrees a second: a point every 15 degrees, so every 7-8 s.
        let curve = Self.run(.adaptive, seconds: 120, speed: 1.4) { Double($0) * 2 }
        #expect(curve.count >= 14, "\(curve.count) points")
        // Never closer than a second, whatever the course does.
        let zigzag = Self.run(.adaptive, seconds: 60, speed: 3) { $0 % 2 == 0 ? 0 : 90 }
        #expect(zigzag == Array(0..<60))
    }

    @Test func intervalsOutsideTheRangeAreRefused() {
        #expect(TrackSampler.Mode("0.5") == nil && TrackSampler.Mode("31") == nil && TrackSampler.Mode("often") == nil)
        #expect(TrackSampler.Mode("1") == .every(1) && TrackSampler.Mode("30") == .every(30) && TrackSampler.Mode("adaptive") == .adaptive)
    }

    @Test func privacyTrimCutsPointsNearHomeAndDropsTimes() {
        let home = PrivacyTrim.Place(latitude: 47, longitude: 8, radius: 500)
        // A walk leaving home northwards, 100 m a point.
        let points = (0..<20).map { TrackPoint(time: 1_780_000_000 + Double($0) * 60, latitude: 47 + Double($0) * 100 / 111_200, longitude: 8) }
        let shared = PrivacyTrim(places: [home]).apply(points)
        #expect(shared.count == 14, "points from 600 m on are kept")
        #expect(shared.allSatisfy { !$0.time.isFinite })
        let timed = PrivacyTrim(places: [home], dropTimes: false).apply(points)
        #expect(timed.first?.time == points[6].time)
        #expect(PrivacyTrim.Place("47.1,8.2")?.radius == PrivacyTrim.defaultRadius)
        #expect(PrivacyTrim.Place("47.1, 8.2, 300")?.radius == 300)
        #expect(PrivacyTrim.Place("91,8") == nil && PrivacyTrim.Place("47") == nil && PrivacyTrim.Place("47,8,-1") == nil)
    }
}
