import LodestoneDomain

/// One published state of the sampling side, with how far each ring had been filled when it
/// was made. The output side takes the samples up to these marks, then the state, in that
/// order: what it computes from them is a function of the samples alone, whenever its thread
/// happened to run (a replay publishes what the field did).
public struct StateSnapshot: Sendable {
    public var state: NavigationState
    public var marks: Marks
    /// The seconds between fixes the GPS health check expects (adaptive sampling changes it):
    /// the output side's position filter follows it from here, at the same state in a replay.
    public var fixInterval: Double

    /// Each ring's `pushed` count when the state was made.
    public struct Marks: Sendable, Equatable {
        public var imu = 0, magnetic = 0, pressure = 0, fixes = 0, sky = 0, sentences = 0
        public init() {}
    }

    public init(state: NavigationState, marks: Marks, fixInterval: Double) {
        self.state = state
        self.marks = marks
        self.fixInterval = fixInterval
    }
}
