import LodestoneCore
import LodestoneSim
import Testing
@testable import LodestoneSampling
@testable import LodestoneSettings
@testable import LodestoneBoard

/// Adaptive sampling's request for a slower or faster chip reaches the chip's own rate
/// registers, on the sampling thread, without a gap in the stream.
@Suite struct ChipRateTests {
    @Test func theIMUAndMagnetometerFollowARateRequest() throws {
        let clock = ManualClock()
        let bus = SimulatedI2CBus()
        let imu = MPU6050Emulator(truth: FixedTruth(), clock: clock)
        let magnetometer = QMC5883LEmulator(truth: FixedTruth(), clock: clock)
        bus.attach(imu, at: 0x68)
        bus.attach(magnetometer, at: 0x0D)
        var board = BoardDescription.simulatedBoard
        board.barometer = nil
        let pipeline = BoardWiring.pipeline(board: board, bus: { _ in bus }, gps: nil, clock: clock, qnh: 1013.25)
        for _ in 0..<5 {
            clock.advance(by: 10_000_000)
            pipeline.sampleIMU()
            pipeline.sampleMagnetometer()
        }
        #expect(imu.registers[0x19] == 9)  // 1 kHz / 10 = 100 Hz
        #expect((magnetometer.registers[0x09] >> 2) & 3 == 2)  // 100 Hz
        pipeline.requestChipRate(imu: 25, magnetometer: 10)
        var samples = 0
        pipeline.imuRing.drain { _ in }
        for _ in 0..<100 {
            clock.advance(by: 40_000_000)
            pipeline.sampleIMU()
            pipeline.sampleMagnetometer()
        }
        pipeline.imuRing.drain { _ in samples += 1 }
        #expect(imu.registers[0x19] == 39)  // 1 kHz / 40 = 25 Hz
        #expect((magnetometer.registers[0x09] >> 2) & 3 == 0)  // 10 Hz
        #expect(samples >= 99, "no gap across the change: \(samples) samples in 4 s at 25 Hz")
    }
}
