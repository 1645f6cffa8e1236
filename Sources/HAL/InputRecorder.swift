import LodestoneCore
import Synchronization

/// One thread's side of a recording: its events encoded as they happen and handed, a whole
/// event at a time, to a byte ring another thread empties into the file. Nothing here
/// allocates once the transfers' keys are known, and nothing waits: when the ring is full (the
/// writer fell behind) the event is counted as lost and a gap is written in its place as
/// soon as there is room, so a replay stops there rather than run on a stream with a hole.
public final class InputRecorder {
    public let ring: ByteRing
    private var encoder = InputEventEncoder()
    /// Bytes lost since the last gap was written.
    private var lost = 0
    /// Every byte lost in this recording.
    public private(set) var lostBytes = 0

    public init(ringBytes: Int = 256 << 10) { ring = ByteRing(capacity: ringBytes) }

    public func clock(_ now: MonotonicNanoseconds) {
        encoder.clock(now)
        commit()
    }

    public func transfer(bus: UInt8, address: UInt8, write: UnsafeRawBufferPointer, read: UnsafeRawBufferPointer) {
        encoder.transfer(bus: bus, address: address, write: write, read: read)
        commit()
    }

    public func transferFailed(bus: UInt8, address: UInt8, write: UnsafeRawBufferPointer, readCount: Int, error: I2CError) {
        encoder.transferFailed(bus: bus, address: address, write: write, readCount: readCount, error: error)
        commit()
    }

    public func serial(_ read: UnsafeRawBufferPointer) {
        encoder.serial(read)
        commit()
    }

    public func serialFailed(_ error: SerialError) {
        encoder.serialFailed(error)
        commit()
    }

    public func edges(line: UInt8, _ events: UnsafeBufferPointer<EdgeEvent>) {
        encoder.edges(line: line, events)
        commit()
    }

    public func handover(kind: UInt8, payload: UnsafeRawBufferPointer) {
        encoder.handover(kind: kind, payload: payload)
        commit()
    }

    /// Asks for a restart point at the sampling loop's next tick (any thread).
    public func requestRestart() { restartWanted.store(true, ordering: .relaxed) }
    private let restartWanted = Atomic<Bool>(false)
    /// Where in the stream (`ByteRing.writtenTotal`) the newest restart point begins; -1 before
    /// the first. The file's writer cuts there.
    public let lastRestart = Atomic<Int>(-1)
    /// Restart points written so far.
    public private(set) var generation = 0

    /// A restart point: the stream starts afresh (the clock whole, the keys given again, every
    /// state noted again) with the sampling loop's schedule, so a replay may begin here.
    public func restart(schedule: UnsafeRawBufferPointer) {
        restartWanted.store(false, ordering: .relaxed)
        writeOwedGap()
        guard lost == 0 else {
            restartWanted.store(true, ordering: .relaxed)  // the ring is full: at a later tick
            return
        }
        generation += 1
        encoder.restart(schedule: schedule)
        // Where it begins is told before it is written: the writer, seeing its bytes, always
        // knows to cut there.
        let before = lastRestart.load(ordering: .relaxed)
        lastRestart.store(ring.writtenTotal, ordering: .releasing)
        let count = encoder.pendingCount
        if !encoder.take({ ring.write($0) }) {
            lastRestart.store(before, ordering: .releasing)
            lost += count
            lostBytes += count
            encoder.reset()
            restartWanted.store(true, ordering: .relaxed)
        }
    }

    /// The gap owed for bytes lost, when there is room for it.
    private func writeOwedGap() {
        guard lost > 0 else { return }
        var gap = InputEventEncoder()
        gap.gap(lostBytes: lost)
        // The gap's few bytes (a fresh encoder allocates them: the rare path).
        if gap.take({ ring.write($0) }) { lost = 0 }
    }

    /// Hands the event just encoded to the ring, after the gap before it if one is owed.
    private func commit() {
        writeOwedGap()
        let count = encoder.pendingCount
        let written = encoder.take { lost == 0 && ring.write($0) }
        guard !written else { return }
        lost += count
        lostBytes += count
        // What follows the gap must read on its own: the clock in full, the keys given again.
        encoder.reset()
    }
}

/// A recording notes each handover as the sampling thread takes it.
extension InputRecorder: HandoverLedger {
    public var isReplaying: Bool { false }
    public func note(kind: UInt8, payload: UnsafeRawBufferPointer) { handover(kind: kind, payload: payload) }
    public func replayed(kind: UInt8) -> [UInt8]? { nil }
    public var wantsRestart: Bool { restartWanted.load(ordering: .relaxed) }
    public func replayedRestart() -> [UInt8]? { nil }
}
