import Glibc
import LodestoneCore
import Synchronization
import Testing

/// The trip's own clock with a follower: time waits at each instant a follower waits for
/// until it has acted, however slowly the host lets it run.
@Suite struct SimulationClockTests {
    /// A driver racing ahead (a speed no machine keeps up with) and a follower that acts every
    /// 0.1 s of world time but takes 2 ms of real time each time: the follower always wakes at
    /// its own instant, never after time has run on.
    @Test func timeWaitsForAFollower() {
        let clock = SimulationClock(speed: 1e9)
        let pacer = clock.pacer
        let follower = clock.follower()
        #expect(follower != nil)
        let lateness = Mutex<[UInt64]>([])
        let thread = LoopThread()
        let start = clock.now()
        thread.start(name: "follower") {
            guard let follower else { return }
            defer { follower.leave() }
            var next = start
            for _ in 0..<20 {
                next += 100_000_000
                follower.sleep(until: next)
                let woke = follower.now()
                lateness.withLock { $0.append(woke &- next) }
                var pause = timespec(tv_sec: 0, tv_nsec: 2_000_000)
                nanosleep(&pause, nil)
            }
        }
        // The driver moves in 5 ms steps to 2.5 s of world time.
        var deadline = start
        while deadline < start + 2_500_000_000 {
            deadline += 5_000_000
            pacer.sleep(until: deadline)
        }
        thread.join()
        let seen = lateness.withLock { $0 }
        #expect(seen.count == 20)
        #expect(seen.allSatisfy { $0 == 0 }, "world time passed the follower's instants by \(seen) ns")
    }

    /// A follower that waits on something other than the clock (a socket) holds time where it
    /// says: the driver, racing ahead, stops at that instant however long the follower takes
    /// to look again, moves on only as far as the next hold, and runs free once it has left.
    @Test func aHoldStopsTimeUntilMovedOn() throws {
        let clock = SimulationClock(speed: 1e9)
        let pacer = clock.pacer
        let holder = try #require(clock.follower())
        let start = clock.now()
        holder.hold(at: start + 100_000_000)
        let driver = LoopThread()
        driver.start(name: "driver") { pacer.sleep(until: start + 10_000_000_000) }
        /// Time once it has stopped moving (or after a second of waiting for it to get to `instant`).
        func settled(at instant: MonotonicNanoseconds) -> MonotonicNanoseconds {
            for _ in 0..<1000 where clock.now() < instant { usleep(1000) }
            usleep(50_000)
            return clock.now()
        }
        #expect(settled(at: start + 100_000_000) == start + 100_000_000, "time passed the hold")
        holder.hold(at: start + 200_000_000)
        #expect(settled(at: start + 200_000_000) == start + 200_000_000, "time passed the moved hold")
        holder.leave()
        driver.join()
        #expect(clock.now() == start + 10_000_000_000)
    }

    /// A follower that has left no longer holds time, and a clock without followers is not held.
    @Test func aFollowerThatLeftHoldsNothing() {
        let clock = SimulationClock(speed: 1e9)
        let pacer = clock.pacer
        let follower = clock.follower()
        follower?.leave()
        let before = clock.now()
        pacer.sleep(until: before + 10_000_000_000)
        #expect(clock.now() == before + 10_000_000_000)
    }

    /// Four followers at most; a fifth reads time as any other thread does.
    @Test func followerSlotsAreFew() {
        let clock = SimulationClock(speed: 2)
        let taken = (0..<5).map { _ in clock.follower() }
        #expect(taken.prefix(4).allSatisfy { $0 != nil })
        #expect(taken.last.flatMap { $0 } == nil)
    }
}
