import LodestoneCore
import LodestoneHAL
import Testing

/// What one thread takes from another, through a recording and back: a replay takes the
/// recorded values at the recorded moments, whatever its own other thread holds.
@Suite struct HandoverTests {
    struct Figure: Equatable, BitwiseCopyable {
        var offset: Double
        var scale: Double
    }

    static func drained(_ recorder: InputRecorder) -> [UInt8] {
        var bytes: [UInt8] = []
        _ = recorder.ring.drain { bytes.append(contentsOf: $0) }
        return bytes
    }

    @Test func aStateIsNotedWhenItChangesAndReplayedWhereItWasTaken() {
        let recorder = InputRecorder()
        let state = Handover<Figure?>(kind: 2, initial: nil)
        state.ledger = recorder
        let taken: [Figure?] = [nil, nil, Figure(offset: 1, scale: 2), Figure(offset: 1, scale: 2), nil, Figure(offset: 3, scale: 4)]
        var used: [Figure?] = []
        for value in taken {
            recorder.clock(1000 * UInt64(used.count + 1))
            used.append(state.state(value))
        }
        #expect(used == taken)
        let bytes = Self.drained(recorder)
        var decoder = InputEventDecoder(bytes)
        var handovers = 0
        while let event = decoder.next() { if case .handover = event { handovers += 1 } }
        // The first taking, and the three changes.
        #expect(handovers == 4)

        let stream = ReplayStream(bytes)
        let replayed = Handover<Figure?>(kind: 2, initial: nil)
        replayed.ledger = stream
        let clock = ReplayClock(stream: stream)
        var again: [Figure?] = []
        for _ in taken {
            _ = clock.now()
            // The replay's own side holds something else entirely: the recording wins.
            again.append(replayed.state(Figure(offset: 99, scale: 99)))
        }
        #expect(again == taken)
        #expect(stream.divergence == nil)
        #expect(stream.isFinished)
    }

    @Test func aRequestHappensOnceInTheReplayAsInTheRun() {
        let recorder = InputRecorder()
        let request = Handover<UInt64>(kind: 4, initial: 0)
        request.ledger = recorder
        let asked: [UInt64] = [0, 50, 0, 0, 50, 25, 0]
        for value in asked {
            recorder.clock(1000)
            #expect(request.request(value, none: 0) == value)
        }
        let stream = ReplayStream(Self.drained(recorder))
        let replayed = Handover<UInt64>(kind: 4, initial: 0)
        replayed.ledger = stream
        let clock = ReplayClock(stream: stream)
        var again: [UInt64] = []
        for _ in asked {
            _ = clock.now()
            again.append(replayed.request(7, none: 0))
        }
        #expect(again == asked)
        #expect(stream.isFinished)
    }

    @Test func theSchedulersRateRequestsReplayAtTheTickTheyWereTaken() throws {
        let recorder = InputRecorder()
        let manual = ManualClock()
        let recorded = RecordingClock(manual, recorder: recorder)
        recorded.claim()
        let runs = Counter()
        let tasks = [ScheduledTask(name: "a", rateHz: 100, budgetMicroseconds: 100, priority: 0) { runs.add() }]
        let scheduler = try FixedRateScheduler(loopRateHz: 200, tasks: tasks, clock: recorded)
        scheduler.ledger = recorder
        for tick in 0..<400 {
            if tick == 100 { scheduler.setRate(task: 0, hz: 25) }
            if tick == 250 { scheduler.setRate(task: 0, hz: 200) }
            manual.advance(by: 5_000_000)
            scheduler.run(ticks: 1)
        }
        let first = runs.value
        let stream = ReplayStream(Self.drained(recorder))
        let replayClock = ReplayClock(stream: stream)
        let replayRuns = Counter()
        let again = try FixedRateScheduler(
            loopRateHz: 200, tasks: [ScheduledTask(name: "a", rateHz: 100, budgetMicroseconds: 100, priority: 0) { replayRuns.add() }],
            clock: replayClock)
        again.ledger = stream
        // The replay's own requests are not the recording's: they are left aside.
        again.setRate(task: 0, hz: 1)
        again.run(ticks: 400)
        #expect(stream.divergence == nil)
        #expect(stream.isFinished)
        #expect(replayRuns.value == first)
        #expect(first > 200)
    }

    final class Counter: @unchecked Sendable {
        private(set) var value = 0
        func add() { value += 1 }
    }
}
