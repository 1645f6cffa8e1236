import LodestoneCore
import LodestoneDevices
import LodestoneHAL
import LodestoneSim
import Testing

@Suite struct ADS1115Tests {
    typealias Driver = ADS1115<SimulatedI2CBus>

    /// Channel c sits at (0.15 + 0.2 c) of full scale, so every channel reads differently.
    static func inputs(fullScale: Double) -> @Sendable (Int) -> Double {
        { channel in (0.15 + 0.2 * Double(channel)) * fullScale }
    }

    func board(address: UInt8 = 0x48, noise: Bool = true, volts: @escaping @Sendable (Int) -> Double)
        -> (SimulatedI2CBus, ADS1115Emulator)
    {
        let bus = SimulatedI2CBus()
        let emulator = ADS1115Emulator(seed: 7, volts: volts)
        emulator.noiseEnabled = noise
        bus.attach(emulator, at: address)
        return (bus, emulator)
    }

    @Test(arguments: Driver.Range.allCases)
    func voltsRoundTripWithinOneLSB(range: Driver.Range) throws {
        let fullScale = range.fullScaleVolts
        let (bus, _) = board(volts: Self.inputs(fullScale: fullScale))
        var adc = Driver(bus: bus, address: 0x48)
        let lsb = fullScale / 32768
        for channel in Driver.Channel.allCases {
            try adc.start(channel: channel, range: range, rate: .sps860)
            let expected = (0.15 + 0.2 * Double(channel.rawValue)) * fullScale
            for _ in 0..<20 {
                let volts = try adc.readVolts()
                #expect(abs(volts - expected) <= lsb * 1.000001, "\(range) \(channel): \(volts) V for \(expected) V")
            }
        }
    }

    @Test func eachChannelReadsItsOwnInput() throws {
        let (bus, _) = board(noise: false) { channel in channel == 2 ? 1.25 : 0.5 }
        var adc = Driver(bus: bus)
        try adc.start(channel: .ain2, range: .volts2_048, rate: .sps128)
        #expect(abs(try adc.readVolts() - 1.25) <= 2.048 / 32768)
        try adc.start(channel: .ain0, range: .volts2_048, rate: .sps128)
        #expect(abs(try adc.readVolts() - 0.5) <= 2.048 / 32768)
        #expect(adc.channel == .ain0)
    }

    @Test func inputsBeyondFullScaleClipAtTheEndCodes() throws {
        let (bus, _) = board(noise: false) { channel in channel == 0 ? 3.3 : -0.5 }
        var adc = Driver(bus: bus)
        try adc.start(channel: .ain0, range: .volts1_024, rate: .sps128)
        #expect(try adc.readRaw() == 32767)
        try adc.start(channel: .ain1, range: .volts0_256, rate: .sps128)
        #expect(try adc.readRaw() == -32768)
        #expect(try adc.readVolts() == -0.256)
    }

    /// The exact bytes of SBAS444's I2C protocol: pointer + config MSB + LSB, then pointer +
    /// a two-byte read for the read-back and for each conversion.
    @Test func startAndReadAreTheDatasheetTransactions() throws {
        let bus = ScriptedI2CBus()
        // AIN1 vs GND (MUX 0b101), ±4.096 V (PGA 0b001), continuous (MODE 0), 128 SPS
        // (DR 0b100), comparator disabled (COMP_QUE 0b11): 0b0101_0010_1000_0011 = 0x5283.
        bus.expect(0x49, write: [0x01, 0x52, 0x83])
        bus.expect(0x49, write: [0x01], reply: [0x52, 0x83])
        bus.expect(0x49, write: [0x00], reply: [0x40, 0x00])  // 16384: half of 4.096 V
        bus.expect(0x49, write: [0x00], reply: [0xFF, 0xFE])  // -2 LSB: an offset below ground
        var adc = ADS1115(bus: bus, address: 0x49)
        try adc.start(channel: .ain1, range: .volts4_096, rate: .sps128)
        #expect(try adc.readVolts() == 2.048)
        #expect(try adc.readVolts() == -2 * 4.096 / 32768)
        #expect(bus.completed, "\(bus.mismatches)")
    }

    @Test func theOperationalStatusBitIsNotPartOfTheReadBack() throws {
        let bus = ScriptedI2CBus()
        bus.expect(0x48, write: [0x01, 0x40, 0xE3])  // AIN0, ±6.144 V, 860 SPS
        bus.expect(0x48, write: [0x01], reply: [0xC0, 0xE3])  // OS set on read: still a match
        var adc = ADS1115(bus: bus, address: 0x48)
        try adc.start(channel: .ain0, range: .volts6_144, rate: .sps860)
        #expect(bus.completed, "\(bus.mismatches)")
    }

    @Test func startRefusesAChipThatDoesNotKeepTheConfig() {
        let bus = ScriptedI2CBus()
        bus.expect(0x48, write: [0x01, 0x44, 0x83])  // AIN0, ±2.048 V, 128 SPS
        bus.expect(0x48, write: [0x01], reply: [0x60, 0xA0])  // a TMP102's config register
        var adc = ADS1115(bus: bus, address: 0x48)
        #expect(throws: DeviceError.wrongChip(chip: "ADS1115", register: 0x01, expected: 0x44, found: 0x60)) {
            try adc.start(channel: .ain0, range: .volts2_048, rate: .sps128)
        }
        let lowByte = ScriptedI2CBus()
        lowByte.expect(0x48, write: [0x01, 0x44, 0x83])
        lowByte.expect(0x48, write: [0x01], reply: [0x44, 0x80])
        var other = ADS1115(bus: lowByte, address: 0x48)
        #expect(throws: DeviceError.wrongChip(chip: "ADS1115", register: 0x01, expected: 0x83, found: 0x80)) {
            try other.start(channel: .ain0, range: .volts2_048, rate: .sps128)
        }
    }

    @Test func aMissingChipIsAnErrorNotACrash() {
        let (bus, _) = board(address: 0x48) { _ in 1 }
        var adc = Driver(bus: bus, address: 0x4A)
        #expect(throws: DeviceError.bus(.noAcknowledge(address: 0x4A))) {
            try adc.start(channel: .ain0, range: .volts4_096, rate: .sps128)
        }
        #expect(throws: DeviceError.bus(.noAcknowledge(address: 0x4A))) { try adc.readVolts() }
        #expect(!Driver.identify(bus: bus, address: 0x4A))
    }

    @Test func aBusFaultSurfacesAndTheNextReadRecovers() throws {
        let (bus, _) = board(noise: false) { _ in 1.0 }
        var adc = Driver(bus: bus)
        try adc.start(channel: .ain3, range: .volts2_048, rate: .sps128)
        bus.injectFaults(address: 0x48, count: 1, error: .timeout(address: 0x48))
        #expect(throws: DeviceError.bus(.timeout(address: 0x48))) { try adc.readVolts() }
        #expect(abs(try adc.readVolts() - 1.0) <= 2.048 / 32768)
    }

    @Test func identifiesThePowerOnAndAConfiguredChipWithoutWriting() throws {
        let (bus, emulator) = board { _ in 0.4 }
        #expect(Driver.identify(bus: bus, address: 0x48))
        #expect(emulator.config == 0x0583 && emulator.conversions == 0)  // nothing written
        var adc = Driver(bus: bus)
        try adc.start(channel: .ain1, range: .volts0_512, rate: .sps8)
        #expect(Driver.identify(bus: bus, address: 0x48))
    }

    @Test(arguments: [[UInt8(0xFF), 0xFF], [0x00, 0x00], [0x60, 0xA0]])
    func rejectsWhatIsNotAnADS1115(config: [UInt8]) {
        // A floating bus, a bus held low, and a TMP102 (which shares 0x48-0x4B).
        let bus = ScriptedI2CBus()
        bus.expect(0x48, write: [0x01], reply: config)
        #expect(!ADS1115.identify(bus: bus, address: 0x48))
        #expect(bus.completed, "\(bus.mismatches)")
    }

    @Test func singleShotInTheEmulatorConvertsOnTheOSBit() throws {
        // The emulator's single-shot path, driven with raw transfers as another driver would.
        let (bus, emulator) = board(noise: false) { _ in 1.024 }
        var start: (UInt8, UInt8, UInt8) = (0x01, 0xC5, 0x83)  // OS=1, AIN0, ±2.048 V, single-shot
        try withUnsafeBytes(of: &start) { write in
            try bus.transfer(address: 0x48, write: write, read: UnsafeMutableRawBufferPointer(start: nil, count: 0))
        }
        #expect(emulator.conversion == 16384)
        let adc = Driver(bus: bus)
        #expect(try adc.readVolts() == 1.024)  // the power-on range is ±2.048 V, as configured
    }
}
