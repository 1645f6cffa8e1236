import LodestoneCore
import LodestoneDevices
import LodestoneHAL
import LodestoneSim
import Testing

/// The real drivers over a recorded bus and clock, then over the recording alone: the same
/// samples, bit for bit; a driver that asks what the recording does not hold is refused with
/// the first question that differs.
@Suite struct RecordAndReplayDriverTests {
    /// An IMU and a barometer read for `ticks` ticks of 10 ms, every answer recorded.
    static func record(ticks: Int) throws -> (bytes: [UInt8], samples: [String]) {
        let manual = ManualClock()
        let world = SensorTruth(
            specificForce: Vector3(1.2, -2.5, -9.4), rotationRate: Vector3(0.1, -0.2, 0.3),
            magneticField: Vector3(18.0, -6.0, 40.0), pressure: 95_432.1, temperature: 21.5, humidity: 40)
        let simulated = SimulatedI2CBus()
        simulated.attach(MPU6050Emulator(truth: FixedTruth(world), clock: manual), at: 0x68)
        simulated.attach(BMP280Emulator(truth: FixedTruth(world), clock: manual, seed: 3), at: 0x76)
        let recorder = InputRecorder()
        let bus = RecordingI2CBus(simulated, bus: 0, recorder: recorder)
        let clock = RecordingClock(manual, recorder: recorder)
        clock.claim()
        var bytes: [UInt8] = []
        let samples = try read(bus: bus, clock: clock, ticks: ticks) {
            manual.advance(by: 10_000_000)
            recorder.ring.drain { bytes.append(contentsOf: $0) }
        }
        recorder.ring.drain { bytes.append(contentsOf: $0) }
        #expect(recorder.lostBytes == 0)
        return (bytes, samples)
    }

    static func read<Bus: I2CBus>(bus: Bus, clock: any MonotonicClock, ticks: Int, between: () -> Void = {}) throws -> [String] {
        var imu = MPU6050(bus: bus, sampleRateHz: 100)
        var barometer = BMP280(bus: bus, address: 0x76)
        try imu.start()
        try barometer.start()
        var samples: [String] = []
        for _ in 0..<ticks {
            between()
            if let sample = try imu.read(at: clock.now()) { samples.append("\(sample)") }
            if let sample = try barometer.read(at: clock.now()) { samples.append("\(sample)") }
        }
        return samples
    }

    @Test func theDriversReadTheRecordingAsTheyReadTheChips() throws {
        let recorded = try Self.record(ticks: 300)
        #expect(recorded.samples.count > 300)
        let stream = ReplayStream(recorded.bytes)
        let replayed = try Self.read(bus: ReplayI2CBus(stream: stream, bus: 0), clock: ReplayClock(stream: stream), ticks: 300)
        #expect(stream.divergence == nil)
        #expect(stream.isFinished)
        #expect(replayed == recorded.samples)
        // About 30 bytes a tick: an IMU and a barometer read, two clock readings.
        #expect(recorded.bytes.count < 300 * 40)
    }

    @Test func anotherBoardIsRefusedWithTheFirstQuestionThatDiffers() throws {
        let recorded = try Self.record(ticks: 20)
        let stream = ReplayStream(recorded.bytes)
        // A board file whose barometer starts first (the recording's board started its IMU first).
        var barometer = BMP280(bus: ReplayI2CBus(stream: stream, bus: 0), address: 0x76)
        #expect(throws: (any Error).self) { try barometer.start() }
        let divergence = try #require(stream.divergence)
        #expect(divergence.hasPrefix("event 1: the device asked for an I2C transfer on bus 0 to 0x76"), "\(divergence)")
        #expect(divergence.contains("the recording holds an I2C transfer on bus 0 to 0x68"), "\(divergence)")
        // After the first difference nothing more is answered.
        var imu = MPU6050(bus: ReplayI2CBus(stream: stream, bus: 0))
        #expect(throws: (any Error).self) { try imu.start() }
    }

    @Test func aRecordingThatEndsIsSaidWhereItEnds() throws {
        let recorded = try Self.record(ticks: 5)
        let stream = ReplayStream(recorded.bytes)
        #expect(throws: (any Error).self) {
            _ = try Self.read(bus: ReplayI2CBus(stream: stream, bus: 0), clock: ReplayClock(stream: stream), ticks: 50)
        }
        let divergence = try #require(stream.divergence)
        #expect(divergence.hasPrefix("the recording ends"), "\(divergence)")
    }
}
