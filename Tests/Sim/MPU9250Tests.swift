import LodestoneCore
import LodestoneDevices
import LodestoneHAL
import LodestoneSim
import Testing

@Suite struct MPU9250Tests {
    typealias Driver = MPU9250<SimulatedI2CBus>
    let tilted = SensorTruth(
        specificForce: Vector3(1.2, -2.5, -9.4), rotationRate: Vector3(0.1, -0.2, 0.3),
        magneticField: Vector3(18.0, -6.0, 40.0), pressure: 95_432.1, temperature: 21.5, humidity: 40)

    func board(variant: MPU9250Emulator.Variant = .mpu9250) -> (ManualClock, SimulatedI2CBus, MPU9250Emulator) {
        let clock = ManualClock()
        let bus = SimulatedI2CBus()
        let emulator = MPU9250Emulator(truth: FixedTruth(tilted), clock: clock, variant: variant)
        emulator.noiseEnabled = false
        emulator.gyroBias = .zero
        bus.attach(emulator, at: 0x68)
        bus.attach(emulator.magnetometer, at: 0x0C)
        return (clock, bus, emulator)
    }

    @Test func readsTheWorldInSeveralRanges() throws {
        for (accel, gyro) in [(Driver.AccelerometerRange.g2, Driver.GyroscopeRange.dps250), (.g8, .dps1000), (.g16, .dps2000)] {
            let (clock, bus, _) = board()
            var driver = MPU9250(bus: bus, accelerometerRange: accel, gyroscopeRange: gyro)
            try driver.start()
            clock.advance(by: 10_000_000)
            let sample = try #require(try driver.read(at: clock.now()))
            let accelResolution = 9.80665 / accel.countsPerG
            let gyroResolution = Double.pi / 180 / gyro.countsPerDegreePerSecond
            #expect((sample.acceleration - ChipMounting.chipAxes(fromBody: tilted.specificForce)).length <= 0.87 * accelResolution)
            #expect((sample.rotationRate - ChipMounting.chipAxes(fromBody: tilted.rotationRate)).length <= 0.87 * gyroResolution)
            #expect(abs(sample.temperature - 24.5) <= 0.5 / 333.87)
            #expect(try driver.read(at: clock.now()) == nil)  // INT_STATUS cleared by the read
        }
    }

    @Test func dataReadyFollowsTheSampleRate() throws {
        let (clock, bus, _) = board()
        var driver = MPU9250(bus: bus, sampleRateHz: 50)
        try driver.start()
        #expect(try driver.read(at: clock.now()) != nil)
        clock.advance(by: 15_000_000)
        #expect(try driver.read(at: clock.now()) == nil)  // 15 ms: nothing new at 50 Hz
        clock.advance(by: 5_000_000)
        #expect(try driver.read(at: clock.now()) != nil)
    }

    @Test func identifiesBothVariantsAndNotOtherChips() throws {
        let (_, bus, _) = board()
        #expect(Driver.identify(bus: bus, address: 0x68) == Driver.chips[0])
        let (_, bus9255, _) = board(variant: .mpu9255)
        #expect(Driver.identify(bus: bus9255, address: 0x68) == Driver.chips[1])
        var driver = MPU9250(bus: bus9255)
        try driver.start()
        let other = SimulatedI2CBus()
        other.attach(MPU6050Emulator(truth: FixedTruth(), clock: ManualClock()), at: 0x68)
        #expect(Driver.identify(bus: other, address: 0x68) == nil)
        #expect(MPU6050<SimulatedI2CBus>.identify(bus: bus, address: 0x68) == nil)
    }

    @Test func startRefusesAnotherChip() {
        let bus = SimulatedI2CBus()
        bus.attach(MPU6050Emulator(truth: FixedTruth(), clock: ManualClock()), at: 0x68)
        var driver = MPU9250(bus: bus)
        #expect(throws: DeviceError.wrongChip(chip: "MPU-9250", register: 0x75, expected: 0x71, found: 0x68)) {
            try driver.start()
        }
    }

    @Test func busErrorSurfacesAndTheDriverRecovers() throws {
        let (clock, bus, _) = board()
        var driver = MPU9250(bus: bus)
        try driver.start()
        clock.advance(by: 10_000_000)
        bus.injectFaults(address: 0x68, count: 2, error: .busError(address: 0x68))
        #expect(throws: DeviceError.bus(.busError(address: 0x68))) { try driver.read(at: clock.now()) }
        #expect(throws: DeviceError.bus(.busError(address: 0x68))) { try driver.read(at: clock.now()) }
        #expect(try driver.read(at: clock.now()) != nil)
    }

    @Test func startOpensTheBypassToTheMagnetometer() throws {
        let (clock, bus, emulator) = board()
        typealias Mag = AK8963<SimulatedI2CBus>
        #expect(Mag.identify(bus: bus, address: 0x0C) == nil)  // hidden behind the MPU
        var magnetometer = AK8963(bus: bus)
        #expect(throws: DeviceError.wrongChip(chip: "AK8963", register: 0x00, expected: 0x48, found: 0xFF)) {
            try magnetometer.start()
        }
        var imu = MPU9250(bus: bus)
        try imu.start()
        #expect(Mag.identify(bus: bus, address: 0x0C) == Mag.chips[0])
        try magnetometer.start()
        clock.advance(by: 10_000_000)
        let sample = try #require(try magnetometer.read(at: clock.now()))
        // The AK8963 die's X and Y are the MPU's Y and X, its Z the MPU's -Z.
        let mpu = ChipMounting.chipAxes(fromBody: tilted.magneticField)
        #expect((sample.field - Vector3(mpu.y, mpu.x, -mpu.z)).length <= 0.87 * 0.15 * 1.5)
        // A device reset closes the bypass again.
        try I2CRegisterDevice(bus: bus, address: 0x68).writeRegister(0x6B, 0x80)
        #expect(Mag.identify(bus: bus, address: 0x0C) == nil)
        _ = emulator
    }
}
