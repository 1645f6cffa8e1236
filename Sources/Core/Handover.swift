/// Where what one thread takes from another is kept for a replay: the sampling thread takes a
/// calibration, the field's declination, a new rate from the output thread at moments the
/// output thread's pace decides. A recording notes each value at the moment it was taken; a
/// replay gives the recorded value back at the same moment instead of whatever the replay's
/// own output side holds, so the sampling thread asks the recorded chips the recorded
/// questions.
public protocol HandoverLedger: AnyObject {
    /// True in a replay: the values come from the recording (`replayed`), not from the taker.
    var isReplaying: Bool { get }
    /// Recording: a value of `kind` was taken here (its bytes).
    func note(kind: UInt8, payload: UnsafeRawBufferPointer)
    /// Replay: the bytes of the value of `kind` the recording took here, if it took one.
    func replayed(kind: UInt8) -> [UInt8]?

    /// Recording: whether a restart point is wanted at the start of the next tick (a new file
    /// of a rotated recording, or a place a piece may be cut from).
    var wantsRestart: Bool { get }
    /// Recording: the restart point, with the sampling loop's schedule at this tick's start.
    func restart(schedule: UnsafeRawBufferPointer)
    /// Replay: the schedule recorded at this tick's start, when the recording starts afresh here.
    func replayedRestart() -> [UInt8]?
    /// Counts the restart points: every state is noted again after one, so what follows a
    /// restart point stands on its own.
    var generation: Int { get }
}

/// The kinds of handover a recording holds (the scheduler's task rates are `taskRate + index`).
public enum HandoverKind {
    public static let expectedField: UInt8 = 1
    public static let magnetometerCalibration: UInt8 = 2
    public static let accelerometerCalibration: UInt8 = 3
    public static let imuChipRate: UInt8 = 4
    public static let magnetometerChipRate: UInt8 = 5
    public static let fixInterval: UInt8 = 6
    /// A ring refused a push (the output side was far behind); the payload names the ring.
    public static let ringDrop: UInt8 = 7
    public static let taskRate: UInt8 = 16
}

/// One value a thread takes from another, through a ledger when the run records or replays.
/// Values are kept as their bytes (plain values: numbers, and structs and optionals of them),
/// which a replay reads back on a build of the same version.
///
/// Two kinds of taking: a state (a calibration: it holds until the next one, and is noted only
/// when it changes) and a request (a new rate: it happens once, and is noted every time).
public final class Handover<Value: Equatable & BitwiseCopyable> {
    private let kind: UInt8
    private var last: Value
    /// The ledger's generation the state was last noted in.
    private var noted = -1
    public var ledger: (any HandoverLedger)?

    public init(kind: UInt8, initial: Value) {
        self.kind = kind
        last = initial
    }

    /// The state the thread must use, given the one it took (`live`). (The taker tests for a
    /// ledger first: without one the value is used as taken.)
    public func state(_ live: Value) -> Value {
        guard let ledger else { return live }
        return take(live, ledger: ledger)
    }

    private func take(_ live: Value, ledger: any HandoverLedger) -> Value {
        if ledger.isReplaying {
            if let bytes = ledger.replayed(kind: kind) { adopt(bytes) }
            return last
        }
        if noted != ledger.generation || live != last {
            noted = ledger.generation
            last = live
            withUnsafeBytes(of: live) { ledger.note(kind: kind, payload: $0) }
        }
        return live
    }

    /// The request the thread must act on, given the one it took (`live`; `none` when there
    /// was none).
    public func request(_ live: Value, none: Value) -> Value {
        guard let ledger else { return live }
        if ledger.isReplaying {
            guard let bytes = ledger.replayed(kind: kind) else { return none }
            adopt(bytes)
            return last
        }
        if live != none { withUnsafeBytes(of: live) { ledger.note(kind: kind, payload: $0) } }
        return live
    }

    /// A recorded value's bytes become the value (a payload of another size, from a build
    /// that kept the value otherwise, is not taken).
    private func adopt(_ bytes: [UInt8]) {
        guard bytes.count == MemoryLayout<Value>.size else { return }
        withUnsafeMutableBytes(of: &last) { target in bytes.withUnsafeBytes { target.copyMemory(from: $0) } }
    }
}
