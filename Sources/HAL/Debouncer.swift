import LodestoneCore

/// Turns the edges of a bouncing mechanical contact into clean level changes: a new level
/// counts only once it has held for `settle` with no further edge. Contacts bounce for
/// 1-10 ms; 20 ms settles all common tactile switches and is still far below what a
/// person notices.
public struct Debouncer: Sendable {
    public let settle: UInt64
    /// The accepted level.
    public private(set) var level: Bool
    private var candidate: Bool
    private var lastEdge: MonotonicNanoseconds = 0
    private var pending = false

    public init(initialLevel: Bool, settleNanoseconds: UInt64 = 20_000_000) {
        settle = settleNanoseconds
        level = initialLevel
        candidate = initialLevel
    }

    /// Records one raw edge.
    public mutating func edge(_ event: EdgeEvent) {
        candidate = event.rising
        lastEdge = event.time
        pending = true
    }

    /// The new level when one has settled by `now`, else nil.
    public mutating func settled(at now: MonotonicNanoseconds) -> Bool? {
        guard pending, now >= lastEdge, now - lastEdge >= settle else { return nil }
        pending = false
        guard candidate != level else { return nil }  // a glitch that came back: no change
        level = candidate
        return level
    }
}

/// A push button wired from a GPIO line to ground with the pull-up on: pressed reads low.
/// Reports a press when the button goes down and a long press when it is held for
/// `longPress` (one second: long enough not to happen by accident, short enough for gloves).
public struct Button: Sendable {
    public enum Event: Sendable, Equatable { case press, longPress, release }

    public let name: String
    public let longPress: UInt64
    private var debouncer: Debouncer
    private var downSince: MonotonicNanoseconds?
    private var longReported = false

    public init(name: String, longPressNanoseconds: UInt64 = 1_000_000_000, settleNanoseconds: UInt64 = 20_000_000) {
        self.name = name
        longPress = longPressNanoseconds
        debouncer = Debouncer(initialLevel: true, settleNanoseconds: settleNanoseconds)
    }

    public var isDown: Bool { downSince != nil }

    /// Feeds raw edges and the time now; returns what the person did, if anything.
    public mutating func update(edges: some Sequence<EdgeEvent>, now: MonotonicNanoseconds) -> Event? {
        for edge in edges { debouncer.edge(edge) }
        return update(now: now)
    }

    public mutating func update(now: MonotonicNanoseconds) -> Event? {
        if let level = debouncer.settled(at: now) {
            if !level {
                downSince = now
                longReported = false
                return .press
            }
            downSince = nil
            return .release
        }
        if let since = downSince, !longReported, now - since >= longPress {
            longReported = true
            return .longPress
        }
        return nil
    }
}
