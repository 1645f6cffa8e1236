import LodestoneCore
import LodestoneDevices
import LodestoneHAL
import LodestoneSim
import Testing
@testable import LodestoneSampling

/// A sensor that drops out for a few seconds (a loose connector on a trail) is marked
/// degraded, retried with back-off, and re-initialised when it answers again, while the
/// others keep running.
@Suite struct SensorRecoveryTests {
    @Test func aChipThatDropsOutIsDegradedThenRecovered() throws {
        let clock = ManualClock()
        let bus = SimulatedI2CBus()
        let truth = FixedTruth()
        let barometer = BMP280Emulator(truth: truth, clock: clock)
        let magnetometer = QMC5883LEmulator(truth: truth, clock: clock)
        bus.attach(barometer, at: 0x76)
        bus.attach(magnetometer, at: 0x0D)
        let baro = SensorSlot(try #require(DriverCatalog<SimulatedI2CBus>.barometer("bmp280", bus: bus, address: 0x76)))
        let mag = SensorSlot(try #require(DriverCatalog<SimulatedI2CBus>.magnetometer("qmc5883l", bus: bus, address: 0x0D)))
        let period: UInt64 = 40_000_000
        var pressures = 0, fields = 0
        func run(seconds: Double) {
            for _ in 0..<Int(seconds * 25) {
                clock.advance(by: period)
                if baro.sample(at: clock.now()) != nil { pressures += 1 }
                if mag.sample(at: clock.now()) != nil { fields += 1 }
            }
        }
        run(seconds: 1)
        #expect(baro.health == .ok && pressures > 10)

        bus.detach(address: 0x76)  // the barometer's cable comes loose for 3 s
        let fieldsBefore = fields
        run(seconds: 3)
        #expect(baro.health == .degraded)
        #expect(baro.lastError == .bus(.noAcknowledge(address: 0x76)))
        #expect(fields - fieldsBefore > 60, "the magnetometer kept running")
        let errorsWhileOut = baro.errors
        #expect(errorsWhileOut < 20, "retries back off instead of hammering the bus (\(errorsWhileOut))")

        bus.attach(BMP280Emulator(truth: truth, clock: clock), at: 0x76)  // reconnected: a chip fresh from power-on
        pressures = 0
        run(seconds: 6)  // the back-off has grown to at most 5 s
        #expect(baro.health == .ok)
        #expect(baro.recoveries == 1)
        #expect(pressures > 10)
    }

    @Test func transientGlitchesDoNotDegradeASensor() throws {
        let clock = ManualClock()
        let bus = SimulatedI2CBus()
        bus.attach(MPU6050Emulator(truth: FixedTruth(), clock: clock), at: 0x68)
        let imu = SensorSlot(try #require(DriverCatalog<SimulatedI2CBus>.imu("mpu6050", bus: bus, address: 0x68)))
        clock.advance(by: 10_000_000)
        _ = imu.sample(at: clock.now())
        bus.injectFaults(address: 0x68, count: 2, error: .busError(address: 0x68))
        for _ in 0..<5 {
            clock.advance(by: 10_000_000)
            _ = imu.sample(at: clock.now())
        }
        #expect(imu.health == .ok)
        #expect(imu.errors == 2 && imu.recoveries == 0)
    }
}
