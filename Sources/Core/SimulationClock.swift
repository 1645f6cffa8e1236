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
public final class SimulationClock: MonotonicClock, @unchecked Sendable {
    public var speed: Double { timeline.speed }
    /// The same time, for the thread that drives it: sleeping moves time forward.
    public var pacer: SimulationClock { SimulationClock(timeline, drives: true) }
    private let timeline: Timeline
    private let drives: Bool

    /// - Parameter speed: simulated seconds per real second (above 0).
    public convenience init(speed: Double, start: MonotonicNanoseconds = 1_000_000_000) {
        self.init(Timeline(speed: speed.isFinite && speed > 0 ? speed : 1, start: start), drives: false)
    }

    private init(_ timeline: Timeline, drives: Bool) {
        self.timeline = timeline
        self.drives = drives
    }

    public func now() -> MonotonicNanoseconds { timeline.current.load(ordering: .acquiring) }

    public func sleep(until deadline: MonotonicNanoseconds) {
        if drives { timeline.advance(to: deadline) } else { timeline.wait(until: deadline) }
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

        init(speed: Double, start: MonotonicNanoseconds) {
            self.speed = speed
            self.start = start
            current = Atomic(start)
            realStart = real.now()
        }

        func advance(to deadline: MonotonicNanoseconds) {
            guard deadline > current.load(ordering: .relaxed) else { return }
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
