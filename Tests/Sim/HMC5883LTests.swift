import LodestoneCore
import LodestoneDevices
import LodestoneHAL
import LodestoneSim
import Testing

@Suite struct HMC5883LTests {
    typealias Driver = HMC5883L<SimulatedI2CBus>
    let tilted = SensorTruth(
        specificForce: Vector3(1.2, -2.5, -9.4), rotationRate: Vector3(0.1, -0.2, 0.3),
        magneticField: Vector3(18.0, -6.0, 40.0), pressure: 95_432.1, temperature: 21.5, humidity: 40)

    func board(_ truth: SensorTruth? = nil) -> (ManualClock, SimulatedI2CBus, HMC5883LEmulator) {
        let clock = ManualClock()
        let bus = SimulatedI2CBus()
        let emulator = HMC5883LEmulator(truth: FixedTruth(truth ?? tilted), clock: clock)
        emulator.noiseEnabled = false
        bus.attach(emulator, at: 0x1E)
        return (clock, bus, emulator)
    }

    @Test func readsTheWorldInTwoRanges() throws {
        for range in [Driver.Range.gauss1_3, .gauss4_0, .gauss8_1] {
            let (clock, bus, _) = board()
            var driver = HMC5883L(bus: bus, range: range)
            try driver.start()
            clock.advance(by: 3_000_000)
            #expect(try driver.read(at: clock.now()) == nil)  // measurement not finished
            clock.advance(by: 7_000_000)
            let sample = try #require(try driver.read(at: clock.now()))
            let expected = ChipMounting.chipAxes(fromBody: tilted.magneticField)
            // Each axis is rounded to the nearest count: at most half a count per axis.
            #expect((sample.field - expected).length <= 0.87 / range.countsPerMicrotesla)
            #expect(sample.time == clock.now())
            #expect(try driver.read(at: clock.now()) == nil)  // RDY cleared by the read
            clock.advance(by: 10_000_000)
            #expect(try driver.read(at: clock.now()) != nil)  // the read triggered the next one
        }
    }

    @Test func overflowedChannelIsNotReported() throws {
        var truth = tilted
        truth.magneticField = Vector3(160, 0, 0)  // 2192 counts at 1370 LSB/G: past the 12-bit ADC
        let (clock, bus, _) = board(truth)
        var driver = HMC5883L(bus: bus, range: .gauss0_88)
        try driver.start()
        clock.advance(by: 10_000_000)
        #expect(try driver.read(at: clock.now()) == nil)
    }

    @Test func identifiesItselfAndNotOtherChips() {
        let (_, bus, _) = board()
        #expect(Driver.identify(bus: bus, address: 0x1E) == Driver.chips[0])
        #expect(Driver.identify(bus: bus, address: 0x0D) == nil)  // nothing there
        let other = SimulatedI2CBus()
        other.attach(QMC5883LEmulator(truth: FixedTruth(), clock: ManualClock()), at: 0x1E)
        #expect(Driver.identify(bus: other, address: 0x1E) == nil)
        other.attach(LIS3MDLEmulator(truth: FixedTruth(), clock: ManualClock()), at: 0x1E)
        #expect(Driver.identify(bus: other, address: 0x1E) == nil)
    }

    @Test func startRefusesAnotherChip() {
        let bus = SimulatedI2CBus()
        bus.attach(QMC5883LEmulator(truth: FixedTruth(), clock: ManualClock()), at: 0x1E)
        var driver = HMC5883L(bus: bus)
        #expect(throws: DeviceError.wrongChip(chip: "HMC5883L", register: 0x0A, expected: 0x48, found: 0x00)) {
            try driver.start()
        }
    }

    @Test func busErrorSurfacesAndTheDriverRecovers() throws {
        let (clock, bus, _) = board()
        var driver = HMC5883L(bus: bus)
        try driver.start()
        clock.advance(by: 10_000_000)
        bus.injectFaults(address: 0x1E, count: 1, error: .timeout(address: 0x1E))
        #expect(throws: DeviceError.bus(.timeout(address: 0x1E))) { try driver.read(at: clock.now()) }
        #expect(try driver.read(at: clock.now()) != nil)
    }

    @Test func startAndReadAreTheDatasheetTransactions() throws {
        let bus = ScriptedI2CBus()
        bus.expect(0x1E, write: [0x0A], reply: [0x48, 0x34, 0x33])  // "H43"
        bus.expect(0x1E, write: [0x00, 0x70])  // CRA: 8 averaged, 15 Hz bits, normal measurement
        bus.expect(0x1E, write: [0x01, 0x60])  // CRB: gain 3, +-2.5 G
        bus.expect(0x1E, write: [0x02, 0x01])  // single measurement
        bus.expect(0x1E, write: [0x09], reply: [0x01])
        // X = 330, Z = -660, Y = 66 counts at 660 LSB/G: 50, -100, 10 uT.
        bus.expect(0x1E, write: [0x03], reply: [0x01, 0x4A, 0xFD, 0x6C, 0x00, 0x42])
        bus.expect(0x1E, write: [0x02, 0x01])
        bus.expect(0x1E, write: [0x09], reply: [0x00])
        var driver = HMC5883L(bus: bus, address: 0x1E)
        try driver.start()
        let sample = try #require(try driver.read(at: 42))
        #expect((sample.field - Vector3(50, 10, -100)).length < 1e-9)
        #expect(try driver.read(at: 43) == nil)
        #expect(bus.completed, "\(bus.mismatches)")
    }

    @Test func hardIronShowsUpAsAnOffset() throws {
        let (clock, bus, emulator) = board()
        emulator.distortion.hardIron = Vector3(12, -7, 4)
        var driver = HMC5883L(bus: bus)
        try driver.start()
        clock.advance(by: 10_000_000)
        let sample = try #require(try driver.read(at: clock.now()))
        let offset = sample.field - ChipMounting.chipAxes(fromBody: tilted.magneticField)
        #expect((offset - Vector3(12, -7, 4)).length < 0.87 / Driver.Range.gauss2_5.countsPerMicrotesla)
    }

    @Test func pointerRollsBackFromTheLastDataRegister() throws {
        let (clock, bus, _) = board()
        var driver = HMC5883L(bus: bus)
        try driver.start()
        clock.advance(by: 10_000_000)
        var bytes = [UInt8](repeating: 0, count: 12)
        var register: UInt8 = 0x03
        try withUnsafeBytes(of: &register) { write in
            try bytes.withUnsafeMutableBytes { read in try bus.transfer(address: 0x1E, write: write, read: read) }
        }
        #expect(Array(bytes[0..<6]) == Array(bytes[6..<12]))
        #expect(bytes[0..<6].contains { $0 != 0 })
    }
}
