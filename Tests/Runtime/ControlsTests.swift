import LodestoneCore
import LodestoneHAL
import LodestoneOutputs
@testable import LodestoneRuntime
import LodestoneSim
import Testing

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
        #expect(controls.update(at: 15 * ms).isEmpty)   // still bouncing
        let events = controls.update(at: 40 * ms)
        #expect(events.count == 1 && events[0].button == "bearingLock" && events[0].event == .press)
        #expect(gpio.outputs[12]?.level == true)   // the acknowledge blip is playing
        _ = controls.update(at: 100 * ms)
        #expect(gpio.outputs[12]?.level == false)
        let report = try JSONValue.parse(GPSDReports.line(Controls.report(button: "bearingLock", event: .press, time: 1_795_000_000)))
        #expect(report["class"]?.stringValue == "EVENT" && report["button"]?.stringValue == "bearingLock")
        #expect(report["action"]?.stringValue == "press")
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
        pipeline.sampleIMU()                       // brings the chip up and reads it
        let transfers = bus.transfers
        clock.advance(by: 10 * ms)
        pipeline.sampleIMU()
        #expect(bus.transfers == transfers, "no edge, no bus traffic")
        pin.drive(true, at: clock.now())
        pin.drive(false, at: clock.now() + 50_000)
        pipeline.sampleIMU()
        #expect(bus.transfers == transfers + 1)
        clock.advance(by: 150 * ms)                // a silent pin falls back to polling
        pipeline.sampleIMU()
        #expect(bus.transfers == transfers + 2)
    }
}
