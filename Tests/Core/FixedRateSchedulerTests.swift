import LodestoneCore
import Synchronization
import Testing

/// The scheduler driven by a hand-moved clock: every timing decision is deterministic.
@Suite struct FixedRateSchedulerTests {
    final class Runs: @unchecked Sendable {
        var counts: [String: Int] = [:]
        func hit(_ name: String) { counts[name, default: 0] += 1 }
    }

    func task(
        _ name: String, _ rate: Double, budget: Double = 100, priority: Int = 0, runs: Runs,
        work: @escaping @Sendable () -> Void = {}
    ) -> ScheduledTask {
        ScheduledTask(name: name, rateHz: rate, budgetMicroseconds: budget, priority: priority) {
            runs.hit(name)
            work()
        }
    }

    @Test func runsEachTaskAtItsRate() throws {
        let clock = ManualClock()
        let runs = Runs()
        let scheduler = try FixedRateScheduler(
            loopRateHz: 200,
            tasks: [
                task("imu", 100, runs: runs), task("mag", 50, runs: runs), task("baro", 25, runs: runs),
                task("odd", 30, runs: runs)
            ], clock: clock)
        scheduler.run(ticks: 200)  // one second
        #expect(runs.counts["imu"] == 100)
        #expect(runs.counts["mag"] == 50)
        #expect(runs.counts["baro"] == 25)
        // 30 Hz does not divide 200 Hz: runs land on tick boundaries but the count holds.
        #expect((29...31).contains(runs.counts["odd"] ?? 0))
        #expect(scheduler.currentLoopStatistics.overruns == 0)
    }

    @Test func deadlinesDoNotDrift() throws {
        let clock = ManualClock(start: 0)
        let runs = Runs()
        let scheduler = try FixedRateScheduler(
            loopRateHz: 100,
            tasks: [
                task("work", 100, budget: 5000, runs: runs) { clock.advance(by: 3_000_000) }  // 3 ms of a 10 ms tick
            ], clock: clock)
        scheduler.run(ticks: 1000)
        // 1000 ticks of 10 ms from the first deadline (10 ms): the work does not push them later.
        #expect(clock.now() == 10_000_000 * 1000 + 3_000_000)
    }

    @Test func skipsATaskWhoseBudgetDoesNotFitAndCountsOverruns() throws {
        let clock = ManualClock()
        let runs = Runs()
        let scheduler = try FixedRateScheduler(
            loopRateHz: 100,
            tasks: [
                // Takes 8 ms of the 10 ms tick though its budget says 5 ms: an overrun.
                task("greedy", 100, budget: 5000, priority: 0, runs: runs) { clock.advance(by: 8_000_000) },
                // Needs 3 ms but only 2 ms are left: skipped, every tick.
                task("late", 100, budget: 3000, priority: 1, runs: runs)
            ], clock: clock)
        scheduler.run(ticks: 10)
        let greedy = scheduler.currentTaskStatistics(0)
        let late = scheduler.currentTaskStatistics(1)
        #expect(greedy.runs == 10)
        #expect(greedy.overruns == 10)
        #expect(greedy.maxExecution == 8_000_000)
        #expect(late.runs == 0)
        #expect(late.skips == 10)
        #expect(runs.counts["late"] == nil)
    }

    @Test func priorityDecidesOrderWithinATick() throws {
        let clock = ManualClock()
        let order = Order()
        let scheduler = try FixedRateScheduler(
            loopRateHz: 10,
            tasks: [
                ScheduledTask(name: "second", rateHz: 10, budgetMicroseconds: 10, priority: 5) { order.names.append("second") },
                ScheduledTask(name: "first", rateHz: 10, budgetMicroseconds: 10, priority: 1) { order.names.append("first") }
            ], clock: clock)
        scheduler.run(ticks: 1)
        #expect(order.names == ["first", "second"])
    }

    final class Order: @unchecked Sendable { var names: [String] = [] }

    @Test func loopOverrunIsCountedAndCaughtUpWithoutBursts() throws {
        let clock = ManualClock(start: 0)
        let runs = Runs()
        let stall = Stall()
        let scheduler = try FixedRateScheduler(
            loopRateHz: 100,
            tasks: [
                task("work", 100, budget: 1000, runs: runs) {
                    if stall.once { stall.once = false; clock.advance(by: 35_000_000) }  // one 35 ms stall
                }
            ], clock: clock)
        scheduler.run(ticks: 1)
        let afterStall = clock.now()
        #expect(scheduler.currentLoopStatistics.overruns == 1)
        #expect(scheduler.currentLoopStatistics.droppedTicks == 3)
        // The next tick starts at the next future deadline, not immediately (no burst of 3 late ticks).
        scheduler.run(ticks: 1)
        #expect(clock.now() > afterStall)
        #expect(clock.now() % 10_000_000 == 0)
        let stats = scheduler.currentTaskStatistics(0)
        #expect(stats.runs == 2)
        #expect(stats.missed == 3)
        #expect(stats.slips == 0)
    }

    final class Stall: @unchecked Sendable { var once = true }

    @Test func rateChangesWhileRunning() throws {
        let clock = ManualClock()
        let runs = Runs()
        let scheduler = try FixedRateScheduler(loopRateHz: 100, tasks: [task("adaptive", 50, runs: runs)], clock: clock)
        scheduler.run(ticks: 100)
        #expect(runs.counts["adaptive"] == 50)
        scheduler.setRate(task: 0, hz: 10)
        scheduler.run(ticks: 100)
        #expect((59...61).contains(runs.counts["adaptive"] ?? 0))
        #expect(scheduler.currentTaskStatistics(0).rateHz == 10)
        scheduler.setRate(task: 0, hz: 1000)  // clamped to the loop rate
        scheduler.run(ticks: 100)
        #expect((159...161).contains(runs.counts["adaptive"] ?? 0))
    }

    @Test func rejectsATableThatCannotWork() {
        let runs = Runs()
        #expect(throws: SchedulerConfigurationError.badLoopRate(0)) {
            try FixedRateScheduler(loopRateHz: 0, tasks: [], clock: ManualClock())
        }
        #expect(throws: SchedulerConfigurationError.self) {
            try FixedRateScheduler(loopRateHz: 100, tasks: [task("fast", 200, runs: runs)], clock: ManualClock())
        }
        #expect(throws: SchedulerConfigurationError.self) {
            try FixedRateScheduler(loopRateHz: 100, tasks: [task("huge", 10, budget: 20_000, runs: runs)], clock: ManualClock())
        }
    }

    @Test func publishesStatisticsToAnotherThread() throws {
        let clock = ManualClock()
        let runs = Runs()
        let scheduler = try FixedRateScheduler(loopRateHz: 100, tasks: [task("imu", 100, runs: runs)], clock: clock)
        scheduler.run(ticks: 250)
        // Published once a second, the tasks' with the loop's.
        #expect(scheduler.taskStatistics[0].read().runs == 200)
        #expect(scheduler.loopStatistics.read().ticks == 200)
    }

    @Test func latenessHistogramPercentiles() {
        var histogram = LatenessHistogram()
        for microseconds in 1...100 { histogram.record(UInt64(microseconds) * 1000 - 500) }
        #expect(histogram.percentileMicroseconds(0.5) == 50)
        #expect(histogram.percentileMicroseconds(0.99) == 99)
        histogram.record(50_000_000)
        #expect(histogram.maxNanoseconds == 50_000_000)
    }
}
