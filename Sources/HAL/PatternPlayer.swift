import LodestoneCore

/// Plays patterns on one output, driven by the output loop's clock; a new pattern replaces
/// the one playing. An output that fails is switched off and left alone.
public final class PatternPlayer {
    private let output: any DigitalOutput
    private var pattern: OutputPattern?
    private var started: MonotonicNanoseconds = 0
    private var lastLevel = false
    public private(set) var failure: GPIOError?

    public init(output: any DigitalOutput) { self.output = output }

    public func play(_ pattern: OutputPattern, at now: MonotonicNanoseconds) {
        self.pattern = pattern
        started = now
        update(at: now)
    }

    public var isPlaying: Bool { pattern != nil }

    public func update(at now: MonotonicNanoseconds) {
        guard failure == nil, let pattern else { return }
        let level = pattern.level(after: now &- started) ?? false
        if pattern.level(after: now &- started) == nil { self.pattern = nil }
        guard level != lastLevel else { return }
        do {
            try output.set(level)
            lastLevel = level
        } catch {
            failure = error
            self.pattern = nil
        }
    }
}
