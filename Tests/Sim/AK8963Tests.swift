import LodestoneCore
import LodestoneDevices
import LodestoneHAL
import LodestoneSim
import Testing

@Suite struct AK8963Tests {
    typealias Driver = AK8963<SimulatedI2CBus>
    let tilted = SensorTruth(
        specificForce: Vector3(1.2, -2.5, -9.4), rotationRate: Vector3(0.1, -0.2, 0.3),
        magneticField: Vector3(18.0, -6.0, 40.0), pressure: 95_432.1, temperature: 21.5, humidity: 40)

    func board(_ truth: SensorTruth? = nil) -> (ManualClock, SimulatedI2CBus, AK8963Emulator) {
        let clock = ManualClock()
        let bus = SimulatedI2CBus()
        let emulator = AK8963Emulator(truth: FixedTruth(truth ?? tilted), clock: clock)
        emulator.noiseEnabled = false
        bus.attach(emulator, at: 0x0C)
        return (clock, bus, emulator)
    }

    /// Half a count per axis, scaled by the largest sensitivity adjustment (1.5 at ASA 255).
    func tolerance(_ resolution: Driver.Resolution) -> Double { 0.87 * resolution.microteslaPerCount * 1.5 }

    @Test func readsTheWorldInBothResolutions() throws {
        for (resolution, rate, period) in [
            (Driver.Resolution.bits16, Driver.OutputRate.hz100, UInt64(10_000_000)),
            (.bits14, .hz8, 125_000_000)
        ] {
            let (clock, bus, emulator) = board()
            emulator.asa = (0xB0, 0x9A, 0xC4)  // sensitivity errors of +19 %, +10 %, +27 %
            var driver = AK8963(bus: bus, resolution: resolution, outputRate: rate)
            try driver.start()
            #expect(driver.sensitivityAdjustment == Vector3(1.1875, 1.1015625, 1.265625))
            #expect(try driver.read(at: clock.now()) == nil)  // no result yet
            clock.advance(by: period)
            let sample = try #require(try driver.read(at: clock.now()))
            let expected = ChipMounting.chipAxes(fromBody: tilted.magneticField)
            #expect((sample.field - expected).length <= tolerance(resolution))
            #expect(try driver.read(at: clock.now()) == nil)  // DRDY cleared by the read
            clock.advance(by: period)
            #expect(try driver.read(at: clock.now()) != nil)
        }
    }

    @Test func overflowIsRejected() throws {
        var truth = tilted
        truth.magneticField = Vector3(3000, 1500, 1000)  // |X|+|Y|+|Z| beyond 4912 uT
        let (clock, bus, _) = board(truth)
        var driver = AK8963(bus: bus)
        try driver.start()
        clock.advance(by: 10_000_000)
        #expect(try driver.read(at: clock.now()) == nil)
    }

    @Test func identifiesItselfAndNotOtherChips() {
        let (_, bus, _) = board()
        #expect(Driver.identify(bus: bus, address: 0x0C) == Driver.chips[0])
        let other = SimulatedI2CBus()
        other.attach(HMC5883LEmulator(truth: FixedTruth(), clock: ManualClock()), at: 0x0C)
        #expect(Driver.identify(bus: other, address: 0x0C) == nil)
        other.attach(QMC5883LEmulator(truth: FixedTruth(), clock: ManualClock()), at: 0x0C)
        #expect(Driver.identify(bus: other, address: 0x0C) == nil)
    }

    @Test func startRefusesAnotherChip() {
        let bus = SimulatedI2CBus()
        bus.attach(HMC5883LEmulator(truth: FixedTruth(), clock: ManualClock()), at: 0x0C)
        var driver = AK8963(bus: bus)
        #expect(throws: DeviceError.wrongChip(chip: "AK8963", register: 0x00, expected: 0x48, found: 0x10)) {
            try driver.start()
        }
    }

    @Test func blankFuseROMIsInvalidCalibration() {
        let (_, bus, emulator) = board()
        emulator.asa = (0xFF, 0xFF, 0xFF)
        var driver = AK8963(bus: bus)
        #expect(throws: DeviceError.invalidCalibration(chip: "AK8963")) { try driver.start() }
    }

    @Test func busErrorSurfacesAndTheDriverRecovers() throws {
        let (clock, bus, _) = board()
        var driver = AK8963(bus: bus)
        try driver.start()
        clock.advance(by: 10_000_000)
        bus.injectFaults(address: 0x0C, count: 1, error: .noAcknowledge(address: 0x0C))
        #expect(throws: DeviceError.bus(.noAcknowledge(address: 0x0C))) { try driver.read(at: clock.now()) }
        #expect(try driver.read(at: clock.now()) != nil)
    }

    @Test func startAndReadAreTheDatasheetTransactions() throws {
        let bus = ScriptedI2CBus()
        bus.expect(0x0C, write: [0x00], reply: [0x48])  // WIA
        bus.expect(0x0C, write: [0x0B, 0x01])  // CNTL2 SRST
        bus.expect(0x0C, write: [0x0A, 0x00])  // power-down
        bus.expect(0x0C, write: [0x00], reply: [0x48])  // 100 us in power-down
        bus.expect(0x0C, write: [0x0A, 0x0F])  // fuse ROM access
        bus.expect(0x0C, write: [0x10], reply: [0x80, 0xC0, 0x40])  // ASA: factors 1, 1.25, 0.75
        bus.expect(0x0C, write: [0x0A, 0x00])
        bus.expect(0x0C, write: [0x00], reply: [0x48])
        bus.expect(0x0C, write: [0x0A, 0x16])  // 16-bit, continuous mode 2
        // ST1 DRDY; X 1000, Y -400, Z 2000 counts little-endian; ST2 BITM.
        bus.expect(0x0C, write: [0x02], reply: [0x01, 0xE8, 0x03, 0x70, 0xFE, 0xD0, 0x07, 0x10])
        bus.expect(0x0C, write: [0x02], reply: [0x01, 0xE8, 0x03, 0x70, 0xFE, 0xD0, 0x07, 0x18])  // HOFL
        bus.expect(0x0C, write: [0x02], reply: [0x00, 0xE8, 0x03, 0x70, 0xFE, 0xD0, 0x07, 0x10])  // not ready
        var driver = AK8963(bus: bus, address: 0x0C)
        try driver.start()
        let sample = try #require(try driver.read(at: 7))
        #expect((sample.field - Vector3(150, -75, 225)).length < 1e-9)
        #expect(try driver.read(at: 8) == nil)
        #expect(try driver.read(at: 9) == nil)
        #expect(bus.completed, "\(bus.mismatches)")
    }

    @Test func hardIronShowsUpAsAnOffset() throws {
        let (clock, bus, emulator) = board()
        emulator.distortion.hardIron = Vector3(-20, 15, 8)
        var driver = AK8963(bus: bus)
        try driver.start()
        clock.advance(by: 10_000_000)
        let sample = try #require(try driver.read(at: clock.now()))
        let offset = sample.field - ChipMounting.chipAxes(fromBody: tilted.magneticField)
        #expect((offset - Vector3(-20, 15, 8)).length <= tolerance(.bits16))
    }

    @Test func modesChangeOnlyThroughPowerDown() throws {
        let (clock, bus, _) = board()
        var driver = AK8963(bus: bus)
        try driver.start()
        // Straight from continuous mode into fuse-ROM mode: the chip ignores it, so ASA stays hidden.
        let device = I2CRegisterDevice(bus: bus, address: 0x0C)
        try device.writeRegister(0x0A, 0x0F)
        #expect(try device.readRegister(0x10) == 0)
        clock.advance(by: 10_000_000)
        #expect(try driver.read(at: clock.now()) != nil)  // still measuring
    }
}
