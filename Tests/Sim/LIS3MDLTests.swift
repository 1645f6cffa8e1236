import LodestoneCore
import LodestoneDevices
import LodestoneHAL
import LodestoneSim
import Testing

@Suite struct LIS3MDLTests {
    typealias Driver = LIS3MDL<SimulatedI2CBus>
    let tilted = SensorTruth(
        specificForce: Vector3(1.2, -2.5, -9.4), rotationRate: Vector3(0.1, -0.2, 0.3),
        magneticField: Vector3(18.0, -6.0, 40.0), pressure: 95_432.1, temperature: 21.5, humidity: 40)

    func board(address: UInt8 = 0x1C) -> (ManualClock, SimulatedI2CBus, LIS3MDLEmulator) {
        let clock = ManualClock()
        let bus = SimulatedI2CBus()
        let emulator = LIS3MDLEmulator(truth: FixedTruth(tilted), clock: clock)
        emulator.noiseEnabled = false
        bus.attach(emulator, at: address)
        return (clock, bus, emulator)
    }

    @Test func readsTheWorldInSeveralRanges() throws {
        for range in [Driver.Range.gauss4, .gauss12, .gauss16] {
            let (clock, bus, _) = board()
            var driver = LIS3MDL(bus: bus, range: range)
            try driver.start()
            #expect(try driver.read(at: clock.now()) == nil)  // first result one period away
            clock.advance(by: 12_500_000)  // 80 Hz
            let sample = try #require(try driver.read(at: clock.now()))
            let expected = ChipMounting.chipAxes(fromBody: tilted.magneticField)
            #expect((sample.field - expected).length <= 0.87 / range.countsPerMicrotesla)
            #expect(try driver.read(at: clock.now()) == nil)  // ZYXDA cleared by the read
            clock.advance(by: 12_500_000)
            #expect(try driver.read(at: clock.now()) != nil)
        }
    }

    @Test func outputRateSetsTheCadence() throws {
        let (clock, bus, _) = board()
        var driver = LIS3MDL(bus: bus, outputRate: .hz10)
        try driver.start()
        clock.advance(by: 60_000_000)
        #expect(try driver.read(at: clock.now()) == nil)
        clock.advance(by: 40_000_000)
        #expect(try driver.read(at: clock.now()) != nil)
    }

    @Test func identifiesItselfAndNotTheOtherChipAtItsAddress() {
        let (_, bus, _) = board(address: 0x1E)
        #expect(Driver.identify(bus: bus, address: 0x1E) == Driver.chips[0])
        #expect(HMC5883L<SimulatedI2CBus>.identify(bus: bus, address: 0x1E) == nil)
        let other = SimulatedI2CBus()
        other.attach(HMC5883LEmulator(truth: FixedTruth(), clock: ManualClock()), at: 0x1E)
        #expect(Driver.identify(bus: other, address: 0x1E) == nil)
        #expect(HMC5883L<SimulatedI2CBus>.identify(bus: other, address: 0x1E) == HMC5883L<SimulatedI2CBus>.chips[0])
    }

    @Test func startRefusesAnotherChip() {
        let bus = SimulatedI2CBus()
        bus.attach(HMC5883LEmulator(truth: FixedTruth(), clock: ManualClock()), at: 0x1E)
        var driver = LIS3MDL(bus: bus, address: 0x1E)
        #expect(throws: DeviceError.wrongChip(chip: "LIS3MDL", register: 0x0F, expected: 0x3D, found: 0x00)) {
            try driver.start()
        }
    }

    @Test func busErrorSurfacesAndTheDriverRecovers() throws {
        let (clock, bus, _) = board()
        var driver = LIS3MDL(bus: bus)
        try driver.start()
        clock.advance(by: 12_500_000)
        bus.injectFaults(address: 0x1C, count: 1, error: .busError(address: 0x1C))
        #expect(throws: DeviceError.bus(.busError(address: 0x1C))) { try driver.read(at: clock.now()) }
        #expect(try driver.read(at: clock.now()) != nil)
    }

    @Test func multiByteReadsStepOnlyWithTheAddressTopBit() throws {
        let (clock, bus, _) = board()
        var driver = LIS3MDL(bus: bus)
        try driver.start()
        clock.advance(by: 12_500_000)
        let device = I2CRegisterDevice(bus: bus, address: 0x1C)
        var plain = [UInt8](repeating: 0, count: 4)
        try plain.withUnsafeMutableBytes { try device.readRegisters(0x20, into: $0) }
        #expect(plain == [0x7C, 0x7C, 0x7C, 0x7C])  // CTRL_REG1 four times
        var stepping = [UInt8](repeating: 0, count: 4)
        try stepping.withUnsafeMutableBytes { try device.readRegisters(0xA0, into: $0) }
        #expect(stepping == [0x7C, 0x00, 0x00, 0x0C])  // CTRL_REG1...CTRL_REG4
    }

    @Test func hardIronShowsUpAsAnOffset() throws {
        let (clock, bus, emulator) = board()
        emulator.distortion.hardIron = Vector3(5, 9, -14)
        var driver = LIS3MDL(bus: bus)
        try driver.start()
        clock.advance(by: 12_500_000)
        let sample = try #require(try driver.read(at: clock.now()))
        let offset = sample.field - ChipMounting.chipAxes(fromBody: tilted.magneticField)
        #expect((offset - Vector3(5, 9, -14)).length <= 0.87 / Driver.Range.gauss4.countsPerMicrotesla)
    }
}
