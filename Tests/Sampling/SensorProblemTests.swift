import LodestoneCore
import LodestoneDevices
import LodestoneHAL
import LodestoneSim
import Testing
@testable import LodestoneSampling

/// Why a sensor fails reaches the output side: a barometer whose address a kernel driver owns
/// (EBUSY) is reported with the words that say what to do, and cleared when it works again.
@Suite struct SensorProblemTests {
    @Test func aKernelDriverOnTheAddressIsNamedThenCleared() throws {
        let clock = ManualClock()
        let bus = SimulatedI2CBus()
        bus.attach(BMP280Emulator(truth: FixedTruth(), clock: clock), at: 0x76)
        let barometer = try #require(DriverCatalog<SimulatedI2CBus>.barometer("bmp280", bus: bus, address: 0x76))
        let pipeline = SensorPipeline(clock: clock, imu: nil, magnetometer: nil, barometer: barometer, gps: nil, qnh: 101_325)
        func run(seconds: Double) {
            for _ in 0..<Int(seconds * 25) {
                clock.advance(by: 40_000_000)
                pipeline.sampleBarometer()
            }
        }
        run(seconds: 0.5)
        #expect(pipeline.problems.problem(.barometer) == nil)

        bus.injectFaults(address: 0x76, count: 1_000, error: .busy(address: 0x76))
        run(seconds: 2)
        let problem = try #require(pipeline.problems.problem(.barometer))
        #expect(problem == .bus(.busy(address: 0x76)))
        #expect(problem.description.contains("owned by a kernel driver: unbind it"))
        #expect(pipeline.problems.problem(.imu) == nil)

        bus.injectFaults(address: 0x76, count: 0, error: .busy(address: 0x76))
        run(seconds: 3)
        #expect(pipeline.problems.problem(.barometer) == nil, "cleared once the chip answers again")
    }

    @Test func aWrongChipNamesBothIdentities() {
        let error = DeviceError.wrongChip(chip: "BMP280", register: 0xD0, expected: 0x58, found: 0x55)
        #expect(error.description.contains("0x58") && error.description.contains("0x55"))
    }
}
