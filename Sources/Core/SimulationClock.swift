import Glibc
import Synchronization

/// The device's time when a simulated trip runs faster than real time.
///
/// Time moves only when the sampling loop sleeps to its next deadline, and then jumps there;
/// the sleep itself lasts the deadline's distance divided by `speed` in real time. So the
/// sampling loop sees exactly the intervals it would see on a real board, however fast the
/// trip runs and however slow the machine is: a machine that cannot keep up runs the trip
/// more slowly, never with longer gaps between samples. Nothing the device computes can
/// tell the speed.
///
/// One thread drives time through `pacer` (the scheduler's clock); every other thread reads
/// `now()` and waits in `sleep(until:)` for the driver to get there. `halt()` releases the
/// waiters once the driver has stopped.
///
/// A thread that plays part of the world on a schedule of its own (the simulated receiver,
/// sending a fix every interval) takes a `follower()` clock: time does not pass the instant
/// a follower waits for until the follower has acted on it. Without that, a follower the host
/// kept off the CPU for 25 ms would, at 120x, leave the device three seconds without a fix
/// that the world meant to send: an outage of the machine, not of the trip.
///
/// A thread that acts on the trip's time but waits on something else (the output thread on
/// its sockets, the referee's client on its connection) takes a follower clock too and says
/// with `hold(at:)` how far time may run before it looks again: a stall of that thread then
/// pauses the trip instead of skipping a stretch of it.
public final class SimulationClock: MonotonicClock, @unchecked Sendable {
    public var speed: Double { timeline.speed }
    /// The same time, for the thread that drives it: sleeping moves time forward.
    public var pacer: SimulationClock { SimulationClock(timeline, drives: true) }
    private let timeline: Timeline
    private let drives: Bool
    /// The follower slot this clock waits in, if it is a follower's.
    private let slot: Int?

    /// - Parameter speed: simulated seconds per real second (above 0).
    public convenience init(speed: Double, start: MonotonicNanoseconds = 1_000_000_000) {
        self.init(Timeline(speed: speed.isFinite && speed > 0 ? speed : 1, start: start), drives: false)
    }

    private init(_ timeline: Timeline, drives: Bool, slot: Int? = nil) {
        self.timeline = timeline
        self.drives = drives
        self.slot = slot
    }

    /// The same time for a follower: its `sleep(until:)` holds time at the deadline until it
    /// sleeps again (or `leave()`s). Nil when every follower slot is taken: the caller then
    /// reads time as any other thread does.
    public func follower() -> SimulationClock? {
        timeline.claimSlot().map { SimulationClock(timeline, drives: false, slot: $0) }
    }

    /// Time may reach `instant` but not pass it until this follower holds again, sleeps, or
    /// leaves. For a follower that waits on something other than this clock (a socket) and
    /// so never sleeps on it. Does nothing on a clock that is not a follower's.
    public func hold(at instant: MonotonicNanoseconds) {
        if let slot { timeline.setGate(slot, instant) }
    }

    /// The follower is done: time no longer waits for it.
    public func leave() {
        if let slot { timeline.setGate(slot, .max) }
    }

    public func now() -> MonotonicNanoseconds { timeline.current.load(ordering: .acquiring) }

    public func sleep(until deadline: MonotonicNanoseconds) {
        if drives {
            timeline.advance(to: deadline)
        } else {
            if let slot { timeline.setGate(slot, deadline) }
            timeline.wait(until: deadline)
        }
    }

    /// Lets every waiter go: the driver has stopped and time will not move again.
    public func halt() { timeline.halted.store(true, ordering: .relaxed) }

    private final class Timeline: @unchecked Sendable {
        let speed: Double
        let current: Atomic<UInt64>
        let halted = Atomic<Bool>(false)
        let start: MonotonicNanoseconds
        let realStart: MonotonicNanoseconds
        let real = SystemMonotonicClock()
        /// Per follower slot: the instant it waits for (time may reach it, not pass it, until
        /// the follower sleeps again); .max for a free slot or a follower that left. Made once:
        /// the driver reads it without allocating.
        static let slots = 4
        private let gates = Mutex<[UInt64]>(Array(repeating: .max, count: Timeline.slots))
        private let claimed = Atomic<Int>(0)
        /// A follower that has not acted within this much real time is no longer waited for
        /// (it has stopped without leaving): the trip goes on rather than hanging.
        static let patience: UInt64 = 2_000_000_000

        init(speed: Double, start: MonotonicNanoseconds) {
            self.speed = speed
            self.start = start
            current = Atomic(start)
            realStart = real.now()
        }

        /// A new follower holds time where it is until it first waits (its thread may not
        /// have started yet).
        func claimSlot() -> Int? {
            let slot = claimed.add(1, ordering: .relaxed).oldValue
            guard slot < Self.slots else { return nil }
            setGate(slot, current.load(ordering: .acquiring))
            return slot
        }

        func setGate(_ slot: Int, _ value: UInt64) {
            gates.withLock { if $0.indices.contains(slot) { $0[slot] = value } }
        }

        /// The earliest instant a follower still has to act on.
        private func earliestGate() -> UInt64 {
            gates.withLock { gates in gates.min() ?? .max }
        }

        /// Time up to `deadline`, stopping at each follower's instant until it has acted.
        private func holdForFollowers(until deadline: MonotonicNanoseconds) {
            var waitingSince: UInt64 = 0
            while !halted.load(ordering: .relaxed) {
                let gate = earliestGate()
                guard gate < deadline else { return }
                if gate > current.load(ordering: .relaxed) {
                    current.store(gate, ordering: .releasing)
                    waitingSince = 0
                }
                let now = real.now()
                if waitingSince == 0 {
                    waitingSince = now
                } else if now &- waitingSince > Self.patience {
                    gates.withLock { gates in
                        for index in gates.indices where gates[index] == gate { gates[index] = .max }
                    }
                    waitingSince = 0
                }
                var pause = timespec(tv_sec: 0, tv_nsec: 20_000)
                nanosleep(&pause, nil)
            }
        }

        func advance(to deadline: MonotonicNanoseconds) {
            guard deadline > current.load(ordering: .relaxed) else { return }
            holdForFollowers(until: deadline)
            current.store(deadline, ordering: .releasing)
            // The real instant this simulated one belongs to; when the machine is behind, no wait.
            // Sleeps shorter than a couple of milliseconds are not taken (the kernel's timer
            // slack would stretch each one): the loop runs a little ahead and then waits once.
            let ahead = Double(deadline - start) / speed
            guard ahead < 1e18 else { return }
            let target = realStart &+ UInt64(ahead)
            let now = real.now()
            if target > now, target - now > 2_000_000 { real.sleep(until: target) }
        }

        func wait(until deadline: MonotonicNanoseconds) {
            while !halted.load(ordering: .relaxed) {
                let now = current.load(ordering: .acquiring)
                if now >= deadline { return }
                // The real time the rest should take, in slices short enough to notice a halt.
                let rest = Double(deadline - now) / speed
                var pause = timespec(tv_sec: 0, tv_nsec: Int(min(max(rest, 20_000), 5_000_000)))
                nanosleep(&pause, nil)
            }
        }
    }
}
