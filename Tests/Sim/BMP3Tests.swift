import LodestoneCore
import LodestoneDevices
import LodestoneHAL
import LodestoneSim
import Testing

/// The BMP388/BMP390 driver: coefficient scaling, variants by chip ID, and the driver against
/// its register-level emulator.
@Suite struct BMP3Tests {
    typealias Driver = BMP3<SimulatedI2CBus>

    let alpine = SensorTruth(
        specificForce: Vector3(0, 0, -9.80665), rotationRate: .zero, magneticField: .zero,
        pressure: 71_234.5, temperature: -3.8, humidity: 30)
    let coastal = SensorTruth(
        specificForce: Vector3(0, 0, -9.80665), rotationRate: .zero, magneticField: .zero,
        pressure: 101_987.6, temperature: 28.45, humidity: 80)

    /// The scaled coefficients of Bosch's forum calculation sheet for this chip:
    /// PAR_T1 = 27322 / 2^-8 = 6994432, PAR_T2 = 18880 / 2^30 = 1.758e-5, PAR_T3 = -10 / 2^48 = -3.553e-14,
    /// PAR_P1 = (395 - 2^14) / 2^20 = -0.0152483, PAR_P2 = (-2608 - 2^14) / 2^29 = -3.538e-5,
    /// PAR_P5 = 25371 / 2^-3 = 202968, PAR_P6 = 30991 / 2^6 = 484.23438, PAR_P7 = -13 / 2^8 = -0.0507813.
    @Test func coefficientsAreScaledAsTheDatasheetSays() {
        let c = Driver.Calibration(
            t1: 27322, t2: 18880, t3: -10, p1: 395, p2: -2608, p3: 35, p4: 0, p5: 25371, p6: 30991,
            p7: -13, p8: -10, p9: 15680, p10: 24, p11: -60)
        let p = Driver.Parameters(c)
        #expect(p.t1 == 6_994_432)
        #expect(abs(p.t2 - 1.758e-5) < 0.001e-5)
        #expect(abs(p.t3 - -3.553e-14) < 0.001e-14)
        #expect(abs(p.p1 - -0.0152483) < 1e-7)
        #expect(abs(p.p2 - -3.538e-5) < 0.001e-5)
        #expect(abs(p.p3 - 8.149e-9) < 0.001e-9)
        #expect(p.p5 == 202_968)
        #expect(abs(p.p6 - 484.23438) < 1e-5)
        #expect(abs(p.p7 - -0.0507813) < 1e-7)
        #expect(abs(p.p8 - -0.0003052) < 1e-7)
        #expect(p.p11 == -60 * 0x1p-65)
    }

    func attached(_ truth: SensorTruth, variant: BMP3Emulator.Variant = .bmp388) -> (ManualClock, SimulatedI2CBus, BMP3Emulator) {
        let clock = ManualClock()
        let bus = SimulatedI2CBus()
        let emulator = BMP3Emulator(truth: FixedTruth(truth), clock: clock, variant: variant)
        emulator.noiseEnabled = false
        bus.attach(emulator, at: 0x77)
        return (clock, bus, emulator)
    }

    @Test func readsTheWorldInTwoOversamplingSettings() throws {
        for truth in [alpine, coastal] {
            for (p, t, rate) in [
                (Driver.Oversampling.x8, Driver.Oversampling.x1, Driver.OutputRate.hz50),
                (.x32, .x2, .hz12_5), (.x1, .x1, .hz200)
            ] {
                let (clock, bus, _) = attached(truth)
                var driver = BMP3(bus: bus, pressureOversampling: p, temperatureOversampling: t, outputRate: rate)
                try driver.start()
                clock.advance(by: 200_000_000)
                let sample = try #require(try driver.read(at: clock.now()))
                #expect(driver.configuredRate == rate)
                // The emulator's raw counts are whole numbers: about 0.02 Pa and 0.00002 degC a count here.
                #expect(abs(sample.pressure - truth.pressure) < 0.05, "\(p)")
                #expect(abs(sample.temperature - truth.temperature) < 0.001, "\(p)")
                #expect(sample.humidity == nil)
            }
        }
    }

    @Test func aRateTooFastForTheOversamplingIsSlowedDown() throws {
        let (clock, bus, emulator) = attached(coastal)
        // x32 pressure and x2 temperature take 234 + 392 + 64640 + 163 + 4040 = 69469 us: 12.5 Hz (80 ms) fits.
        var driver = BMP3(bus: bus, pressureOversampling: .x32, temperatureOversampling: .x2, outputRate: .hz200)
        try driver.start()
        #expect(driver.configuredRate == nil)  // configured once the reset's start-up is over
        clock.advance(by: 2_000_000)
        #expect(try driver.read(at: clock.now()) != nil)
        #expect(driver.configuredRate == .hz12_5)
        #expect(emulator.registers[0x1B] == 0x33)  // the chip accepted normal mode
        clock.advance(by: 40_000_000)
        #expect(try driver.read(at: clock.now()) == nil)  // drdy_press clear: 40 ms is half a period
        clock.advance(by: 40_000_000)
        #expect(try driver.read(at: clock.now()) != nil)
    }

    @Test func theEmulatorRefusesAnImpossibleRate() throws {
        let (_, bus, emulator) = attached(coastal)
        let device = I2CRegisterDevice(bus: bus, address: 0x77)
        try device.writeRegister(0x1C, 0x05)  // x32 pressure
        try device.writeRegister(0x1D, 0x00)  // 200 Hz
        try device.writeRegister(0x1B, 0x33)
        #expect(emulator.registers[0x1B] & 0x30 == 0)
        #expect(try device.readRegister(0x02) & 0x04 != 0)  // conf_err
    }

    @Test func identifyTellsTheVariantsApart() {
        let bus = SimulatedI2CBus()
        bus.attach(BMP3Emulator(truth: FixedTruth(), clock: ManualClock()), at: 0x76)
        bus.attach(BMP3Emulator(truth: FixedTruth(), clock: ManualClock(), variant: .bmp390), at: 0x77)
        #expect(Driver.identify(bus: bus, address: 0x76)?.name == "bmp388")
        #expect(Driver.identify(bus: bus, address: 0x77)?.name == "bmp390")
        #expect(Driver.chips.map(\.name) == ["bmp388", "bmp390"])
        // A BME280 has chip ID 0x60 too, but at 0xD0: its register 0x00 reads 0.
        bus.attach(BMP280Emulator(truth: FixedTruth(), clock: ManualClock(), variant: .bme280), at: 0x77)
        #expect(Driver.identify(bus: bus, address: 0x77) == nil)
        #expect(BMP280<SimulatedI2CBus>.identify(bus: bus, address: 0x76) == nil)  // and the BMP280 driver ignores a BMP388
    }

    @Test func startFindsTheVariantAndRejectsAnotherChip() throws {
        let (_, bus, _) = attached(coastal, variant: .bmp390)
        var driver = BMP3(bus: bus, address: 0x77)
        try driver.start()
        #expect(driver.variant == .bmp390)

        bus.attach(BMP280Emulator(truth: FixedTruth(), clock: ManualClock()), at: 0x76)
        var wrong = BMP3(bus: bus, address: 0x76)
        #expect(throws: DeviceError.wrongChip(chip: "BMP388/BMP390", register: 0x00, expected: 0x50, found: 0x00)) {
            try wrong.start()
        }
        #expect(throws: DeviceError.invalidCalibration(chip: "BMP388")) { try wrong.read(at: 0) }
    }

    @Test func busErrorsSurfaceAndTheDriverRecovers() throws {
        let (clock, bus, _) = attached(alpine)
        var driver = BMP3(bus: bus)
        try driver.start()
        clock.advance(by: 100_000_000)
        bus.injectFaults(address: 0x77, count: 1, error: .busError(address: 0x77))
        #expect(throws: DeviceError.bus(.busError(address: 0x77))) { try driver.read(at: clock.now()) }
        let sample = try #require(try driver.read(at: clock.now()))
        #expect(abs(sample.pressure - alpine.pressure) < 0.05)
    }

    @Test func exactStartSequence() throws {
        let bus = ScriptedI2CBus()
        let nvm: [UInt8] = [
            0xBA, 0x6A, 0xC0, 0x49, 0xF6, 0x8B, 0x01, 0xD0, 0xF5, 0x23, 0x00, 0x1B, 0x63, 0x0F, 0x79,
            0xF3, 0xF6, 0x40, 0x3D, 0x18, 0xC4
        ]
        bus.expect(0x77, write: [0x00], reply: [0x50])
        bus.expect(0x77, write: [0x7E, 0xB6])
        bus.expect(0x77, write: [0x03], reply: [0x10])  // cmd_rdy: the reset is over
        bus.expect(0x77, write: [0x31], reply: nvm)
        bus.expect(0x77, write: [0x1C, 0x03])  // x1 temperature, x8 pressure
        bus.expect(0x77, write: [0x1D, 0x02])  // 50 Hz
        bus.expect(0x77, write: [0x1F, 0x04])  // IIR coefficient 3
        bus.expect(0x77, write: [0x1B, 0x33])  // both channels, normal mode
        bus.expect(0x77, write: [0x03], reply: [0x10, 0, 0, 0x80, 0, 0, 0x80])  // no data yet
        var driver = BMP3(bus: bus)
        try driver.start()
        #expect(driver.variant == .bmp388)
        #expect(try driver.read(at: 0) == nil)
        #expect(
            driver.parameters
                == BMP3<ScriptedI2CBus>.Parameters(
                    .init(
                        t1: 27322, t2: 18880, t3: -10, p1: 395, p2: -2608, p3: 35, p4: 0, p5: 25371, p6: 30991,
                        p7: -13, p8: -10, p9: 15680, p10: 24, p11: -60)))
        #expect(bus.completed, "\(bus.mismatches)")
    }
}
