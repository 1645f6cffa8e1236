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

    /// A rotated file: the prelude (the stream up to its first restart point), then the stream
    /// from a later restart point. The replay takes up the recorded schedule there, and its
    /// tasks fall due at the recorded ticks with the recorded states.
    @Test func aReplayStartsAgainFromARestartPointAfterThePrelude() throws {
        let recorder = InputRecorder()
        let manual = ManualClock()
        let recorded = RecordingClock(manual, recorder: recorder)
        recorded.claim()
        let slow = Counter(), state = Handover<Figure?>(kind: 2, initial: nil)
        state.ledger = recorder
        var afterSecond = 0
        let tasks = [
            ScheduledTask(name: "fast", rateHz: 100, budgetMicroseconds: 100, priority: 0) { _ = recorded.now() },
            ScheduledTask(name: "slow", rateHz: 30, budgetMicroseconds: 100, priority: 1) { slow.add() }
        ]
        let scheduler = try FixedRateScheduler(loopRateHz: 200, tasks: tasks, clock: recorded)
        scheduler.ledger = recorder
        var restarts: [Int] = []
        for tick in 0..<600 {
            if tick == 5 || tick == 333 { recorder.requestRestart() }
            manual.advance(by: 5_000_000)
            scheduler.run(ticks: 1)
            _ = state.state(tick < 100 ? nil : Figure(offset: 1, scale: 2))
            if recorder.lastRestart.load(ordering: .relaxed) != restarts.last ?? -1 { restarts.append(recorder.lastRestart.load(ordering: .relaxed)) }
            if restarts.count == 2 && tick > 333 { afterSecond += 1 }
        }
        let slowAfter = slow.value
        let bytes = Self.drained(recorder)
        try #require(restarts.count == 2)
        let first = try #require(restarts.first), second = try #require(restarts.last)
        let stream = ReplayStream(Array(bytes[..<first]) + Array(bytes[second...]))
        let replayClock = ReplayClock(stream: stream)
        let replayState = Handover<Figure?>(kind: 2, initial: nil)
        replayState.ledger = stream
        let replaySlow = Counter()
        let again = try FixedRateScheduler(
            loopRateHz: 200,
            tasks: [
                ScheduledTask(name: "fast", rateHz: 100, budgetMicroseconds: 100, priority: 0) { _ = replayClock.now() },
                ScheduledTask(name: "slow", rateHz: 30, budgetMicroseconds: 100, priority: 1) { replaySlow.add() }
            ], clock: replayClock)
        again.ledger = stream
        var statesAfter: [Figure?] = []
        var ticks = 0
        while !stream.isFinished, stream.divergence == nil, ticks < 1000 {
            again.run(ticks: 1)
            let taken = replayState.state(nil)
            if stream.restarts == 1 { statesAfter.append(taken) }
            ticks += 1
        }
        #expect(stream.divergence == nil, "\(stream.divergence ?? "")")
        #expect(stream.isFinished)
        #expect(stream.restarts == 1)
        // The state noted again after the restart point comes back with it.
        #expect(statesAfter.allSatisfy { $0 == Figure(offset: 1, scale: 2) } && !statesAfter.isEmpty)
        #expect(ticks > afterSecond && slowAfter > replaySlow.value && replaySlow.value > 0)
    }

    final class Counter: @unchecked Sendable {
        private(set) var value = 0
        func add() { value += 1 }
    }
}
