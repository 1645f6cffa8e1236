import LodestoneCore
import LodestoneHAL
import LodestoneOutputs
import LodestoneSim
import Testing
@testable import LodestoneEncoding
@testable import LodestoneSampling
@testable import LodestoneServices
@testable import LodestoneSettings
@testable import LodestoneBoard

/// Buttons, buzzer and the IMU's data-ready line as the runtime uses them, on fake lines.
@Suite struct ControlsTests {
    let ms: UInt64 = 1_000_000

    @Test func aButtonPressBecomesAnEventAndABeep() throws {
        let gpio = SimulatedGPIO()
        var wiring = BoardDescription.GPIOWiring()
        wiring.buttons = ["bearingLock": 5, "track": 13]
        wiring.buzzer = 12
        let controls = Controls(wiring: wiring, provider: gpio)
        #expect(controls.problems.isEmpty)
        #expect(controls.update(at: 0).isEmpty)
        gpio.press(5, at: 10 * ms)
        #expect(controls.update(at: 15 * ms).isEmpty)  // still bouncing
        let events = controls.update(at: 40 * ms)
        #expect(events.count == 1 && events[0].button == "bearingLock" && events[0].event == .press)
        #expect(gpio.outputs[12]?.level == true)  // the acknowledge blip is playing
        _ = controls.update(at: 100 * ms)
        #expect(gpio.outputs[12]?.level == false)
        let report = try JSONValue.parse(GPSDReports.line(Controls.report(button: "bearingLock", event: .press, time: 1_795_000_000)))
        #expect(report["class"]?.stringValue == "EVENT" && report["button"]?.stringValue == "bearingLock")
        #expect(report["action"]?.stringValue == "press")
    }

    /// The buzzer's on/off timeline for each configured pattern, sampled every millisecond:
    /// the on-times are the pattern's; mute and quiet hours silence the buzzer but not the LED,
    /// and an alert sounds in quiet hours.
    @Test func soundsFollowTheSettingsOnTheLines() throws {
        func timeline(_ kind: SoundSettings.Kind, _ configure: (inout SoundSettings) -> Void, minute: Int = 600) -> (buzzer: [Int], led: [Int]) {
            let gpio = SimulatedGPIO()
            var wiring = BoardDescription.GPIOWiring()
            (wiring.buzzer, wiring.led) = (12, 6)
            let controls = Controls(wiring: wiring, provider: gpio)
            configure(&controls.sounds)
            controls.minuteOfDay = minute
            controls.signal(kind, at: 0)
            var buzzer: [Int] = [], led: [Int] = []
            var (lastBuzzer, lastLED) = (false, false)
            for millisecond in 0..<3000 {
                _ = controls.update(at: UInt64(millisecond) * ms)
                let (b, l) = (gpio.outputs[12]?.level ?? false, gpio.outputs[6]?.level ?? false)
                if b != lastBuzzer { buzzer.append(millisecond); lastBuzzer = b }
                if l != lastLED { led.append(millisecond); lastLED = l }
            }
            return (buzzer, led)
        }
        // "triple": on 40, off 80, on 40, off 80, on 40.
        let triple = timeline(.offCourse) { _ in }
        #expect(triple.buzzer == [0, 40, 120, 160, 240, 280], "\(triple.buzzer)")
        let long = timeline(.snapshot) { $0.chosen[.snapshot] = "long" }
        #expect(long.buzzer == [0, 400])
        let muted = timeline(.lock) { $0.mute = true }
        #expect(muted.buzzer.isEmpty && muted.led == [0, 40, 120, 160], "the LED still shows it")
        let quiet = timeline(.button, { $0.quietHours = SoundSettings.window("22:00-07:00") }, minute: 23 * 60)
        #expect(quiet.buzzer.isEmpty && !quiet.led.isEmpty)
        let awake = timeline(.button, { $0.quietHours = SoundSettings.window("22:00-07:00") }, minute: 7 * 60)
        #expect(awake.buzzer == [0, 40], "07:00 is past the window")
        let storm = timeline(.alert, { $0.quietHours = SoundSettings.window("22:00-07:00") }, minute: 2 * 60)
        #expect(storm.buzzer.count == 11 && storm.buzzer.last == 2700, "an alert sounds in quiet hours, both passes: \(storm.buzzer)")
        let silent = timeline(.level) { $0.chosen[.level] = "none" }
        #expect(silent.buzzer.isEmpty && silent.led.isEmpty)
        #expect(SoundSettings.window("7:00-22:00")?.from == 420 && SoundSettings.window("25:00-07:00") == nil && SoundSettings.window("08:00") == nil)
    }

    /// Turning through the cardinal points clicks once at each; wobbling on one clicks once.
    @Test func aClickAtEachCardinalPoint() {
        var clicker = CardinalClicker()
        var clicks: [Double] = []
        for step in 0...400 {
            let heading = Angle.heading(350 + Double(step))  // 350° round past north twice, to 30°
            if clicker.update(heading: heading) { clicks.append(heading) }
        }
        #expect(clicks.count == 5 && clicks.allSatisfy { Int($0) % 90 == 2 }, "\(clicks)")
        var wobble = CardinalClicker()
        var wobbleClicks = 0
        for heading in [85.0, 89, 91, 89.5, 90.5, 91, 92, 91, 92.5, 93] where wobble.update(heading: heading) { wobbleClicks += 1 }
        #expect(wobbleClicks == 1)
        #expect(!wobble.update(heading: nil) && !wobble.update(heading: 10), "no heading to trust: start again, no click")
    }

    @Test func aLineThatCannotBeHadIsReportedAndTheRestWork() {
        let gpio = SimulatedGPIO(lineCount: 10)
        var wiring = BoardDescription.GPIOWiring()
        wiring.buttons = ["bearingLock": 5, "snapshot": 40]
        wiring.led = 6
        let controls = Controls(wiring: wiring, provider: gpio)
        #expect(controls.problems.count == 1 && controls.problems[0].contains("snapshot"))
        gpio.press(5, at: 0, bounces: 0)
        #expect(controls.update(at: 30 * ms).first?.event == .press)
        #expect(gpio.outputs[6]?.changes.first == true)
    }

    @Test func theIMUIsReadOnlyWhenItsDataReadyPinRises() throws {
        let clock = ManualClock()
        let bus = SimulatedI2CBus()
        bus.attach(MPU6050Emulator(truth: FixedTruth(), clock: clock), at: 0x68)
        let gpio = SimulatedGPIO()
        var board = BoardDescription.simulatedBoard
        board.imu = BoardDescription.Chip(chip: "mpu6050", address: 0x68, dataReadyLine: 4)
        board.magnetometer = nil
        board.barometer = nil
        let pipeline = BoardWiring.pipeline(board: board, bus: { _ in bus }, gps: nil, clock: clock, qnh: 1013.25, gpio: gpio)
        let pin = try #require(gpio.inputs[4])
        clock.advance(by: 10 * ms)
        pipeline.sampleIMU()  // brings the chip up and reads it
        let transfers = bus.transfers
        clock.advance(by: 10 * ms)
        pipeline.sampleIMU()
        #expect(bus.transfers == transfers, "no edge, no bus traffic")
        pin.drive(true, at: clock.now())
        pin.drive(false, at: clock.now() + 50_000)
        pipeline.sampleIMU()
        #expect(bus.transfers == transfers + 1)
        clock.advance(by: 150 * ms)  // a silent pin falls back to polling
        pipeline.sampleIMU()
        #expect(bus.transfers == transfers + 2)
    }
}
