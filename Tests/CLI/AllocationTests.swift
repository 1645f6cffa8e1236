import LodestoneRuntime
import Testing
@testable import LodestoneBench
@testable import LodestoneSettings
@testable import LodestoneBoard

/// The sampling loop allocates nothing per tick with any chip a board file can select: counted
/// on the sampling thread over N and 2N ticks after warm-up (a count, not a timing). Only an
/// optimised build is what runs on a device; unoptimised code boxes values the optimiser keeps
/// on the stack, so a debug build skips this and scripts/test runs it in release.
@Suite(.serialized) struct AllocationTests {
    @Test(arguments: ["sim", "sim-mpu9250", "sim-lsm6dsox", "sim-turned", "sim-bmp390"])
    func noAllocationPerTick(board name: String) throws {
        #if DEBUG
            print("skipped: allocation counts are checked in release builds (swift test -c release --filter AllocationTests)")
        #else
            let board = try BoardDescription.load(file: EndToEndTests.boardsDirectory + "/" + name + ".json")
            let result = AllocationBench.run(ticks: 300, warmUpTicks: 700, board: board)
            guard result.perTick != nil else {
                print("skipped: \(result.note ?? "allocation counter inactive")")
                return
            }
            #expect(result.overN == 0 && result.over2N == 0, "\(name): \(result.overN) over N, \(result.over2N) over 2N")
        #endif
    }

    /// The same loop recording every input (`run --record`), a restart point among the
    /// counted ticks: the recording costs the loop no allocation either.
    @Test func noAllocationPerTickWhileRecording() throws {
        #if DEBUG
            print("skipped: allocation counts are checked in release builds (swift test -c release --filter AllocationTests)")
        #else
            let result = AllocationBench.run(ticks: 300, warmUpTicks: 700, board: .simulatedBoard, recording: true)
            guard result.perTick != nil else {
                print("skipped: \(result.note ?? "allocation counter inactive")")
                return
            }
            #expect(result.overN == 0 && result.over2N == 0, "recording: \(result.overN) over N, \(result.over2N) over 2N")
        #endif
    }
}
