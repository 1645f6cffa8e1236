import LodestoneCore
import LodestoneDevices
import LodestoneHAL
import LodestoneSim
import Testing

/// The MS5611 driver: AN520's worked example, the second-order compensation, the PROM CRC,
/// the non-blocking conversion cycle, and the driver against its command-level emulator.
@Suite struct MS5611Tests {
    typealias Driver = MS5611<SimulatedI2CBus>
    /// AN520's example calibration words C1..C6.
    let an520 = MS5611<SimulatedI2CBus>.Calibration(c1: 40127, c2: 36924, c3: 23317, c4: 23282, c5: 33464, c6: 28312)
    let cold = SensorTruth(
        specificForce: Vector3(0, 0, -9.80665), rotationRate: .zero, magneticField: .zero,
        pressure: 87_654.3, temperature: 7.25, humidity: 30)

    @Test func compensationMatchesAN520() {
        let r = Driver.compensate(d1: 9_085_466, d2: 8_569_150, an520)
        #expect(r.dT == 2366)
        #expect(r.temperature == 2007)
        #expect(r.offset == 2_420_281_617)
        #expect(r.sensitivity == 1_315_097_036)
        #expect(r.pressure == 100_009)
    }

    /// Below 20 degC. D2 = 8200000, D1 = 8500000 with AN520's words:
    ///   dT    = 8200000 - 33464 * 2^8 = 8200000 - 8566784 = -366784
    ///   TEMP  = 2000 + (-366784 * 28312) / 2^23 = 2000 + (-10384388608 / 8388608 = -1237.9 -> -1237) = 763
    ///   OFF   = 36924 * 2^16 + (23282 * -366784) / 2^7 = 2419851264 + (-8539465088 / 128 = -66714571) = 2353136693
    ///   SENS  = 40127 * 2^15 + (23317 * -366784) / 2^8 = 1314881536 + (-8552302528 / 256 = -33407431) = 1281474105
    ///   T2    = dT^2 / 2^31 = 134530502656 / 2147483648 = 62
    ///   OFF2  = 5 * (763 - 2000)^2 / 2 = 5 * 1530169 / 2 = 3825422
    ///   SENS2 = 5 * 1530169 / 4 = 1912711
    ///   TEMP  = 763 - 62 = 701; OFF = 2353136693 - 3825422 = 2349311271; SENS = 1281474105 - 1912711 = 1279561394
    ///   P     = (8500000 * 1279561394 / 2^21 - 2349311271) / 2^15
    ///         = (10876271849000000 / 2097152 = 5186210560 - 2349311271) / 32768 = 2836899289 / 32768 = 86575
    @Test func secondOrderCompensationBelowTwentyDegrees() {
        let r = Driver.compensate(d1: 8_500_000, d2: 8_200_000, an520)
        #expect(r.dT == -366_784)
        #expect(r.temperature == 701)
        #expect(r.offset == 2_349_311_271)
        #expect(r.sensitivity == 1_279_561_394)
        #expect(r.pressure == 86_575)
    }

    /// Below -15 degC. D2 = 7500000, D1 = 8000000:
    ///   dT    = 7500000 - 8566784 = -1066784
    ///   TEMP  = 2000 + (-1066784 * 28312 = -30202788608) / 2^23 = 2000 + (-3600.5 -> -3600) = -1600
    ///   OFF   = 2419851264 + (23282 * -1066784 = -24836865088) / 2^7 = 2419851264 - 194038008 = 2225813256
    ///   SENS  = 1314881536 + (23317 * -1066784 = -24874202528) / 2^8 = 1314881536 - 97164853 = 1217716683
    ///   T2    = 1066784^2 / 2^31 = 1138028102656 / 2147483648 = 529
    ///   OFF2  = 5 * (-3600)^2 / 2 = 5 * 12960000 / 2 = 32400000, plus 7 * (-1600 + 1500)^2 = 70000 -> 32470000
    ///   SENS2 = 5 * 12960000 / 4 = 16200000, plus 11 * 10000 / 2 = 55000 -> 16255000
    ///   TEMP  = -1600 - 529 = -2129; OFF = 2193343256; SENS = 1201461683
    ///   P     = (8000000 * 1201461683 / 2^21 - 2193343256) / 2^15
    ///         = (9611693464000000 / 2097152 = 4583212596 - 2193343256) / 32768 = 2389869340 / 32768 = 72933
    @Test func secondOrderCompensationBelowMinusFifteenDegrees() {
        let r = Driver.compensate(d1: 8_000_000, d2: 7_500_000, an520)
        #expect(r.dT == -1_066_784)
        #expect(r.temperature == -2129)
        #expect(r.offset == 2_193_343_256)
        #expect(r.sensitivity == 1_201_461_683)
        #expect(r.pressure == 72_933)
    }

    /// The emulator's PROM is 0x0042, C1..C6, 0x5A3x; the CRC-4 of AN520 over it (worked out
    /// separately with a transcription of AN520's loop) is 6; changing C3 by one gives 5.
    @Test func promCRC() {
        let emulator = MS5611Emulator(truth: FixedTruth(), clock: ManualClock())
        let prom = emulator.prom
        #expect(prom == [0x0042, 40127, 36924, 23317, 23282, 33464, 28312, 0x5A36])
        #expect(Driver.crc4(prom) == 6)
        var corrupted = prom
        corrupted[3] = 23318
        #expect(Driver.crc4(corrupted) == 5)
        #expect(Driver.crc4(corrupted) != UInt8(corrupted[7] & 0xF))
    }

    func attached(_ truth: SensorTruth, address: UInt8 = 0x77) -> (ManualClock, SimulatedI2CBus, MS5611Emulator) {
        let clock = ManualClock()
        let bus = SimulatedI2CBus()
        let emulator = MS5611Emulator(truth: FixedTruth(truth), clock: clock)
        emulator.noiseEnabled = false
        bus.attach(emulator, at: address)
        return (clock, bus, emulator)
    }

    /// Runs the conversion cycle on 1 ms ticks until a sample comes out.
    func nextSample(_ driver: inout Driver, _ clock: ManualClock) throws -> PressureSample? {
        for _ in 0..<40 {
            if let sample = try driver.read(at: clock.now()) { return sample }
            clock.advance(by: 1_000_000)
        }
        return nil
    }

    @Test func readsTheWorldThroughTheEmulator() throws {
        let warm = SensorTruth(
            specificForce: Vector3(0, 0, -9.80665), rotationRate: .zero, magneticField: .zero,
            pressure: 95_432.1, temperature: 27.3, humidity: 40)
        for truth in [warm, cold] {
            for osr in [Driver.Oversampling.x256, .x1024, .x4096] {
                let (clock, bus, _) = attached(truth)
                var driver = MS5611(bus: bus, pressureOversampling: osr, temperatureOversampling: osr)
                try driver.start()
                let sample = try #require(try nextSample(&driver, clock))
                // The datasheet's resolution: 1 Pa (0.01 mbar) and 0.01 degC steps.
                #expect(abs(sample.pressure - truth.pressure) <= 1.5, "\(osr) \(truth.temperature)")
                #expect(abs(sample.temperature - truth.temperature) <= 0.02, "\(osr) \(truth.temperature)")
                #expect(sample.humidity == nil)
            }
        }
    }

    @Test func neverBlocksAndReturnsNilUntilTheConversionTime() throws {
        let (clock, bus, emulator) = attached(cold)
        var driver = MS5611(bus: bus)  // OSR 4096: 9.04 ms per conversion at most
        try driver.start()
        #expect(try driver.read(at: clock.now()) == nil)  // starts D2
        #expect(emulator.conversionsStarted == 1)
        clock.advance(by: 9_000_000)
        #expect(try driver.read(at: clock.now()) == nil)  // 9.00 ms: still waiting, nothing sent
        #expect(emulator.conversionsStarted == 1)
        clock.advance(by: 40_000)
        #expect(try driver.read(at: clock.now()) == nil)  // 9.04 ms: fetches D2, starts D1
        #expect(emulator.conversionsStarted == 2)
        clock.advance(by: 5_000_000)
        #expect(try driver.read(at: clock.now()) == nil)
        clock.advance(by: 4_040_000)
        let sample = try #require(try driver.read(at: clock.now()))  // fetches D1, starts the next D2
        #expect(abs(sample.pressure - cold.pressure) <= 1.5)
        #expect(emulator.conversionsStarted == 3)
        #expect(try driver.read(at: clock.now()) == nil)  // the next cycle has only just begun
    }

    @Test func identifiesByItsPROMAndNotOtherChips() {
        let (_, bus, _) = attached(cold)
        #expect(Driver.identify(bus: bus, address: 0x77) == Driver.chips[0])
        #expect(Driver.chips[0].name == "ms5611")
        #expect(Driver.identify(bus: bus, address: 0x76) == nil)  // nothing there
        bus.attach(BMP280Emulator(truth: FixedTruth(), clock: ManualClock()), at: 0x76)
        #expect(Driver.identify(bus: bus, address: 0x76) == nil)  // a BMP280 has no MS5611 PROM
    }

    @Test func startRejectsACorruptPROMAndAnotherChip() throws {
        let (_, bus, emulator) = attached(cold)
        emulator.corruptPROM(word: 3, value: 23318)
        var driver = MS5611(bus: bus)
        #expect(throws: DeviceError.invalidCalibration(chip: "MS5611")) { try driver.start() }
        #expect(Driver.identify(bus: bus, address: 0x77) == nil)
        #expect(throws: DeviceError.invalidCalibration(chip: "MS5611")) { try driver.read(at: 0) }

        bus.attach(BMP280Emulator(truth: FixedTruth(), clock: ManualClock()), at: 0x76)
        var wrong = MS5611(bus: bus, address: 0x76)
        #expect(throws: DeviceError.invalidCalibration(chip: "MS5611")) { try wrong.start() }
    }

    @Test func busErrorsSurfaceAndTheDriverRecovers() throws {
        let (clock, bus, _) = attached(cold)
        var driver = MS5611(bus: bus, pressureOversampling: .x1024, temperatureOversampling: .x1024)
        try driver.start()
        #expect(try driver.read(at: clock.now()) == nil)
        clock.advance(by: 3_000_000)
        bus.injectFaults(address: 0x77, count: 1, error: .busError(address: 0x77))
        #expect(throws: DeviceError.bus(.busError(address: 0x77))) { try driver.read(at: clock.now()) }
        // The next read starts a fresh cycle instead of fetching a lost conversion.
        #expect(try driver.read(at: clock.now()) == nil)
        let sample = try #require(try nextSample(&driver, clock))
        #expect(abs(sample.pressure - cold.pressure) <= 1.5)
    }

    @Test func anEarlyADCReadGivesZeroAndIsRejected() throws {
        let (clock, bus, _) = attached(cold)
        var driver = MS5611(bus: bus)
        try driver.start()
        _ = try driver.read(at: clock.now())
        // The driver believes 10 ms have passed, the chip's clock says 1 ms: the ADC answers 0.
        clock.advance(by: 1_000_000)
        #expect(throws: DeviceError.implausibleReading(chip: "MS5611")) { try driver.read(at: clock.now() + 9_000_000) }
        #expect(try driver.read(at: clock.now()) == nil)
    }

    @Test func exactStartSequenceAndOneConversionCycle() throws {
        let bus = ScriptedI2CBus()
        let prom: [UInt16] = [0x0042, 40127, 36924, 23317, 23282, 33464, 28312, 0x5A36]
        bus.expect(0x77, write: [0x1E])
        for (index, word) in prom.enumerated() {
            bus.expect(0x77, write: [0xA0 + UInt8(index) * 2], reply: [UInt8(word >> 8), UInt8(word & 0xFF)])
        }
        bus.expect(0x77, write: [0x56])  // D2, OSR 2048
        bus.expect(0x77, write: [0x00], reply: [0x82, 0xC1, 0x3E])  // D2 = 8569150
        bus.expect(0x77, write: [0x48])  // D1, OSR 4096
        bus.expect(0x77, write: [0x00], reply: [0x8A, 0xA2, 0x1A])  // D1 = 9085466
        bus.expect(0x77, write: [0x56])  // the next cycle begins
        var driver = MS5611(bus: bus, pressureOversampling: .x4096, temperatureOversampling: .x2048)
        try driver.start()
        #expect(driver.calibration == an520Scripted)
        var time: MonotonicNanoseconds = 1_000_000_000
        #expect(try driver.read(at: time) == nil)
        time += 4_540_000
        #expect(try driver.read(at: time) == nil)
        time += 9_040_000
        let sample = try #require(try driver.read(at: time))
        #expect(sample.pressure == 100_009)
        #expect(sample.temperature == 20.07)
        #expect(bus.completed, "\(bus.mismatches)")
    }

    var an520Scripted: MS5611<ScriptedI2CBus>.Calibration {
        .init(c1: 40127, c2: 36924, c3: 23317, c4: 23282, c5: 33464, c6: 28312)
    }
}
