import LodestoneCore
import LodestoneHAL
import LodestoneSim
import Testing

/// Buttons, debounce and output patterns against the fake line provider; the libgpiod
/// backend's error path on a machine without a gpiochip.
@Suite struct GPIOTests {
    let ms: UInt64 = 1_000_000

    @Test func aBouncingPressIsOnePress() throws {
        let gpio = SimulatedGPIO()
        let line = try gpio.input(offset: 5, pullUp: true)
        var button = Button(name: "bearingLock")
        gpio.press(5, at: 100 * ms, bounces: 4)
        var events: [EdgeEvent] = []
        try line.takeEvents { events.append($0) }
        #expect(events.count == 9)  // 4 bounces (down, up) then down
        #expect(button.update(edges: events, now: 105 * ms) == nil)  // still inside the settle time
        #expect(button.update(now: 125 * ms) == .press)
        #expect(button.update(now: 130 * ms) == nil)
        #expect(button.isDown)
    }

    @Test func aGlitchShorterThanTheSettleTimeIsIgnored() {
        var debouncer = Debouncer(initialLevel: true, settleNanoseconds: 20 * ms)
        debouncer.edge(EdgeEvent(rising: false, time: 10 * ms))
        debouncer.edge(EdgeEvent(rising: true, time: 12 * ms))
        #expect(debouncer.settled(at: 40 * ms) == nil)
        #expect(debouncer.level == true)
    }

    @Test func holdingGivesOneLongPressThenARelease() throws {
        let gpio = SimulatedGPIO()
        let line = try gpio.input(offset: 6, pullUp: true)
        var button = Button(name: "track")
        var seen: [Button.Event] = []
        gpio.press(6, at: 0, bounces: 0)
        for t in stride(from: UInt64(0), through: 2000 * ms, by: 10_000_000) {
            if t == 1500 * ms { gpio.release(6, at: t) }
            var edges: [EdgeEvent] = []
            try line.takeEvents { edges.append($0) }
            if let event = button.update(edges: edges, now: t) { seen.append(event) }
        }
        #expect(seen == [.press, .longPress, .release])
    }

    @Test func patternsPlayOnAnOutputAndStop() throws {
        let gpio = SimulatedGPIO()
        let output = try gpio.output(offset: 12)
        let player = PatternPlayer(output: output)
        player.play(.saved, at: 0)  // on 40, off 80, on 40
        for t in stride(from: UInt64(0), through: 300 * ms, by: 5_000_000) { player.update(at: t) }
        #expect(gpio.outputs[12]?.changes == [true, false, true, false])
        #expect(!player.isPlaying)
        #expect(OutputPattern.alert.level(after: 0) == true)
        #expect(OutputPattern.alert.level(after: 350 * ms) == false)
        #expect(OutputPattern.alert.level(after: 10_000 * ms) == nil)
    }

    @Test func aFailingOutputStopsThePatternWithoutCrashing() throws {
        let gpio = SimulatedGPIO()
        let output = try gpio.output(offset: 12)
        gpio.outputs[12]?.failWith = .lineBusy(chip: "sim", offset: 12)
        let player = PatternPlayer(output: output)
        player.play(.alert, at: 0)
        player.update(at: 10 * ms)
        #expect(player.failure == .lineBusy(chip: "sim", offset: 12))
        #expect(!player.isPlaying)
    }

    @Test func linesAreCheckedAndNotSharedTwice() throws {
        let gpio = SimulatedGPIO(lineCount: 28)
        _ = try gpio.output(offset: 12)
        #expect(throws: GPIOError.lineBusy(chip: "sim-gpiochip0", offset: 12)) { try gpio.input(offset: 12, pullUp: true) }
        #expect(throws: GPIOError.noSuchLine(chip: "sim-gpiochip0", offset: 40)) { try gpio.output(offset: 40) }
    }

    @Test func theLibgpiodBackendExplainsAMissingChip() {
        // This machine has no gpiochip: the real backend must fail with a typed error, not abort.
        #expect(throws: GPIOError.noSuchChip("/dev/gpiochip99")) { try LinuxGPIOChip(path: "/dev/gpiochip99") }
        // A label no chip has is the same typed error.
        #expect(throws: GPIOError.noSuchChip("pinctrl-nonesuch")) { try LinuxGPIOChip(path: "pinctrl-nonesuch") }
    }
}
