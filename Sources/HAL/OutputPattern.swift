/// A buzzer or LED pattern: on and off steps in milliseconds, played once or repeated.
/// Patterns are distinct by rhythm, not pitch, so they can be told apart on a plain
/// active buzzer and seen on an LED.
public struct OutputPattern: Sendable, Equatable {
    /// Alternating on, off, on, ... durations in milliseconds.
    public var steps: [UInt32]
    public var repeats: Int

    public init(steps: [UInt32], repeats: Int = 1) {
        self.steps = steps
        self.repeats = repeats
    }

    /// One short blip: a button was taken.
    public static let acknowledge = OutputPattern(steps: [40])
    /// Two blips: something was saved (a snapshot, a waypoint).
    public static let saved = OutputPattern(steps: [40, 80, 40])
    /// Three long beeps, twice: a weather or sensor alert that must be noticed.
    public static let alert = OutputPattern(steps: [300, 150, 300, 150, 300, 600], repeats: 2)
    /// A tick for the bubble level's "haptic" feedback when it reaches level.
    public static let levelTick = OutputPattern(steps: [15])

    /// Total length of one pass, milliseconds.
    public var periodMilliseconds: UInt64 { steps.reduce(0) { $0 + UInt64($1) } }

    /// Whether the output is on `elapsed` nanoseconds after the pattern started, or nil once
    /// it has finished.
    public func level(after elapsed: UInt64) -> Bool? {
        let period = periodMilliseconds * 1_000_000
        guard period > 0, elapsed < period * UInt64(max(repeats, 1)) else { return nil }
        var within = elapsed % period
        for (index, step) in steps.enumerated() {
            let length = UInt64(step) * 1_000_000
            if within < length { return index % 2 == 0 }
            within -= length
        }
        return false
    }
}
