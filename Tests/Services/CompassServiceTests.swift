import Glibc
import LodestoneCore
import LodestoneDomain
import LodestoneSim
import Testing
@testable import LodestoneSampling
@testable import LodestoneServices
@testable import LodestoneSettings
@testable import LodestoneBoard

/// Background refinement: readings gathered as the device moves in daily use are fitted once
/// a minute, and a clearly better calibration is adopted, saved and handed to the sampling side.
@Suite struct CompassServiceTests {
    @Test func backgroundRefinementAdoptsAFitFromEverydayMovement() throws {
        let data = "/tmp/lodestone-refine-\(getpid())"
        let clock = ManualClock()
        let bus = SimulatedI2CBus()
        let pipeline = BoardWiring.pipeline(board: .simulatedBoard, bus: { _ in bus }, gps: nil, clock: clock, qnh: 1013.25)
        let compass = CompassService(pipeline: pipeline, dataDirectory: data, now: clock.now())
        #expect(compass.status == .uncalibrated)
        let earth = Vector3(21.6, 1.3, 42.9)
        let hardIron = Vector3(30, -12, 8)
        var seed: UInt64 = 3
        func random() -> Double {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Double(seed >> 11) / Double(1 << 53)
        }
        // Half an hour of wandering: every orientation now and then, a reading each second.
        for second in 0..<1800 {
            let q = Quaternion(roll: (random() - 0.5) * 2 * .pi, pitch: (random() - 0.5) * .pi, yaw: random() * 2 * .pi)
            let chipField = AxisMapping.boardToBody.apply(q.rotateInverse(earth))  // body to breakout axes
            let raw = Vector3(chipField.x * 1.05, chipField.y * 0.96, chipField.z) + hardIron
            let force = q.rotateInverse(Vector3(0, 0, -9.80665))
            compass.add(MagneticSample(time: clock.now(), field: raw, raw: raw, specificForce: force))
            clock.advance(by: 1_000_000_000)
        }
        let adopted = try #require(compass.calibration)
        #expect((adopted.hardIronOffset - hardIron).length < 0.5, "\(adopted.hardIronOffset)")
        #expect(compass.status == .good)
        #expect(pipeline.magnetometerCalibration.read() == adopted)
        #expect(access(data + "/calibration/magnetometer.json", R_OK) == 0)
        // A second service (the next start) loads it.
        let next = CompassService(pipeline: pipeline, dataDirectory: data, now: clock.now())
        #expect(((next.calibration?.hardIronOffset ?? .zero) - adopted.hardIronOffset).length < 1e-3)
    }

    /// The same readings give the same calibration however the output thread's work falls
    /// between them: the fit is tried on the readings' own clock, and each field carries the
    /// accelerometer's reading of its own moment.
    @Test func theFitDependsOnTheReadingsNotOnWhenTheyAreDrained() throws {
        let earth = Vector3(21.6, 1.3, 42.9)
        let hardIron = Vector3(-14, 22, 5)
        var seed: UInt64 = 11
        func random() -> Double {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Double(seed >> 11) / Double(1 << 53)
        }
        var readings: [MagneticSample] = []
        for tenth in 0..<600 {  // a minute of turning, ten readings a second
            let q = Quaternion(roll: (random() - 0.5) * 2 * .pi, pitch: (random() - 0.5) * .pi, yaw: random() * 2 * .pi)
            let raw = AxisMapping.boardToBody.apply(q.rotateInverse(earth)) + hardIron
            readings.append(
                MagneticSample(
                    time: 1_000_000_000 + UInt64(tenth) * 100_000_000, field: raw, raw: raw,
                    specificForce: q.rotateInverse(Vector3(0, 0, -9.80665))))
        }
        let bus = SimulatedI2CBus()
        func calibration(drainingEvery batch: Int) -> MagnetometerCalibration? {
            let clock = ManualClock()
            let pipeline = BoardWiring.pipeline(board: .simulatedBoard, bus: { _ in bus }, gps: nil, clock: clock, qnh: 1013.25)
            let compass = CompassService(pipeline: pipeline, dataDirectory: nil, now: clock.now())
            for (index, reading) in readings.enumerated() {
                compass.add(reading)
                if index % batch == batch - 1 {
                    clock.advance(by: UInt64(batch) * 100_000_000)
                    _ = compass.tick(NavigationState(), now: clock.now())
                }
            }
            return compass.calibration
        }
        let promptly = try #require(calibration(drainingEvery: 1))
        #expect((promptly.hardIronOffset - hardIron).length < 0.5, "\(promptly.hardIronOffset)")
        for batch in [7, 60] {
            #expect(calibration(drainingEvery: batch) == promptly, "drained every \(batch) readings")
        }
    }

    /// (Standing still the force is gravity alone, so the pipeline's published reading and the
    /// one the field carries are the same.)
    @Test func eachFieldCarriesTheForceOfItsOwnMoment() {
        let clock = ManualClock()
        let bus = SimulatedI2CBus()
        bus.attach(MPU6050Emulator(truth: FixedTruth(), clock: clock), at: 0x68)
        bus.attach(QMC5883LEmulator(truth: FixedTruth(), clock: clock), at: 0x0D)
        var board = BoardDescription.simulatedBoard
        board.barometer = nil
        let pipeline = BoardWiring.pipeline(board: board, bus: { _ in bus }, gps: nil, clock: clock, qnh: 1013.25)
        var paired = 0
        for _ in 0..<10 {
            clock.advance(by: 20_000_000)
            pipeline.sampleIMU()
            pipeline.sampleMagnetometer()
            pipeline.process()
            let felt = pipeline.newestState.imu?.acceleration
            pipeline.magneticRing.drain { field in
                if let force = field.specificForce, force == felt { paired += 1 }
            }
        }
        #expect(paired >= 8, "\(paired) of 10 fields carried the force read beside them")
    }
}
