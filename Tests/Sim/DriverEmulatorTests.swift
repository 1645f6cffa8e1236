import LodestoneCore
import LodestoneDevices
import LodestoneHAL
import LodestoneSim
import Testing

/// The real drivers against the register-level emulators (written separately from the
/// datasheets), and the BMP280's integer compensation against the datasheet's worked example.
@Suite struct DriverEmulatorTests {
    let tilted = SensorTruth(
        specificForce: Vector3(1.2, -2.5, -9.4), rotationRate: Vector3(0.1, -0.2, 0.3),
        magneticField: Vector3(18.0, -6.0, 40.0), pressure: 95_432.1, temperature: 21.5, humidity: 40)

    @Test func bmp280CompensationMatchesTheDatasheetExample() {
        let c = BMP280<SimulatedI2CBus>.Calibration(
            t1: 27504, t2: 26435, t3: -1000, p1: 36477, p2: -10685, p3: 3024,
            p4: 2855, p5: 140, p6: -7, p7: 15500, p8: -14600, p9: 6000)
        let fine = BMP280<SimulatedI2CBus>.fineTemperature(519_888, c)
        #expect(fine == 128_422)
        #expect(BMP280<SimulatedI2CBus>.centidegrees(fine: fine) == 2508)
        let q24_8 = BMP280<SimulatedI2CBus>.pressureQ24_8(415_148, fine: fine, c)
        #expect(q24_8 == 25_767_233)
        #expect(abs(Double(q24_8) / 256 - 100_653.25) < 0.01)
    }

    @Test func bmp280ReadsTheWorldThroughTheEmulator() throws {
        let clock = ManualClock()
        let bus = SimulatedI2CBus()
        let emulator = BMP280Emulator(truth: FixedTruth(tilted), clock: clock)
        emulator.noiseEnabled = false
        bus.attach(emulator, at: 0x76)
        var driver = BMP280(bus: bus)
        try driver.start()
        clock.advance(by: 100_000_000)
        let sample = try #require(try driver.read(at: clock.now()))
        #expect(abs(sample.pressure - 95_432.1) < 0.5)
        #expect(abs(sample.temperature - 21.5) < 0.01)
    }

    @Test func bmp280RefusesToReadBeforeItIsStarted() {
        let bus = SimulatedI2CBus()
        bus.attach(BMP280Emulator(truth: FixedTruth(), clock: ManualClock()), at: 0x76)
        var driver = BMP280(bus: bus)
        #expect(throws: DeviceError.invalidCalibration(chip: "BMP280")) { try driver.read(at: 0) }
    }

    @Test func bmp280SkipsTheResetValueOfItsDataRegisters() throws {
        let bus = SimulatedI2CBus()
        let emulator = BMP280Emulator(truth: FixedTruth(), clock: ManualClock())
        bus.attach(emulator, at: 0x76)
        var driver = BMP280(bus: bus)
        try driver.start()
        emulator.registerWritten(0xF4, 0x00)  // back to sleep: no conversion happens
        emulator.registerWritten(0xE0, 0xB6)  // reset: data registers read 0x80000
        try driver.start()
        emulator.registerWritten(0xF4, 0x00)
        #expect(try driver.read(at: 0) == nil)
    }

    @Test func mpu6050ReadsTheWorldInEveryRange() throws {
        for (accel, gyro) in [
            (MPU6050<SimulatedI2CBus>.AccelerometerRange.g2, MPU6050<SimulatedI2CBus>.GyroscopeRange.dps250),
            (.g4, .dps500), (.g16, .dps2000)
        ] {
            let clock = ManualClock()
            let bus = SimulatedI2CBus()
            let emulator = MPU6050Emulator(truth: FixedTruth(tilted), clock: clock)
            emulator.noiseEnabled = false
            emulator.gyroBias = .zero
            bus.attach(emulator, at: 0x68)
            var driver = MPU6050(bus: bus, accelerometerRange: accel, gyroscopeRange: gyro)
            try driver.start()
            clock.advance(by: 10_000_000)
            let sample = try #require(try driver.read(at: clock.now()))
            let expected = ChipMounting.chipAxes(fromBody: tilted.specificForce)
            let resolution = 9.80665 / accel.countsPerG
            #expect((sample.acceleration - expected).length < 2 * resolution)
            #expect((sample.rotationRate - ChipMounting.chipAxes(fromBody: tilted.rotationRate)).length < 0.002)
            #expect(abs(sample.temperature - 24.5) < 0.01)
        }
    }

    @Test func mpu6050DataReadyFollowsTheSampleRate() throws {
        let clock = ManualClock()
        let bus = SimulatedI2CBus()
        bus.attach(MPU6050Emulator(truth: FixedTruth(), clock: clock), at: 0x68)
        var driver = MPU6050(bus: bus, sampleRateHz: 100)
        try driver.start()
        #expect(try driver.read(at: clock.now()) != nil)  // first sample
        clock.advance(by: 4_000_000)
        #expect(try driver.read(at: clock.now()) == nil)  // 4 ms later: nothing new at 100 Hz
        clock.advance(by: 6_000_000)
        #expect(try driver.read(at: clock.now()) != nil)
    }

    @Test func qmc5883lShowsHardAndSoftIron() throws {
        let clock = ManualClock()
        let bus = SimulatedI2CBus()
        let emulator = QMC5883LEmulator(truth: FixedTruth(tilted), clock: clock)
        emulator.noiseEnabled = false
        bus.attach(emulator, at: 0x0D)
        for range in [QMC5883L<SimulatedI2CBus>.Range.gauss2, .gauss8] {
            var driver = QMC5883L(bus: bus, range: range)
            try driver.start()
            clock.advance(by: 20_000_000)
            let clean = try #require(try driver.read(at: clock.now()))
            let expected = ChipMounting.chipAxes(fromBody: tilted.magneticField)
            #expect((clean.field - expected).length < 2 / range.countsPerMicrotesla)
            #expect(try driver.read(at: clock.now()) == nil)  // DRDY cleared by reading
        }
        emulator.distortion.hardIron = Vector3(10, -5, 3)
        var driver = QMC5883L(bus: bus)
        try driver.start()
        clock.advance(by: 20_000_000)
        let offset = try #require(try driver.read(at: clock.now()))
        #expect(((offset.field - ChipMounting.chipAxes(fromBody: tilted.magneticField)) - Vector3(10, -5, 3)).length < 0.1)
    }

    @Test func wrongChipAndMissingChipAreTypedErrors() {
        let bus = SimulatedI2CBus()
        bus.attach(QMC5883LEmulator(truth: FixedTruth(), clock: ManualClock()), at: 0x68)  // a magnetometer where the IMU should be
        var imu = MPU6050(bus: bus)
        #expect(throws: DeviceError.wrongChip(chip: "MPU-6050", register: 0x75, expected: 0x68, found: 0x00)) { try imu.start() }
        var baro = BMP280(bus: bus, address: 0x76)
        #expect(throws: DeviceError.bus(.noAcknowledge(address: 0x76))) { try baro.start() }
    }

    @Test func injectedFaultsSurfaceAndTheDriverRecovers() throws {
        let clock = ManualClock()
        let bus = SimulatedI2CBus()
        bus.attach(MPU6050Emulator(truth: FixedTruth(), clock: clock), at: 0x68)
        var driver = MPU6050(bus: bus)
        try driver.start()
        bus.injectFaults(address: 0x68, count: 2, error: .busError(address: 0x68))
        clock.advance(by: 10_000_000)
        #expect(throws: DeviceError.bus(.busError(address: 0x68))) { try driver.read(at: clock.now()) }
        #expect(throws: DeviceError.bus(.busError(address: 0x68))) { try driver.read(at: clock.now()) }
        #expect(try driver.read(at: clock.now()) != nil)
    }
}
