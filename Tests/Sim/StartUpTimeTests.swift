import LodestoneCore
import LodestoneDevices
import LodestoneHAL
import LodestoneSim
import Testing

/// Issue 14: after a reset a Bosch barometer needs its 2 ms start-up time before its trimming
/// registers are valid. The emulators answer as the chip does until then (status busy, trimming
/// 0x00), so a driver that reads at once is caught; the drivers poll the chip's ready bit and
/// read the datasheet's words once it says so, or give up with a typed error.
@Suite struct StartUpTimeTests {
    /// The BMP280 datasheet's worked example, dig_T1..dig_P9 as little-endian bytes at 0x88..0x9F:
    /// 27504, 26435, -1000, 36477, -10685, 3024, 2855, 140, -7, 15500, -14600, 6000.
    static let datasheetTrimming: [UInt8] = [
        0x70, 0x6B, 0x43, 0x67, 0x18, 0xFC, 0x7D, 0x8E, 0x43, 0xD6, 0xD0, 0x0B,
        0x27, 0x0B, 0x8C, 0x00, 0xF9, 0xFF, 0x8C, 0x3C, 0xF8, 0xC6, 0x70, 0x17
    ]
    static let datasheetCalibration = BMP280<SimulatedI2CBus>.Calibration(
        t1: 27504, t2: 26435, t3: -1000, p1: 36477, p2: -10685, p3: 3024, p4: 2855, p5: 140, p6: -7,
        p7: 15500, p8: -14600, p9: 6000)
    /// The BMP388 coefficients of Bosch's forum calculation sheet (with this project's P9..P11),
    /// NVM_PAR_T1..NVM_PAR_P11 as stored at 0x31..0x45.
    static let forumNVM: [UInt8] = [
        0xBA, 0x6A, 0xC0, 0x49, 0xF6, 0x8B, 0x01, 0xD0, 0xF5, 0x23, 0x00, 0x1B, 0x63, 0x0F,
        0x79, 0xF3, 0xF6, 0x40, 0x3D, 0x18, 0xC4
    ]
    static let forumCalibration = BMP3<SimulatedI2CBus>.Calibration(
        t1: 27322, t2: 18880, t3: -10, p1: 395, p2: -2608, p3: 35, p4: 0, p5: 25371, p6: 30991,
        p7: -13, p8: -10, p9: 15680, p10: 24, p11: -60)

    /// One burst read, as the drivers make them.
    func burst(_ device: I2CRegisterDevice<SimulatedI2CBus>, _ register: UInt8, count: Int) throws -> [UInt8] {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: count, alignment: 1)
        defer { buffer.deallocate() }
        buffer.initializeMemory(as: UInt8.self, repeating: 0xAA)
        try device.readRegisters(register, into: buffer)
        return Array(buffer)
    }

    // MARK: The emulators

    /// What a driver that does not wait sees: reset, then the trimming at once. The chip's
    /// answer is zeros with im_update set, and the datasheet's words only 2 ms later; a second
    /// reset starts the copy again.
    @Test(arguments: [BMP280Emulator.Variant.bmp280, .bme280])
    func bmp280EmulatorGivesNoTrimmingUntilTheStartUpTimeHasPassed(variant: BMP280Emulator.Variant) throws {
        let clock = ManualClock()
        let bus = SimulatedI2CBus()
        bus.attach(BMP280Emulator(truth: FixedTruth(), clock: clock, variant: variant), at: 0x76)
        let device = I2CRegisterDevice(bus: bus, address: 0x76)
        let chipID: UInt8 = variant == .bmp280 ? 0x58 : 0x60

        try device.writeRegister(0xE0, 0xB6)
        #expect(try device.readRegister(0xD0) == chipID)  // the ID answers at once
        #expect(try device.readRegister(0xF3) & 0x01 == 0x01)  // im_update: copying
        #expect(try burst(device, 0x88, count: 24) == [UInt8](repeating: 0, count: 24))
        #expect(try device.readRegister(0xA1) == 0)
        if variant == .bme280 { #expect(try burst(device, 0xE1, count: 7) == [UInt8](repeating: 0, count: 7)) }

        clock.advance(by: 1_500_000)
        try device.writeRegister(0xE0, 0xB6)  // a second reset starts the copy again
        clock.advance(by: 1_999_999)
        #expect(try device.readRegister(0xF3) & 0x01 == 0x01)
        #expect(try burst(device, 0x88, count: 24) == [UInt8](repeating: 0, count: 24))

        clock.advance(by: 1)  // 2 ms after the last reset
        #expect(try device.readRegister(0xF3) & 0x01 == 0)
        #expect(try burst(device, 0x88, count: 24) == Self.datasheetTrimming)
        if variant == .bme280 {
            #expect(try device.readRegister(0xA1) == 75)
            #expect(try burst(device, 0xE1, count: 7) == [0x65, 0x01, 0x00, 0x14, 0x2B, 0x03, 0x1E])
        }
    }

    @Test(arguments: [BMP3Emulator.Variant.bmp388, .bmp390])
    func bmp3EmulatorGivesNoTrimmingUntilTheStartUpTimeHasPassed(variant: BMP3Emulator.Variant) throws {
        let clock = ManualClock()
        let bus = SimulatedI2CBus()
        bus.attach(BMP3Emulator(truth: FixedTruth(), clock: clock, variant: variant), at: 0x77)
        let device = I2CRegisterDevice(bus: bus, address: 0x77)

        try device.writeRegister(0x7E, 0xB6)
        #expect(try device.readRegister(0x00) == (variant == .bmp388 ? 0x50 : 0x60))
        #expect(try device.readRegister(0x03) & 0x10 == 0)  // cmd_rdy clear: reset in progress
        #expect(try burst(device, 0x31, count: 21) == [UInt8](repeating: 0, count: 21))

        clock.advance(by: 1_999_999)
        #expect(try device.readRegister(0x03) & 0x10 == 0)
        #expect(try burst(device, 0x31, count: 21) == [UInt8](repeating: 0, count: 21))

        clock.advance(by: 1)
        #expect(try device.readRegister(0x03) & 0x10 == 0x10)
        #expect(try burst(device, 0x31, count: 21) == Self.forumNVM)
    }

    /// The old start sequence (reset, then the trimming at once) against the emulators: each
    /// check a driver makes of its trimming fails, so a driver that does not wait cannot pass
    /// its tests on the simulated board.
    @Test func aDriverThatDoesNotWaitIsCaught() throws {
        let clock = ManualClock()
        let bus = SimulatedI2CBus()
        bus.attach(BMP280Emulator(truth: FixedTruth(), clock: clock), at: 0x76)
        bus.attach(BMP3Emulator(truth: FixedTruth(), clock: clock), at: 0x77)
        let bmp280 = I2CRegisterDevice(bus: bus, address: 0x76)
        try bmp280.writeRegister(0xE0, 0xB6)
        let trimming = try burst(bmp280, 0x88, count: 24)
        #expect(trimming != Self.datasheetTrimming)
        #expect(trimming.prefix(2) == [0, 0], "dig_T1 reads 0, which no real chip has")

        let bmp3 = I2CRegisterDevice(bus: bus, address: 0x77)
        try bmp3.writeRegister(0x7E, 0xB6)
        let nvm = try burst(bmp3, 0x31, count: 21)
        #expect(nvm != Self.forumNVM)
        #expect(nvm.prefix(4) == [0, 0, 0, 0], "NVM_PAR_T1 and T2 read 0")
    }

    // MARK: The drivers

    @Test(arguments: [BMP280Emulator.Variant.bmp280, .bme280])
    func bmp280DriverWaitsForTheNVMCopyAndReadsTheDatasheetWords(variant: BMP280Emulator.Variant) throws {
        let clock = ManualClock()
        let bus = SimulatedI2CBus()
        let emulator = BMP280Emulator(truth: FixedTruth(), clock: clock, variant: variant)
        emulator.noiseEnabled = false
        bus.attach(emulator, at: 0x76)
        var driver = BMP280(bus: bus)
        try driver.start()
        #expect(emulator.isStartingUp)
        #expect(try driver.read(at: clock.now()) == nil)  // im_update set: nothing read yet
        #expect(driver.calibration == nil)
        #expect(emulator.registers[0xF4] == 0)  // and nothing configured
        clock.advance(by: 1_000_000)
        #expect(try driver.read(at: clock.now()) == nil)
        #expect(driver.calibration == nil)
        clock.advance(by: 1_000_000)
        let sample = try #require(try driver.read(at: clock.now()))
        #expect(driver.calibration == Self.datasheetCalibration)
        #expect(abs(sample.pressure - SensorTruth.still.pressure) < 0.5)
        if variant == .bme280 {
            #expect(driver.humidityCalibration == .init(h1: 75, h2: 357, h3: 0, h4: 331, h5: 50, h6: 30))
        }
    }

    @Test(arguments: [BMP3Emulator.Variant.bmp388, .bmp390])
    func bmp3DriverWaitsForCmdRdyAndReadsTheChipsCoefficients(variant: BMP3Emulator.Variant) throws {
        let clock = ManualClock()
        let bus = SimulatedI2CBus()
        let emulator = BMP3Emulator(truth: FixedTruth(), clock: clock, variant: variant)
        emulator.noiseEnabled = false
        bus.attach(emulator, at: 0x77)
        var driver = BMP3(bus: bus)
        try driver.start()
        #expect(try driver.read(at: clock.now()) == nil)
        #expect(driver.parameters == nil)
        #expect(emulator.registers[0x1B] == 0)
        clock.advance(by: 1_900_000)
        #expect(try driver.read(at: clock.now()) == nil)
        clock.advance(by: 100_000)
        let sample = try #require(try driver.read(at: clock.now()))
        #expect(driver.parameters == BMP3<SimulatedI2CBus>.Parameters(Self.forumCalibration))
        #expect(abs(sample.pressure - SensorTruth.still.pressure) < 0.05)
    }

    /// A chip that never finishes its start-up (here one whose clock never moves) is given up
    /// on five start-up times after the first busy poll, with a typed error and no trap; a new
    /// start() resets it and the wait begins again.
    @Test func aChipThatNeverBecomesReadyIsATypedError() throws {
        let bus = SimulatedI2CBus()
        bus.attach(BMP280Emulator(truth: FixedTruth(), clock: ManualClock()), at: 0x76)
        bus.attach(BMP3Emulator(truth: FixedTruth(), clock: ManualClock()), at: 0x77)
        var bmp280 = BMP280(bus: bus)
        var bmp3 = BMP3(bus: bus)
        try bmp280.start()
        try bmp3.start()
        var time: MonotonicNanoseconds = 5_000_000_000
        for _ in 0..<5 {
            #expect(try bmp280.read(at: time) == nil)
            #expect(try bmp3.read(at: time) == nil)
            time += 1_999_999
        }
        time += 5
        #expect(throws: DeviceError.invalidCalibration(chip: "BMP280")) { try bmp280.read(at: time) }
        #expect(throws: DeviceError.invalidCalibration(chip: "BMP388")) { try bmp3.read(at: time) }
        try bmp280.start()
        #expect(try bmp280.read(at: time) == nil)
    }

    /// A caller whose time stands still still gets an answer within a bounded number of polls.
    @Test func pollsAreBoundedEvenWhenTimeStandsStill() throws {
        let bus = SimulatedI2CBus()
        bus.attach(BMP280Emulator(truth: FixedTruth(), clock: ManualClock()), at: 0x76)
        var driver = BMP280(bus: bus)
        try driver.start()
        var polls = 0
        var failure: DeviceError?
        while failure == nil && polls < 1000 {
            polls += 1
            do { _ = try driver.read(at: 0) } catch { failure = error }
        }
        #expect(failure == .invalidCalibration(chip: "BMP280"))
        #expect(polls == 50)
    }

    /// The exact BMP280 sequence when the chip is still copying: status polled, nothing else
    /// read or written until im_update clears.
    @Test func bmp280PollsOnlyTheStatusWhileTheChipCopies() throws {
        let bus = ScriptedI2CBus()
        bus.expect(0x76, write: [0xD0], reply: [0x58])
        bus.expect(0x76, write: [0xE0, 0xB6])
        bus.expect(0x76, write: [0xF3], reply: [0x01])
        bus.expect(0x76, write: [0xF3], reply: [0x09])
        bus.expect(0x76, write: [0xF3], reply: [0x08])  // only im_update counts, not measuring (bit 3)
        bus.expect(0x76, write: [0x88], reply: Self.datasheetTrimming)
        bus.expect(0x76, write: [0xF5, 0x08])
        bus.expect(0x76, write: [0xF4, 0x57])
        bus.expect(0x76, write: [0xF7], reply: [0x80, 0x00, 0x00, 0x80, 0x00, 0x00])  // no conversion yet
        var driver = BMP280(bus: bus)
        try driver.start()
        #expect(try driver.read(at: 1_000_000) == nil)
        #expect(try driver.read(at: 2_000_000) == nil)
        #expect(try driver.read(at: 3_000_000) == nil)
        #expect(
            driver.calibration
                == BMP280<ScriptedI2CBus>.Calibration(
                    t1: 27504, t2: 26435, t3: -1000, p1: 36477, p2: -10685, p3: 3024, p4: 2855, p5: 140, p6: -7,
                    p7: 15500, p8: -14600, p9: 6000))
        #expect(bus.completed, "\(bus.mismatches)")
    }

    @Test func bmp3PollsOnlyTheStatusWhileTheResetRuns() throws {
        let bus = ScriptedI2CBus()
        bus.expect(0x77, write: [0x00], reply: [0x60])
        bus.expect(0x77, write: [0x7E, 0xB6])
        bus.expect(0x77, write: [0x03], reply: [0x00])
        bus.expect(0x77, write: [0x03], reply: [0x10])
        bus.expect(0x77, write: [0x31], reply: Self.forumNVM)
        bus.expect(0x77, write: [0x1C, 0x03])
        bus.expect(0x77, write: [0x1D, 0x02])
        bus.expect(0x77, write: [0x1F, 0x04])
        bus.expect(0x77, write: [0x1B, 0x33])
        bus.expect(0x77, write: [0x03], reply: [0x10, 0, 0, 0x80, 0, 0, 0x80])
        var driver = BMP3(bus: bus)
        try driver.start()
        #expect(driver.variant == .bmp390)
        #expect(try driver.read(at: 1_000_000) == nil)
        #expect(driver.configuredRate == nil)
        #expect(try driver.read(at: 3_000_000) == nil)
        #expect(driver.configuredRate == .hz50)
        #expect(bus.completed, "\(bus.mismatches)")
    }
}
