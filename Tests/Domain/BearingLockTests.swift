import LodestoneCore
import LodestoneDomain
import LodestoneSim
import Testing

@Suite struct BearingLockTests {
    @Test func deviationIsSignedAndWrapsAcrossNorth() {
        var lock = BearingLock()
        lock.lock(bearing: 355)
        _ = lock.update(heading: 5)
        #expect(abs((lock.deviation ?? .nan) - 10) < 1e-9)
        _ = lock.update(heading: 345)
        #expect(abs((lock.deviation ?? .nan) + 10) < 1e-9)
        _ = lock.update(heading: 354)
        #expect(abs((lock.deviation ?? .nan) + 1) < 1e-9)
        _ = lock.update(heading: 175)
        #expect(abs((lock.deviation ?? .nan) + 180) < 1e-9)  // opposite: -180..<180

        lock.lock(bearing: 2)
        _ = lock.update(heading: 358)
        #expect(abs((lock.deviation ?? .nan) + 4) < 1e-9)
        lock.lock(bearing: -90)  // wrapped to 270
        #expect(lock.bearing == 270)
    }

    @Test func deviationMatchesTheTurnForAnyBearing() {
        var random = SeededRandom(seed: 42)
        var lock = BearingLock()
        for _ in 0..<2000 {
            let bearing = 360 * random.uniform()
            let turn = 358 * random.uniform() - 179
            lock.lock(bearing: bearing)
            _ = lock.update(heading: Angle.heading(bearing + turn))
            #expect(abs((lock.deviation ?? .nan) - turn) < 1e-9, "bearing \(bearing), turn \(turn)")
        }
    }

    @Test func offCourseHasHysteresis() {
        var lock = BearingLock()
        _ = lock.update(heading: 358)
        let locked = lock.lockCurrentHeading()
        #expect(locked)
        #expect(lock.bearing == 358)
        var events: [BearingLock.Event] = []
        // Drift right across north (locked on 358, so 8 is 10 right), waver at the limit (no
        // chatter between 8 and 10 off), come back inside 8, then go off to the left.
        for heading in [0.0, 5, 7.9, 8.1, 7.9, 8.1, 10, 12, 8.5, 5.9, 6.1, 7.9, 0, 350, 347.9, 349, 351, 358] {
            if let event = lock.update(heading: heading) { events.append(event) }
        }
        #expect(events.count == 4)
        guard events.count == 4 else { return }
        guard case .offCourse(let right) = events[0] else { Issue.record("first event \(events[0])"); return }
        #expect(abs(right - 10.1) < 1e-9)  // 8.1 is 10.1 degrees right of 358: the first beyond 10
        #expect(events[1] == .backOnCourse)
        guard case .offCourse(let left) = events[2] else { Issue.record("third event \(events[2])"); return }
        #expect(left < -10)
        #expect(events[3] == .backOnCourse)
    }

    @Test func unlockedItReportsNothing() {
        var lock = BearingLock()
        let locked = lock.lockCurrentHeading()
        #expect(!locked)  // no heading yet
        for heading in stride(from: 0.0, to: 720, by: 7) { #expect(lock.update(heading: heading) == nil) }
        #expect(lock.deviation == nil && lock.bearing == nil)
        lock.lock(bearing: 0)
        _ = lock.update(heading: 90)
        #expect(lock.isOffCourse)
        lock.unlock()
        #expect(lock.deviation == nil && !lock.isOffCourse)
        #expect(lock.update(heading: 180) == nil)
        #expect(lock.update(heading: .nan) == nil)
        lock.lock(bearing: .nan)
        #expect(lock.bearing == nil)
    }
}
