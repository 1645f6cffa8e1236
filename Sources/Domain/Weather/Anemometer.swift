import LodestoneCore

/// Wind speed from a cup anemometer's reed switch: the switch closes (wired to ground with
/// the pull-up on, so the line falls) a fixed number of times per revolution, and the wind
/// speed is proportional to the closure frequency. The common kit reads 2.4 km/h per Hz
/// (0.6667 m/s per Hz, one closure per revolution).
///
/// Edges come from the GPIO line's kernel-stamped events (the runtime passes `EdgeEvent`'s
/// `rising` and `time`; this layer does not import the HAL).
///
/// Debouncing: a reed switch chatters for well under a millisecond when it closes, and again
/// when it opens, and both chatters contain falling edges. A falling edge therefore counts
/// only after the line has been quiet (no edge of either direction) for `debounce`, i.e. it
/// must follow a real open stretch. 2 ms is four times the longest bounce gap of common reed
/// switches, and far below the open stretch at the kit's top speed: 200 km/h is 83 Hz, a 12 ms
/// period, of which even a switch closed half the time leaves 6 ms open. A plain lock-out
/// after each counted edge would not do: at low speed the switch stays closed for hundreds of
/// milliseconds, so its opening chatter comes long after any lock-out has expired.
///
/// The caller asks once per interval (say every second) with `interval(endingAt:)`. The
/// frequency uses the edges' time stamps, not just a count: n closures in the interval, after
/// the last closure of the interval before, span exactly n revolutions, so the frequency is
/// n / (last closure - previous closure). A steady wind then reads exactly, although a 1 s
/// count at 7.3 Hz alternates between 7 and 8. No allocation: the state is a few numbers.
public struct Anemometer: Sendable {
    /// One interval's result.
    public struct Interval: Sendable, Equatable {
        public var start: MonotonicNanoseconds
        public var end: MonotonicNanoseconds
        /// Closures counted in (start, end].
        public var pulses: Int
        /// Edges rejected as bounce in the interval: a count that climbs with the speed
        /// says the switch is wearing out, or the debounce is too long.
        public var bounces: Int
        public var hertz: Double
        public var metresPerSecond: Double
    }

    /// Metres per second per hertz of closures: the kit's 2.4 km/h per Hz by default.
    public var metresPerSecondPerHertz: Double
    /// How long the line must be quiet before a falling edge counts.
    public var debounce: UInt64
    /// No closure for this long is a calm (0 m/s): 3 s is 0.22 m/s on the kit, below the
    /// 0.26 m/s (half a knot) that WMO reports as calm.
    public var calmAfter: UInt64

    private var lastEdge: MonotonicNanoseconds?
    /// The last counted closure before this interval began: the anchor of the first period.
    private var anchor: MonotonicNanoseconds?
    private var firstInInterval: MonotonicNanoseconds = 0
    private var lastInInterval: MonotonicNanoseconds = 0
    private var pulses = 0
    private var bounces = 0
    private var intervalStart: MonotonicNanoseconds?
    private var lastHertz = 0.0

    public init(
        metresPerSecondPerHertz: Double = 2.4 / 3.6, debounceNanoseconds: UInt64 = 2_000_000,
        calmAfterNanoseconds: UInt64 = 3_000_000_000
    ) {
        self.metresPerSecondPerHertz = metresPerSecondPerHertz
        debounce = debounceNanoseconds
        calmAfter = calmAfterNanoseconds
    }

    /// One edge of the switch line, oldest first. An edge stamped earlier than the one before
    /// (which a monotonic clock never gives) is dropped as bounce.
    public mutating func add(rising: Bool, time: MonotonicNanoseconds) {
        defer { if time >= (lastEdge ?? 0) { lastEdge = time } }
        if let last = lastEdge, time < last || time - last < debounce {
            if !rising { bounces += 1 }
            return
        }
        guard !rising else { return }
        if pulses == 0 { firstInInterval = time }
        lastInInterval = time
        pulses += 1
    }

    /// The pulses and speed since the previous call (since the first edge, on the first
    /// call), and the start of the next interval.
    public mutating func interval(endingAt now: MonotonicNanoseconds) -> Interval {
        let start = intervalStart ?? (pulses > 0 ? min(now, firstInInterval) : now)
        var hertz = 0.0
        if pulses > 0 {
            let anchorAge = anchor.map { firstInInterval >= $0 ? firstInInterval - $0 : UInt64.max } ?? .max
            if let anchor, anchorAge <= calmAfter, lastInInterval > anchor {
                // n closures after the anchor: n whole revolutions.
                hertz = Double(pulses) / Self.seconds(lastInInterval - anchor)
            } else if pulses >= 2, lastInInterval > firstInInterval {
                // Starting from a calm: the periods between this interval's own closures.
                hertz = Double(pulses - 1) / Self.seconds(lastInInterval - firstInInterval)
            } else if let begun = intervalStart, now > begun {
                // A single closure after a calm: nothing but the count to go on (and on the
                // very first call not even an interval, so 0).
                hertz = Double(pulses) / Self.seconds(now - begun)
            }
        } else if let anchor, now > anchor, now - anchor < calmAfter {
            // No closure this interval, but not yet a calm: the wind is no faster than one
            // revolution since the last closure, nor faster than it was.
            hertz = min(lastHertz, 1 / Self.seconds(now - anchor))
        }
        // A wind that drops: the time since the last closure already exceeds the period.
        let last = pulses > 0 ? lastInInterval : anchor
        if hertz > 0, let last, now > last, Self.seconds(now - last) > 1 / hertz {
            hertz = 1 / Self.seconds(now - last)
        }
        let result = Interval(
            start: start, end: now, pulses: pulses, bounces: bounces, hertz: hertz,
            metresPerSecond: hertz * metresPerSecondPerHertz)
        if pulses > 0 { anchor = lastInInterval }
        pulses = 0
        bounces = 0
        lastHertz = hertz
        intervalStart = now
        return result
    }

    static func seconds(_ nanoseconds: UInt64) -> Double { Double(nanoseconds) / 1e9 }
}
