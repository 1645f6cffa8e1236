import Synchronization

/// One entry of the scheduler's task table.
public struct ScheduledTask: Sendable {
    public var name: String
    public var rateHz: Double
    /// The CPU time the task may take per run; a task is not started when less time than this
    /// is left in the tick.
    public var budgetMicroseconds: Double
    /// Lower runs first within a tick.
    public var priority: Int
    public var body: @Sendable () -> Void

    public init(
        name: String, rateHz: Double, budgetMicroseconds: Double, priority: Int,
        body: @escaping @Sendable () -> Void
    ) {
        self.name = name
        self.rateHz = rateHz
        self.budgetMicroseconds = budgetMicroseconds
        self.priority = priority
        self.body = body
    }
}

public enum SchedulerConfigurationError: Error, Equatable, CustomStringConvertible {
    case badLoopRate(Double)
    case badTaskRate(task: String, rateHz: Double, loopRateHz: Double)
    case budgetExceedsTick(task: String, budgetMicroseconds: Double, tickMicroseconds: Double)

    public var description: String {
        switch self {
        case .badLoopRate(let rate):
            return "loop rate \(rate) Hz is not usable: give a rate between 1 and 10000 Hz"
        case .badTaskRate(let task, let rate, let loop):
            return "task '\(task)' rate \(rate) Hz must be above 0 and at most the loop rate \(loop) Hz"
        case .budgetExceedsTick(let task, let budget, let tick):
            return "task '\(task)' budget \(budget) us does not fit in one \(tick) us tick: lower the budget or the loop rate"
        }
    }
}

/// A fixed-rate loop that runs a table of tasks, each at its own rate and within a CPU budget,
/// in the manner of a flight controller's scheduler.
///
/// The loop sleeps to absolute deadlines (`deadline += period`), so it never drifts. In each
/// tick the due tasks run in priority order; a task whose budget does not fit the time left is
/// skipped and tried again next tick. When a tick's work runs past the next deadline the loop
/// counts an overrun and resumes on the next future deadline rather than running the missed
/// ticks back to back; a task that falls a whole period behind likewise gives up the missed runs.
///
/// Threading: `run`/`runTick` belong to one thread (the sampling thread). `setRate` and the
/// statistics readers may be called from one other thread.
public final class FixedRateScheduler<Clock: MonotonicClock>: @unchecked Sendable {
    public let clock: Clock
    public let loopPeriod: UInt64
    public let taskNames: [String]
    public let loopStatistics: LatestValue<LoopStatistics>
    /// One published cell per task, in table order (same order as `taskNames`).
    public let taskStatistics: [LatestValue<TaskStatistics>]
    /// Ticks run so far, stored every tick (the statistics are published once a second): what
    /// another thread reads to know the loop is still turning (the service watchdog).
    public let heartbeat = Atomic<UInt64>(0)

    /// What the loop keeps per task, in table order.
    private struct TaskState {
        var body: @Sendable () -> Void
        var period: UInt64
        var budget: UInt64
        var nextDue: UInt64 = 0
        var stats: TaskStatistics
    }
    /// The task states in storage the scheduler alone owns, for its one thread: an array's
    /// uniqueness and bounds checks on every access were a fifth of the loop's own cost.
    /// Every index used is one of `order`'s, all below `taskCount`.
    private let state: UnsafeMutablePointer<TaskState>
    private let taskCount: Int
    private var order: [Int]
    private let requestedPeriod: [PeriodRequest]
    private var loop = LoopStatistics()
    private var lateness = LatenessHistogram()
    private var deadline: UInt64 = 0
    private var publishEvery: UInt64
    /// The run's recording or replay, when there is one: rate requests are noted in it, or
    /// taken from it (see `HandoverLedger`). Set before the loop starts.
    public var ledger: (any HandoverLedger)? {
        didSet {
            hasLedger = ledger != nil
            // A replay's every check of a task's rate must reach the ledger: its slots stay
            // marked, so the check's one load finds them set (a run's stay 0 until a request).
            if ledger?.isReplaying == true { for slot in requestedPeriod { slot.period.store(Self.replayMark, ordering: .relaxed) } }
        }
    }
    /// Whether there is one (a flag the loop looks at each tick, not the ledger).
    private var hasLedger = false
    private static var replayMark: UInt64 { .max }
    /// The schedule's bytes at a restart point, in storage made once.
    private let scheduleBytes: UnsafeMutableRawBufferPointer

    public init(loopRateHz: Double, tasks: [ScheduledTask], clock: Clock) throws(SchedulerConfigurationError) {
        guard loopRateHz >= 1, loopRateHz <= 10_000 else { throw .badLoopRate(loopRateHz) }
        let tick = UInt64((1e9 / loopRateHz).rounded())
        for task in tasks {
            guard task.rateHz > 0, task.rateHz <= loopRateHz else {
                throw .badTaskRate(task: task.name, rateHz: task.rateHz, loopRateHz: loopRateHz)
            }
            guard task.budgetMicroseconds * 1000 < Double(tick) else {
                throw .budgetExceedsTick(
                    task: task.name, budgetMicroseconds: task.budgetMicroseconds,
                    tickMicroseconds: Double(tick) / 1000)
            }
        }
        self.clock = clock
        loopPeriod = tick
        taskNames = tasks.map(\.name)
        order = tasks.indices.sorted { (tasks[$0].priority, $0) < (tasks[$1].priority, $1) }
        let states = tasks.map { task in
            var s = TaskStatistics()
            s.rateHz = task.rateHz
            return TaskState(body: task.body, period: UInt64((1e9 / task.rateHz).rounded()), budget: UInt64(task.budgetMicroseconds * 1000), stats: s)
        }
        taskCount = states.count
        state = .allocate(capacity: max(states.count, 1))
        state.initialize(from: states, count: states.count)
        taskStatistics = states.map { LatestValue($0.stats) }
        requestedPeriod = tasks.map { _ in PeriodRequest() }
        loop.rateHz = loopRateHz
        loopStatistics = LatestValue(loop)
        publishEvery = max(1, UInt64(loopRateHz))  // percentiles once a second
        scheduleBytes = .allocate(byteCount: 8 + 16 * states.count, alignment: 8)
    }

    deinit {
        state.deinitialize(count: taskCount)
        state.deallocate()
        scheduleBytes.deallocate()
    }

    /// Asks for a task to run at a new rate from its next run on; safe from another thread and
    /// allocation-free. Rates above the loop rate are clamped to it.
    public func setRate(task index: Int, hz: Double) {
        guard requestedPeriod.indices.contains(index), hz > 0, hz.isFinite else { return }
        let newPeriod = max(UInt64((1e9 / hz).rounded()), loopPeriod)
        requestedPeriod[index].period.store(newPeriod, ordering: .releasing)
    }

    /// Index of the task with this name in the table.
    public func taskIndex(named name: String) -> Int? { taskNames.firstIndex(of: name) }

    /// Runs until `stop` becomes true. Call on the sampling thread.
    public func run(until stop: borrowing Atomic<Bool>) {
        start()
        while !stop.load(ordering: .relaxed) {
            clock.sleep(until: deadline)
            runTick()
        }
        publish()
    }

    /// Runs exactly `count` ticks on the calling thread (benchmarks and tests), continuing from
    /// where an earlier call left off.
    public func run(ticks count: Int) {
        if deadline == 0 { start() }
        for _ in 0..<count {
            clock.sleep(until: deadline)
            runTick()
        }
    }

    /// Sets the first deadline one period from now; `run` calls it.
    public func start() {
        let now = clock.now()
        deadline = now + loopPeriod
        for index in 0..<taskCount { state[index].nextDue = deadline }
    }

    /// Runs one tick: call right after waking at the current deadline.
    public func runTick() {
        if hasLedger, let ledger { restartPoint(ledger) }
        let woke = clock.now()
        lateness.record(woke > deadline ? woke - deadline : 0)
        let tickEnd = deadline + loopPeriod
        for index in order {
            runIfDue(index, tickEnd: tickEnd)
        }
        let finished = clock.now()
        loop.ticks += 1
        heartbeat.store(loop.ticks, ordering: .relaxed)
        deadline += loopPeriod
        if finished > deadline {
            loop.overruns += 1
            let behind = (finished - deadline) / loopPeriod + 1
            loop.droppedTicks += behind
            deadline += behind * loopPeriod
        }
        if loop.ticks % publishEvery == 0 { publish() }
    }

    /// Runs every task whose time has come, for a thread that waits on other things in between
    /// (the output thread polls its sockets): there is no tick to fit in, so nothing is skipped
    /// for want of time, and work beyond a budget is counted as an overrun.
    public func runDue() {
        if deadline == 0 { start() }
        for index in order { runIfDue(index, tickEnd: .max) }
        loop.ticks += 1
        if loop.ticks % publishEvery == 0 { publish() }
    }

    private func runIfDue(_ index: Int, tickEnd: UInt64) {
        let task = state + index
        // A plain load first: a rate change is rare, and the exchange is a locked instruction.
        if requestedPeriod[index].period.load(ordering: .relaxed) != 0 {
            let requested = takeRequest(index)
            if requested != 0 {
                task.pointee.nextDue = task.pointee.nextDue - task.pointee.period + requested
                task.pointee.period = requested
                task.pointee.stats.rateHz = 1e9 / Double(requested)
            }
        }
        let started = clock.now()
        guard started >= task.pointee.nextDue else { return }
        guard tickEnd > started, tickEnd - started >= task.pointee.budget else {
            task.pointee.stats.skips += 1
            return
        }
        task.pointee.body()
        let ended = clock.now()
        let execution = ended - started
        let period = task.pointee.period, budget = task.pointee.budget
        var nextDue = task.pointee.nextDue
        var s = task.pointee.stats
        s.runs += 1
        s.totalExecution += execution
        if execution > s.maxExecution { s.maxExecution = execution }
        if execution > budget { s.overruns += 1 }
        if started - nextDue > loopPeriod { s.slips += 1 }
        nextDue += period
        if nextDue <= ended {
            let behind = (ended - nextDue) / period + 1
            s.missed += behind
            nextDue += behind * period
        }
        task.pointee.nextDue = nextDue
        task.pointee.stats = s
    }

    /// A recording's restart point at this tick's start, or a replay's: the schedule (the
    /// deadline, then each task's period and next due time) written or taken up, so a replay
    /// that starts there has its tasks fall due when the recorded ones did.
    private func restartPoint(_ ledger: any HandoverLedger) {
        if ledger.isReplaying {
            guard let bytes = ledger.replayedRestart(), bytes.count == scheduleBytes.count else { return }
            bytes.withUnsafeBytes { scheduleBytes.copyMemory(from: $0) }
            deadline = scheduleBytes.loadUnaligned(as: UInt64.self)
            for index in 0..<taskCount {
                state[index].period = scheduleBytes.loadUnaligned(fromByteOffset: 8 + 16 * index, as: UInt64.self)
                state[index].nextDue = scheduleBytes.loadUnaligned(fromByteOffset: 16 + 16 * index, as: UInt64.self)
                state[index].stats.rateHz = 1e9 / Double(max(state[index].period, 1))
            }
        } else if ledger.wantsRestart {
            scheduleBytes.storeBytes(of: deadline, as: UInt64.self)
            for index in 0..<taskCount {
                scheduleBytes.storeBytes(of: state[index].period, toByteOffset: 8 + 16 * index, as: UInt64.self)
                scheduleBytes.storeBytes(of: state[index].nextDue, toByteOffset: 16 + 16 * index, as: UInt64.self)
            }
            ledger.restart(schedule: UnsafeRawBufferPointer(scheduleBytes))
        }
    }

    /// The new period asked for the task, 0 when none is: the one `setRate` asked (noted in a
    /// recording's ledger), or in a replay the one the recording took here, whatever this
    /// run's other thread asks.
    private func takeRequest(_ index: Int) -> UInt64 {
        guard let ledger else { return requestedPeriod[index].period.exchange(0, ordering: .acquiring) }
        let kind = HandoverKind.taskRate &+ UInt8(truncatingIfNeeded: index)
        if ledger.isReplaying {
            guard let bytes = ledger.replayed(kind: kind), bytes.count == 8 else { return 0 }
            return bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
        }
        var requested = requestedPeriod[index].period.exchange(0, ordering: .acquiring)
        if requested != 0 { withUnsafeBytes(of: &requested) { ledger.note(kind: kind, payload: $0) } }
        return requested
    }

    /// The loop's and the tasks' statistics for other threads, once a second (and at the end):
    /// HEALTH and adaptive sampling read them at that pace, and a copy per run would cost the
    /// loop more than its smaller tasks.
    private func publish() {
        for index in 0..<taskCount { taskStatistics[index].publish(state[index].stats) }
        loop.latenessP50Microseconds = lateness.percentileMicroseconds(0.50)
        loop.latenessP99Microseconds = lateness.percentileMicroseconds(0.99)
        loop.latenessMaxMicroseconds = Double(lateness.maxNanoseconds) / 1000
        loopStatistics.publish(loop)
    }

    /// Statistics as seen from the sampling thread itself (or after it stopped).
    public var currentLoopStatistics: LoopStatistics { loop }
    public func currentTaskStatistics(_ index: Int) -> TaskStatistics {
        index >= 0 && index < taskCount ? state[index].stats : TaskStatistics()
    }

    /// Wake-up lateness percentile over the whole run so far, in microseconds.
    public func latenessPercentile(_ fraction: Double) -> Double { lateness.percentileMicroseconds(fraction) }
    /// The latest wake-up over the whole run so far, in microseconds.
    public var latenessMaximum: Double { Double(lateness.maxNanoseconds) / 1000 }
}

/// A rate change handed from another thread to the loop: a new period in ns, or 0 for none.
private final class PeriodRequest: Sendable {
    let period = Atomic<UInt64>(0)
}
