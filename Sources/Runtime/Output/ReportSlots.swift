import LodestoneCore
import LodestoneReports

/// The report tasks' schedule, kept on sample time: each task's slots lie on a fixed grid from
/// the first state the output side followed, and a task runs for the first state at or after
/// each of its slots. Which states a report is made from therefore follows from the samples'
/// times alone, never from when the output thread ran: a replay makes the same reports at the
/// same states, and so does a loaded machine.
///
/// A gap in the states (the sampling side dropped some while the output side was behind)
/// leaves the slots it spans unserved: those are counted as missed, never served late.
final class ReportSlots {
    private struct Slot {
        let name: String
        let body: () -> Void
        let period: UInt64
        let budget: Double
        var nextDue: MonotonicNanoseconds = 0
        var statistics = TaskStatistics()
    }

    private var slots: [Slot]
    private var started = false
    /// Measures how long each task ran (the slots themselves are on sample time).
    private let stopwatch = SystemMonotonicClock()

    init(_ tasks: [ScheduledTask]) {
        slots = tasks.sorted { $0.priority < $1.priority }.map { task in
            var slot = Slot(
                name: task.name, body: task.body, period: UInt64((1e9 / max(task.rateHz, 1e-3)).rounded()),
                budget: task.budgetMicroseconds)
            slot.statistics.rateHz = task.rateHz
            return slot
        }
    }

    /// Runs every task with a slot at or before `time` (the state now followed), in priority order.
    func run(at time: MonotonicNanoseconds) {
        if !started {
            started = true
            for index in slots.indices { slots[index].nextDue = time }
        }
        for index in slots.indices where time >= slots[index].nextDue {
            let began = stopwatch.now()
            slots[index].body()
            let took = stopwatch.now() &- began
            var s = slots[index].statistics
            s.runs += 1
            s.totalExecution += took
            s.maxExecution = max(s.maxExecution, took)
            if Double(took) > slots[index].budget * 1000 { s.overruns += 1 }
            let period = slots[index].period
            var next = slots[index].nextDue + period
            if next <= time {
                let behind = (time - next) / period + 1
                s.missed += behind
                next += behind * period
            }
            slots[index].nextDue = next
            slots[index].statistics = s
        }
    }

    /// Each task's figures, as `lodestone status` shows the output thread's.
    var lines: [TaskLine] {
        slots.map { TaskLine(name: $0.name, statistics: $0.statistics, budgetMicroseconds: $0.budget) }
    }
}
