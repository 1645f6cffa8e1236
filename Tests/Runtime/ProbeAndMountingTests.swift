import LodestoneCore
@testable import LodestoneRuntime
import LodestoneSim
import Testing
@testable import LodestoneDevices
@testable import LodestoneSampling
@testable import LodestoneSettings
@testable import LodestoneBoard

@Suite struct ProbeAndMountingTests {
    @Test func probeFindsTheSimulatedBoardsChipsByTheirIDRegisters() {
        let report = Probe.simulated()
        #expect(report.findings.map(\.chip.name) == ["qmc5883l", "mpu6050", "bmp280"])
        #expect(report.findings.map(\.address) == [0x0D, 0x68, 0x76])
        let snippet = Probe.boardSnippet(report)
        #expect(snippet.contains(#""imu": { "chip": "mpu6050", "address": "0x68" }"#))
        #expect(Probe.json(report).contains(#"{"address":"0x76","chip":"bmp280","name":"BMP280","kind":"barometer"}"#))
    }

    @Test func probeReportsWhatTheBoardFileWired() throws {
        var board = BoardDescription.simulatedBoard
        board.imu = BoardDescription.Chip(chip: "mpu6050", address: 0x69)
        board.barometer = BoardDescription.Chip(chip: "bmp280", address: 0x77)
        let report = Probe.simulated(board: board)
        #expect(report.findings.map(\.address) == [0x0D, 0x69, 0x77])
    }

    /// A breakout mounted in any of the 24 ways, described as such in the board file, gives
    /// the same body-frame readings as one lying flat.
    @Test func everyMountingReadsTheWorldInBodyAxes() throws {
        let truth = FixedTruth(
            SensorTruth(
                specificForce: Vector3(1.2, -2.5, -9.4), rotationRate: Vector3(0.1, -0.2, 0.3),
                magneticField: Vector3(18, -6, 40), pressure: 95_000, temperature: 20, humidity: 40))
        for mounting in AxisMapping.allRotations {
            let clock = ManualClock()
            let bus = SimulatedI2CBus()
            let chip = BoardDescription.Chip(chip: "mpu6050", address: 0x68, mounting: mounting)
            for (address, target) in SimulatedBoard.emulators(for: chip, truth: MountedTruth(truth, mounting: mounting), clock: clock, seed: 1) {
                (target as? MPU6050Emulator)?.noiseEnabled = false
                bus.attach(target, at: address)
            }
            var board = BoardDescription.simulatedBoard
            board.imu = chip
            board.magnetometer = nil
            board.barometer = nil
            let pipeline = BoardWiring.pipeline(board: board, bus: { _ in bus }, gps: nil, clock: clock, qnh: 1013.25)
            for _ in 0..<3 {
                clock.advance(by: 10_000_000)
                pipeline.sampleIMU()
            }
            var last: ImuSample?
            pipeline.imuRing.drain { last = $0 }
            let sample = try #require(last, "\(mounting)")
            #expect((sample.acceleration - truth.truth.specificForce).length < 0.01, "\(mounting): \(sample.acceleration)")
            // The emulated gyro has a small bias in its own axes, which turns with the chip;
            // the rate itself must still come out in body axes.
            #expect((sample.rotationRate - truth.truth.rotationRate).length < 0.03, "\(mounting): \(sample.rotationRate)")
        }
    }
}
