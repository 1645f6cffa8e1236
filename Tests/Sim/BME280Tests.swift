import LodestoneCore
import LodestoneDevices
import LodestoneHAL
import LodestoneSim
import Testing

/// The BMP280 driver serving both chips of the family: the BME280's humidity trimming and
/// formula, the variant found by chip ID, and both variants against the emulator.
@Suite struct BME280Tests {
    typealias Driver = BMP280<SimulatedI2CBus>

    let humid = SensorTruth(
        specificForce: Vector3(0, 0, -9.80665), rotationRate: .zero, magneticField: .zero,
        pressure: 98_765.4, temperature: 18.37, humidity: 63.7)

    /// A production BME280's registers as posted on the Bosch Sensortec community forum ("BME280
    /// Data to test Calculations", 2019): 0x88..0x9F, 0xA1, 0xE1..0xE7, then 0xF7..0xFE.
    static let forumCalibration: [UInt8] = [
        0x6C, 0x6E, 0x77, 0x66, 0x32, 0x00, 0xA8, 0x92, 0x27, 0xD5, 0xD0, 0x0B,
        0x6F, 0x18, 0xCA, 0xFF, 0xF9, 0xFF, 0xAC, 0x26, 0x0A, 0xD8, 0xBD, 0x10
    ]
    static let forumH1: UInt8 = 0x4B
    static let forumHumidityBytes: [UInt8] = [0x65, 0x01, 0x00, 0x14, 0x0B, 0x00, 0x1E]
    static let forumData: [UInt8] = [0x55, 0x33, 0x80, 0x81, 0x7F, 0xB0, 0x79, 0x13]

    @Test func humidityTrimmingUnpacksTwelveBitSignedWords() {
        let b = Self.forumHumidityBytes
        let h = Driver.HumidityCalibration(h1: Self.forumH1, e1: b[0], e2: b[1], e3: b[2], e4: b[3], e5: b[4], e6: b[5], e7: b[6])
        #expect(h == Driver.HumidityCalibration(h1: 75, h2: 357, h3: 0, h4: 331, h5: 0, h6: 30))
        // 0xE4 = 0xF3 (-13), 0xE5 = 0xA7, 0xE6 = 0x85 (-123):
        // dig_H4 = -13 * 16 | 0x7 = -208 | 7 = -201; dig_H5 = -123 * 16 | 0xA = -1968 | 10 = -1958.
        let negative = Driver.HumidityCalibration(h1: 1, e1: 0x00, e2: 0x80, e3: 0, e4: 0xF3, e5: 0xA7, e6: 0x85, e7: 0xF6)
        #expect(negative.h2 == -32768)
        #expect(negative.h4 == -201)
        #expect(negative.h5 == -1958)
        #expect(negative.h6 == -10)
    }

    /// The forum chip: adc_T = 0x817FB = 530427 gives t_fine 125113 (24.44 degC, as the post
    /// says); adc_H = 0x7913 = 30995 gives 55478 in Q22.10 = 54.18 %RH (the post's spreadsheet:
    /// 54.17 %RH). 55478 is what the datasheet's 32-bit formula gives when transcribed by hand.
    @Test func humidityCompensationOfAPublishedChip() {
        let c = Driver.Calibration(
            t1: 28268, t2: 26231, t3: 50, p1: 37544, p2: -10969, p3: 3024, p4: 6255,
            p5: -54, p6: -7, p7: 9900, p8: -10230, p9: 4285)
        let fine = Driver.fineTemperature(530_427, c)
        #expect(fine == 125_113)
        #expect(Driver.centidegrees(fine: fine) == 2444)
        let h = Driver.HumidityCalibration(h1: 75, h2: 357, h3: 0, h4: 331, h5: 0, h6: 30)
        let q22_10 = Driver.humidityQ22_10(30_995, fine: fine, h)
        #expect(q22_10 == 55_478)
        #expect(abs(Double(q22_10) / 1024 - 54.17) < 0.02)
        // The formula clamps to 0..100 %RH.
        #expect(Driver.humidityQ22_10(65_535, fine: fine, h) == 102_400)
        #expect(Driver.humidityQ22_10(0, fine: fine, h) == 0)
    }

    func attached(_ variant: BMP280Emulator.Variant, truth: SensorTruth) -> (ManualClock, SimulatedI2CBus, BMP280Emulator) {
        let clock = ManualClock()
        let bus = SimulatedI2CBus()
        let emulator = BMP280Emulator(truth: FixedTruth(truth), clock: clock, variant: variant)
        emulator.noiseEnabled = false
        bus.attach(emulator, at: 0x76)
        return (clock, bus, emulator)
    }

    @Test func bme280ReadsTheWorldInTwoOversamplingSettings() throws {
        for (p, t, h) in [(Driver.Oversampling.x16, Driver.Oversampling.x2, Driver.Oversampling.x1), (.x1, .x1, .x16)] {
            let (clock, bus, _) = attached(.bme280, truth: humid)
            var driver = BMP280(bus: bus, pressureOversampling: p, temperatureOversampling: t, humidityOversampling: h)
            try driver.start()
            #expect(driver.variant == .bme280)
            clock.advance(by: 100_000_000)
            let sample = try #require(try driver.read(at: clock.now()))
            #expect(abs(sample.pressure - humid.pressure) < 0.5)
            #expect(abs(sample.temperature - humid.temperature) < 0.01)
            // 16-bit humidity: about 0.006 %RH a count; Q22.10 output.
            let humidity = try #require(sample.humidity)
            #expect(abs(humidity - humid.humidity) < 0.02, "\(p) \(h): \(humidity)")
        }
    }

    @Test func bmp280ReadsTheWorldInTwoOversamplingSettingsWithoutHumidity() throws {
        for (p, t) in [(Driver.Oversampling.x16, Driver.Oversampling.x2), (.x2, .x1)] {
            let (clock, bus, _) = attached(.bmp280, truth: humid)
            var driver = BMP280(bus: bus, pressureOversampling: p, temperatureOversampling: t)
            try driver.start()
            #expect(driver.variant == .bmp280)
            clock.advance(by: 100_000_000)
            let sample = try #require(try driver.read(at: clock.now()))
            #expect(abs(sample.pressure - humid.pressure) < 0.5)
            #expect(abs(sample.temperature - humid.temperature) < 0.01)
            #expect(sample.humidity == nil)
        }
    }

    @Test func identifyTellsTheVariantsApart() {
        let bus = SimulatedI2CBus()
        bus.attach(BMP280Emulator(truth: FixedTruth(), clock: ManualClock()), at: 0x76)
        bus.attach(BMP280Emulator(truth: FixedTruth(), clock: ManualClock(), variant: .bme280), at: 0x77)
        #expect(Driver.identify(bus: bus, address: 0x76)?.name == "bmp280")
        #expect(Driver.identify(bus: bus, address: 0x77)?.name == "bme280")
        #expect(Driver.identify(bus: bus, address: 0x77) == Driver.Variant.bme280.info)
        #expect(Driver.chips.map(\.name) == ["bmp280", "bme280"])
        // Another chip at the same address: the MS5611 answers 0 to a register read.
        bus.attach(MS5611Emulator(truth: FixedTruth(), clock: ManualClock()), at: 0x77)
        #expect(Driver.identify(bus: bus, address: 0x77) == nil)
        #expect(Driver.identify(bus: bus, address: 0x78) == nil)
    }

    @Test func startRejectsAnotherChip() {
        let bus = SimulatedI2CBus()
        bus.attach(MS5611Emulator(truth: FixedTruth(), clock: ManualClock()), at: 0x76)
        var driver = BMP280(bus: bus)
        #expect(throws: DeviceError.wrongChip(chip: "BMP280/BME280", register: 0xD0, expected: 0x58, found: 0x00)) {
            try driver.start()
        }
        #expect(driver.variant == nil)
    }

    @Test func busErrorsSurfaceAndTheDriverRecovers() throws {
        let (clock, bus, _) = attached(.bme280, truth: humid)
        var driver = BMP280(bus: bus)
        try driver.start()
        clock.advance(by: 100_000_000)
        bus.injectFaults(address: 0x76, count: 1, error: .busError(address: 0x76))
        #expect(throws: DeviceError.bus(.busError(address: 0x76))) { try driver.read(at: clock.now()) }
        let sample = try #require(try driver.read(at: clock.now()))
        #expect(abs(try #require(sample.humidity) - humid.humidity) < 0.02)
    }

    /// The exact BME280 start: reset, then (on the first read) im_update found clear, ctrl_hum
    /// written before ctrl_meas, humidity trimming read from its two places, an 8-byte data
    /// burst; the forum chip's registers as the replies.
    @Test func bme280StartSequenceAndRead() throws {
        let bus = ScriptedI2CBus()
        bus.expect(0x76, write: [0xD0], reply: [0x60])
        bus.expect(0x76, write: [0xE0, 0xB6])
        bus.expect(0x76, write: [0xF3], reply: [0x00])  // im_update clear: the NVM copy is done
        bus.expect(0x76, write: [0x88], reply: Self.forumCalibration)
        bus.expect(0x76, write: [0xA1], reply: [Self.forumH1])
        bus.expect(0x76, write: [0xE1], reply: Self.forumHumidityBytes)
        bus.expect(0x76, write: [0xF5, 0x08])  // IIR x4
        bus.expect(0x76, write: [0xF2, 0x01])  // humidity x1
        bus.expect(0x76, write: [0xF4, 0x57])  // temperature x2, pressure x16, normal mode
        bus.expect(0x76, write: [0xF7], reply: Self.forumData)
        var driver = BMP280(bus: bus)
        try driver.start()
        #expect(driver.variant == .bme280)
        let sample = try #require(try driver.read(at: 5))
        #expect(sample.temperature == 24.44)
        #expect(sample.humidity == 55_478.0 / 1024)
        // adc_P = 0x55338 = 348984 through the 64-bit formula: Q24.8 25502995 = 99621.07 Pa.
        #expect(abs(sample.pressure - 99_621.07) < 0.01)
        #expect(bus.completed, "\(bus.mismatches)")
    }
}
