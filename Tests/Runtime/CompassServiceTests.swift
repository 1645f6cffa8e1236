import Glibc
import LodestoneCore
import LodestoneDomain
@testable import LodestoneRuntime
import LodestoneSim
import Testing

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
            let chipField = AxisMapping.boardToBody.apply(q.rotateInverse(earth))   // body to breakout axes
            let raw = Vector3(chipField.x * 1.05, chipField.y * 0.96, chipField.z) + hardIron
            let force = q.rotateInverse(Vector3(0, 0, -9.80665))
            compass.add(MagneticSample(time: clock.now(), field: raw, raw: raw), specificForce: force)
            clock.advance(by: 1_000_000_000)
            if second % 10 == 0 { _ = compass.tick(NavigationState(), now: clock.now()) }
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
}
