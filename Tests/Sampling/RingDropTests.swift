import LodestoneCore
import Testing

@testable import LodestoneSampling

/// A push the output side's ring refused (it was far behind) is noted in a recording, and a
/// replay refuses the push at the same place, whatever room its own ring has: the replayed
/// output side takes exactly the samples the recorded one took.
@Suite struct RingDropTests {
    /// A ledger that notes and replays by the position of each queueing, as the recording's
    /// stream of events places a note between the reads around it.
    final class PositionLedger: HandoverLedger {
        let isReplaying: Bool
        var position = 0
        var dropped: [Int] = []
        init(replaying dropped: [Int]? = nil) {
            isReplaying = dropped != nil
            self.dropped = dropped ?? []
        }
        func note(kind: UInt8, payload: UnsafeRawBufferPointer) {
            if kind == HandoverKind.ringDrop { dropped.append(position) }
        }
        func replayed(kind: UInt8) -> [UInt8]? { kind == HandoverKind.ringDrop && dropped.contains(position) ? [0] : nil }
        var wantsRestart: Bool { false }
        func restart(schedule: UnsafeRawBufferPointer) {}
        func replayedRestart() -> [UInt8]? { nil }
        var generation: Int { 0 }
    }

    @Test func aRefusedPushIsRefusedAgainInTheReplay() {
        let recorder = PositionLedger()
        let recorded = TakenHandovers()
        recorded.ledger = recorder
        // The recorded run's output side took nothing while five samples came: two fit.
        let small = SPSCRing<Int>(capacity: 2, policy: .dropNewest)
        for item in 0..<5 {
            recorder.position = item
            recorded.queue(item, on: small, id: 0)
        }
        #expect(recorder.dropped == [2, 3, 4])
        var live: [Int] = []
        while let item = small.pop() { live.append(item) }
        // The replay's output side keeps up (its ring has room): it is refused the same three.
        let replayer = PositionLedger(replaying: recorder.dropped)
        let replayed = TakenHandovers()
        replayed.ledger = replayer
        let roomy = SPSCRing<Int>(capacity: 64, policy: .dropNewest)
        for item in 0..<5 {
            replayer.position = item
            replayed.queue(item, on: roomy, id: 0)
        }
        var again: [Int] = []
        while let item = roomy.pop() { again.append(item) }
        #expect(live == [0, 1] && again == live, "\(live) live, \(again) replayed")
    }
}
