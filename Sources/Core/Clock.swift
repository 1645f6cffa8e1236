import Glibc

/// Nanoseconds on the monotonic clock: immune to wall-clock steps (NTP, GPS time set).
public typealias MonotonicNanoseconds = UInt64

public let nanosecondsPerSecond: UInt64 = 1_000_000_000

/// The time source of the sampling loop, injected so that tests can drive time by hand.
public protocol MonotonicClock: AnyObject, Sendable {
    func now() -> MonotonicNanoseconds
    /// Sleeps until the absolute instant `deadline` (returns at once if it has passed).
    func sleep(until deadline: MonotonicNanoseconds)
}

/// CLOCK_MONOTONIC, slept on with absolute deadlines so that wake-ups never accumulate drift.
public final class SystemMonotonicClock: MonotonicClock {
    public init() {}

    @inline(__always)
    public func now() -> MonotonicNanoseconds {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* nanosecondsPerSecond &+ UInt64(time.tv_nsec)
    }

    public func sleep(until deadline: MonotonicNanoseconds) {
        var target = timespec(
            tv_sec: Int(deadline / nanosecondsPerSecond),
            tv_nsec: Int(deadline % nanosecondsPerSecond))
        // EINTR (a signal) only shortens the sleep; retry until the deadline.
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &target, nil) == EINTR {}
    }
}

/// A clock that only moves when told to: sleeping jumps straight to the deadline and work can
/// be made to "take" time with `advance`. For deterministic tests and faster-than-real-time runs.
public final class ManualClock: MonotonicClock, @unchecked Sendable {
    private var current: MonotonicNanoseconds

    public init(start: MonotonicNanoseconds = 1_000_000_000) { current = start }

    public func now() -> MonotonicNanoseconds { current }

    public func sleep(until deadline: MonotonicNanoseconds) {
        if deadline > current { current = deadline }
    }

    public func advance(by nanoseconds: UInt64) { current += nanoseconds }
}
