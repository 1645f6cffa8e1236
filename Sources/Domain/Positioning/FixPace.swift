import LodestoneCore

/// How often the receiver's fixes should come, for judging one late. Adaptive sampling changes
/// the interval while the receiver runs; after it is shortened, the fix the receiver had already
/// scheduled still comes at the old pace, and the receiver's clock and the moment its
/// sentences are read are not the judge's: for one old interval (and two new ones) after a
/// shortening the old pace still counts. Lengthening counts at once. Allocation-free: the
/// sampling loop keeps one.
public struct FixPace: Sendable {
    /// Seconds between fixes the receiver was last asked for.
    public private(set) var interval = 1.0
    private var graceInterval = 0.0
    private var graceUntil: MonotonicNanoseconds = 0

    public init() {}

    /// The receiver has been asked for a fix every `seconds` (0 to 3600), at monotonic time `now`.
    public mutating func set(_ seconds: Double, at now: MonotonicNanoseconds) {
        guard seconds.isFinite, seconds > 0, seconds <= 3600, seconds != interval else { return }
        if seconds < interval {
            graceInterval = interval
            graceUntil = now &+ MonotonicNanoseconds((interval + 2 * seconds) * 1e9)
        }
        interval = seconds
    }

    /// The seconds between fixes to expect at `now`.
    public func expected(at now: MonotonicNanoseconds) -> Double {
        now < graceUntil ? max(interval, graceInterval) : interval
    }
}
