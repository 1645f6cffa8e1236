import CAllocationCounter
import LodestoneHAL
import LodestoneCore
import LodestoneSim
import LodestoneRuntime
import LodestoneSampling
import LodestoneSettings
import LodestoneBoard

/// Heap allocations per tick of the whole sampling loop (every task of `lodestone run`, on
/// the simulated board, GPS included), counted on the sampling thread. After a warm-up, it
/// counts over N ticks and then over 2N ticks: steady-state allocation would make the second
/// count twice the first; the loop is allocation-free when both are zero.
public enum AllocationBench {
    public struct Result: Sendable {
        public var ticks: Int
        public var overN: Int
        public var over2N: Int
        /// nil when the counter is not linked in (a sanitizer build).
        public var perTick: Double?
        public var note: String?
    }

    /// - Parameter recording: with every input recorded as `run --record` does (the bus, the
    ///   receiver and the clock wrapped, the handovers noted), a restart point in the counted
    ///   ticks, and the recording's ring emptied as its writer would.
    public static func run(ticks: Int = 1000, warmUpTicks: Int = 1500, board: BoardDescription = .simulatedBoard, recording: Bool = false) -> Result {
        guard lodestone_allocation_counter_active() == 1 else {
            return Result(
                ticks: ticks, overN: 0, over2N: 0, perTick: nil,
                note: "the allocation counter is not active in this build (sanitizers replace malloc)")
        }
        var configuration = Configuration()
        configuration.scenario = "walk"
        configuration.simulatedGPSRateHz = 10
        configuration.loopRateHz = 1000
        let clock = SystemMonotonicClock()
        guard let simulated = try? SimulatedBoard(board: board, scenario: .walk, clock: clock, configuration: configuration),
            let serial = try? LinuxSerialPort(path: simulated.gps.devicePath, baudRate: 9600)
        else {
            return Result(ticks: ticks, overN: 0, over2N: 0, perTick: nil, note: "the simulated board could not start")
        }
        simulated.gps.start(clock: clock)
        defer { simulated.gps.stop() }
        guard recording else {
            let pipeline = BoardWiring.pipeline(board: board, bus: { _ in simulated.bus }, gps: serial, clock: clock, qnh: configuration.qnh)
            return measure(pipeline, clock: clock, configuration: configuration, ticks: ticks, warmUpTicks: warmUpTicks)
        }
        let recorder = InputRecorder()
        let recorded = RecordingClock(clock, recorder: recorder)
        recorded.claim()
        let pipeline = BoardWiring.pipeline(
            board: board, bus: { _ in RecordingI2CBus(simulated.bus, bus: 0, recorder: recorder) },
            gps: RecordingSerialPort(serial, recorder: recorder), clock: recorded, qnh: configuration.qnh)
        pipeline.ledger = recorder
        return measure(
            pipeline, clock: recorded, configuration: configuration, ticks: ticks, warmUpTicks: warmUpTicks, ledger: recorder,
            emptied: { recorder.ring.drain { _ in } }, beforeCounting: { recorder.requestRestart() })
    }

    private static func measure<Clock: MonotonicClock>(
        _ pipeline: SensorPipeline, clock: Clock, configuration: Configuration, ticks: Int, warmUpTicks: Int,
        ledger: (any HandoverLedger)? = nil, emptied: () -> Void = {}, beforeCounting: () -> Void = {}
    ) -> Result {
        guard
            let scheduler = try? FixedRateScheduler(
                loopRateHz: configuration.loopRateHz,
                tasks: TaskTable.tasks(for: pipeline, configuration: configuration),
                clock: clock)
        else {
            return Result(ticks: ticks, overN: 0, over2N: 0, perTick: nil, note: "the task table was refused")
        }
        scheduler.ledger = ledger
        // The output side drains the rings as `run` does, so they reach their steady state too.
        scheduler.run(ticks: warmUpTicks)
        pipeline.imuRing.drain { _ in }
        pipeline.magneticRing.drain { _ in }
        pipeline.pressureRing.drain { _ in }
        pipeline.fixRing.drain { _ in }
        pipeline.stateRing.drain { _ in }
        emptied()
        beforeCounting()
        let start = lodestone_thread_allocations()
        scheduler.run(ticks: ticks)
        let afterN = lodestone_thread_allocations()
        emptied()
        scheduler.run(ticks: 2 * ticks)
        let after2N = lodestone_thread_allocations()
        let overN = Int(afterN - start), over2N = Int(after2N - afterN)
        let fixes = pipeline.newestState.fix.hasPosition
        return Result(
            ticks: ticks, overN: overN, over2N: over2N, perTick: Double(over2N - overN) / Double(ticks),
            note: fixes ? nil : "no GPS fix was parsed during the measurement")
    }
}
