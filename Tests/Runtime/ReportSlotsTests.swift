import LodestoneCore
import Testing

@testable import LodestoneRuntime

/// The report tasks run on sample time: for the first state at or after each slot, whichever
/// way the states reached the output side, and a gap leaves its slots missed, never served late.
@Suite struct ReportSlotsTests {
    final class Runs: @unchecked Sendable {
        var times: [String: [MonotonicNanoseconds]] = [:]
        var now: MonotonicNanoseconds = 0
    }

    static func slots(_ runs: Runs) -> ReportSlots {
        ReportSlots([
            ScheduledTask(name: "attitude", rateHz: 10, budgetMicroseconds: 1000, priority: 3) { runs.times["attitude", default: []].append(runs.now) },
            ScheduledTask(name: "weather", rateHz: 1, budgetMicroseconds: 1000, priority: 6) { runs.times["weather", default: []].append(runs.now) }
        ])
    }

    /// States every 20 ms with a little jitter, as a loop at 50 Hz makes them.
    static let states: [MonotonicNanoseconds] = (0..<150).map { 5_000_000_000 + MonotonicNanoseconds($0) * 20_000_000 + MonotonicNanoseconds($0 % 3) * 700_000 }

    @Test func eachSlotIsServedByTheFirstStateAtOrAfterIt() {
        let runs = Runs()
        let slots = Self.slots(runs)
        for time in Self.states {
            runs.now = time
            slots.run(at: time)
        }
        let attitude = runs.times["attitude"] ?? []
        #expect(attitude.count == 30, "\(attitude.count) runs in 3 s at 10 Hz")
        for (index, time) in attitude.enumerated() {
            let slot = 5_000_000_000 + MonotonicNanoseconds(index) * 100_000_000
            let first = Self.states.first { $0 >= slot }
            #expect(time == first, "slot \(index): ran at \(time), the first state at or after it is \(String(describing: first))")
        }
        #expect(runs.times["weather"]?.count == 3)
        #expect(slots.lines.map(\.name) == ["attitude", "weather"])
        #expect(slots.lines.allSatisfy { $0.statistics.missed == 0 })
    }

    /// States lost while the output side was behind: the slots they spanned are missed (and
    /// counted), and the next state serves only the slot it reaches.
    @Test func aGapInTheStatesMissesItsSlots() {
        let runs = Runs()
        let slots = Self.slots(runs)
        let kept = Self.states.enumerated().filter { !(20..<60).contains($0.offset) }.map(\.element)
        for time in kept {
            runs.now = time
            slots.run(at: time)
        }
        let attitude = runs.times["attitude"] ?? []
        // Slots 5.4 to 6.2 s fall in the gap: the state at 6.2 s serves one, eight are missed.
        #expect(attitude.count == 30 - 8, "\(attitude.count)")
        #expect(Set(attitude).count == attitude.count, "no state serves two slots of one task")
        let missed = slots.lines.first { $0.name == "attitude" }?.statistics.missed
        #expect(missed == 8, "\(String(describing: missed))")
    }
}
