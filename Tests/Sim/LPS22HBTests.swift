import LodestoneCore
import LodestoneDevices
import LodestoneHAL
import LodestoneSim
import Testing

/// The LPS22HB driver against its register-level emulator, and the emulator's auto-increment
/// and block-data-update behaviour the driver depends on.
@Suite struct LPS22HBTests {
    typealias Driver = LPS22HB<SimulatedI2CBus>

    let frosty = SensorTruth(
        specificForce: Vector3(0, 0, -9.80665), rotationRate: .zero, magneticField: .zero,
        pressure: 84_321.9, temperature: -12.34, humidity: 70)
    let warm = SensorTruth(
        specificForce: Vector3(0, 0, -9.80665), rotationRate: .zero, magneticField: .zero,
        pressure: 102_468.2, temperature: 31.07, humidity: 20)

    func attached(_ truth: SensorTruth, address: UInt8 = 0x5D) -> (ManualClock, SimulatedI2CBus, LPS22HBEmulator) {
        let clock = ManualClock()
        let bus = SimulatedI2CBus()
        let emulator = LPS22HBEmulator(truth: FixedTruth(truth), clock: clock)
        emulator.noiseEnabled = false
        bus.attach(emulator, at: address)
        return (clock, bus, emulator)
    }

    @Test func readsTheWorldAtTwoRatesAndFilters() throws {
        for truth in [frosty, warm] {
            for (rate, filter) in [(Driver.OutputRate.hz25, Driver.LowPassFilter.off), (.hz75, .odrOver20), (.hz1, .odrOver9)] {
                let (clock, bus, _) = attached(truth)
                var driver = LPS22HB(bus: bus, outputRate: rate, lowPassFilter: filter)
                try driver.start()
                let sample = try #require(try driver.read(at: clock.now()))
                // One count is 1/4096 hPa = 0.024 Pa and 0.01 degC.
                #expect(abs(sample.pressure - truth.pressure) <= 0.013, "\(rate)")
                #expect(abs(sample.temperature - truth.temperature) <= 0.0051, "\(rate)")
                #expect(sample.humidity == nil)
            }
        }
    }

    @Test func dataReadyFollowsTheOutputRate() throws {
        let (clock, bus, _) = attached(warm)
        var driver = LPS22HB(bus: bus, outputRate: .hz25)
        try driver.start()
        #expect(try driver.read(at: clock.now()) != nil)
        clock.advance(by: 20_000_000)
        #expect(try driver.read(at: clock.now()) == nil)  // 20 ms: nothing new at 25 Hz
        clock.advance(by: 20_000_000)
        #expect(try driver.read(at: clock.now()) != nil)
        #expect(try driver.read(at: clock.now()) == nil)  // P_DA cleared by the read
    }

    @Test func identifiesByWhoAmI() {
        let (_, bus, _) = attached(warm)
        #expect(Driver.identify(bus: bus, address: 0x5D) == Driver.chips[0])
        #expect(Driver.chips[0].name == "lps22hb")
        #expect(Driver.identify(bus: bus, address: 0x5C) == nil)
        bus.attach(BMP280Emulator(truth: FixedTruth(), clock: ManualClock(), variant: .bme280), at: 0x5C)
        #expect(Driver.identify(bus: bus, address: 0x5C) == nil)
    }

    @Test func startRejectsAnotherChip() {
        let bus = SimulatedI2CBus()
        bus.attach(BMP280Emulator(truth: FixedTruth(), clock: ManualClock()), at: 0x5D)
        var driver = LPS22HB(bus: bus)
        #expect(throws: DeviceError.wrongChip(chip: "LPS22HB", register: 0x0F, expected: 0xB1, found: 0x00)) {
            try driver.start()
        }
        #expect(throws: DeviceError.invalidCalibration(chip: "LPS22HB")) { try driver.read(at: 0) }
    }

    @Test func busErrorsSurfaceAndTheDriverRecovers() throws {
        let (clock, bus, _) = attached(frosty)
        var driver = LPS22HB(bus: bus)
        try driver.start()
        bus.injectFaults(address: 0x5D, count: 1, error: .busError(address: 0x5D))
        #expect(throws: DeviceError.bus(.busError(address: 0x5D))) { try driver.read(at: clock.now()) }
        let sample = try #require(try driver.read(at: clock.now()))
        #expect(abs(sample.pressure - frosty.pressure) <= 0.013)
    }

    @Test func withoutAutoIncrementABurstRepeatsOneRegister() throws {
        let (clock, bus, emulator) = attached(warm)
        var driver = LPS22HB(bus: bus)
        try driver.start()
        #expect(emulator.registers[0x11] & 0x10 != 0)
        let device = I2CRegisterDevice(bus: bus, address: 0x5D)
        try device.writeRegister(0x11, 0x00)  // IF_ADD_INC off
        clock.advance(by: 100_000_000)
        var bytes = [UInt8](repeating: 0, count: 3)
        try bytes.withUnsafeMutableBytes { buffer in try device.readRegisters(0x0F, into: buffer) }
        #expect(bytes == [0xB1, 0xB1, 0xB1])
        // The driver's reset turns it back on.
        try driver.start()
        try bytes.withUnsafeMutableBytes { buffer in try device.readRegisters(0x0F, into: buffer) }
        #expect(bytes == [0xB1, 0x3E, 0x10])  // 25 Hz, ODR/20 filter, BDU; IF_ADD_INC
        #expect(try driver.read(at: clock.now()) != nil)
    }

    @Test func blockDataUpdateHoldsAHalfReadConversion() throws {
        let truth = FixedTruth(warm)
        let clock = ManualClock()
        let bus = SimulatedI2CBus()
        let emulator = LPS22HBEmulator(truth: truth, clock: clock)
        emulator.noiseEnabled = false
        bus.attach(emulator, at: 0x5D)
        var driver = LPS22HB(bus: bus, outputRate: .hz75, lowPassFilter: .off)
        try driver.start()
        let device = I2CRegisterDevice(bus: bus, address: 0x5D)
        var low = [UInt8](repeating: 0, count: 2)
        try low.withUnsafeMutableBytes { buffer in try device.readRegisters(0x28, into: buffer) }
        truth.truth.pressure = 90_000
        clock.advance(by: 20_000_000)
        // The half-read conversion is kept: finishing the read still gives the old pressure.
        let held = try #require(try driver.read(at: clock.now()))
        #expect(abs(held.pressure - warm.pressure) <= 0.013)
        clock.advance(by: 20_000_000)
        let fresh = try #require(try driver.read(at: clock.now()))
        #expect(abs(fresh.pressure - 90_000) <= 0.013)
    }
}
