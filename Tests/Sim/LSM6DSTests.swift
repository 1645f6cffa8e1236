import LodestoneCore
import LodestoneDevices
import LodestoneHAL
import LodestoneSim
import Testing

@Suite struct LSM6DSTests {
    typealias Driver = LSM6DS<SimulatedI2CBus>
    let tilted = SensorTruth(
        specificForce: Vector3(1.2, -2.5, -9.4), rotationRate: Vector3(0.1, -0.2, 0.3),
        magneticField: Vector3(18.0, -6.0, 40.0), pressure: 95_432.1, temperature: 21.5, humidity: 40)

    func board(_ variant: LSM6DSEmulator.Variant, address: UInt8 = 0x6A) -> (ManualClock, SimulatedI2CBus, LSM6DSEmulator) {
        let clock = ManualClock()
        let bus = SimulatedI2CBus()
        let emulator = LSM6DSEmulator(truth: FixedTruth(tilted), clock: clock, variant: variant)
        emulator.noiseEnabled = false
        emulator.gyroBias = .zero
        bus.attach(emulator, at: address)
        return (clock, bus, emulator)
    }

    @Test(arguments: [LSM6DSEmulator.Variant.lsm6ds3, .lsm6ds3trc, .lsm6dsox])
    func readsTheWorldInSeveralRanges(variant: LSM6DSEmulator.Variant) throws {
        for (accel, gyro) in [
            (Driver.AccelerometerRange.g2, Driver.GyroscopeRange.dps125), (.g4, .dps500),
            (.g16, .dps2000)
        ] {
            let (clock, bus, _) = board(variant)
            var driver = LSM6DS(bus: bus, accelerometerRange: accel, gyroscopeRange: gyro)
            try driver.start()
            #expect(driver.variant.whoAmI == variant.whoAmI)
            #expect(try driver.read(at: clock.now()) == nil)  // first sample one period away
            clock.advance(by: 10_000_000)
            let sample = try #require(try driver.read(at: clock.now()))
            let accelResolution = accel.milligPerCount / 1000 * 9.80665
            let gyroResolution = gyro.millidegreesPerSecondPerCount / 1000 * Double.pi / 180
            #expect((sample.acceleration - ChipMounting.chipAxes(fromBody: tilted.specificForce)).length <= 0.87 * accelResolution)
            #expect((sample.rotationRate - ChipMounting.chipAxes(fromBody: tilted.rotationRate)).length <= 0.87 * gyroResolution)
            #expect(abs(sample.temperature - 24.5) <= 0.5 / variant.temperatureCountsPerDegree)
            #expect(try driver.read(at: clock.now()) == nil)  // status cleared by reading the outputs
        }
    }

    @Test func identifiesEachVariantAndNotOtherChips() {
        #expect(Driver.identify(bus: board(.lsm6ds3).1, address: 0x6A) == Driver.chips[0])
        #expect(Driver.identify(bus: board(.lsm6ds3trc).1, address: 0x6A) == Driver.chips[0])
        #expect(Driver.identify(bus: board(.lsm6dsox, address: 0x6B).1, address: 0x6B) == Driver.chips[1])
        #expect(Driver.chips.map(\.name) == ["lsm6ds3", "lsm6dsox"])
        let other = SimulatedI2CBus()
        other.attach(MPU9250Emulator(truth: FixedTruth(), clock: ManualClock()), at: 0x6A)
        #expect(Driver.identify(bus: other, address: 0x6A) == nil)
        #expect(MPU9250<SimulatedI2CBus>.identify(bus: board(.lsm6dsox).1, address: 0x6A) == nil)
    }

    @Test func startRefusesAnotherChip() {
        let bus = SimulatedI2CBus()
        bus.attach(MPU6050Emulator(truth: FixedTruth(), clock: ManualClock()), at: 0x6A)
        var driver = LSM6DS(bus: bus)
        #expect(throws: DeviceError.wrongChip(chip: "LSM6DS3/LSM6DSOX", register: 0x0F, expected: 0x6C, found: 0x00)) {
            try driver.start()
        }
    }

    @Test func busErrorSurfacesAndTheDriverRecovers() throws {
        let (clock, bus, _) = board(.lsm6ds3)
        var driver = LSM6DS(bus: bus)
        try driver.start()
        clock.advance(by: 10_000_000)
        bus.injectFaults(address: 0x6A, count: 1, error: .busError(address: 0x6A))
        #expect(throws: DeviceError.bus(.busError(address: 0x6A))) { try driver.read(at: clock.now()) }
        #expect(try driver.read(at: clock.now()) != nil)
    }

    @Test func startRestoresAutoIncrementThatWasTurnedOff() throws {
        let (clock, bus, _) = board(.lsm6dsox)
        let device = I2CRegisterDevice(bus: bus, address: 0x6A)
        try device.writeRegister(0x12, 0x00)  // IF_INC off
        var bytes = [UInt8](repeating: 0, count: 2)
        try bytes.withUnsafeMutableBytes { try device.readRegisters(0x0F, into: $0) }
        #expect(bytes == [0x6C, 0x6C])  // the pointer stays on WHO_AM_I
        var driver = LSM6DS(bus: bus, accelerometerRange: .g8)
        try driver.start()
        clock.advance(by: 10_000_000)
        let sample = try #require(try driver.read(at: clock.now()))
        #expect((sample.acceleration - ChipMounting.chipAxes(fromBody: tilted.specificForce)).length < 0.01)
    }

    @Test func outputRateSetsTheDataReadyCadence() throws {
        let (clock, bus, _) = board(.lsm6ds3trc)
        var driver = LSM6DS(bus: bus, outputRate: .hz26)
        try driver.start()
        clock.advance(by: 20_000_000)
        #expect(try driver.read(at: clock.now()) == nil)  // 26 Hz: 38 ms between samples
        clock.advance(by: 20_000_000)
        #expect(try driver.read(at: clock.now()) != nil)
    }
}
