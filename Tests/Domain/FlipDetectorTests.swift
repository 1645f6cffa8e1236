import LodestoneCore
import LodestoneDomain
import LodestoneSim
import Testing

@Suite struct FlipDetectorTests {
    /// The flips found in a trace: their times, seconds.
    static func flips(_ trace: MotionTrace, settings: FlipDetector.Settings = .init()) -> [Double] {
        var detector = FlipDetector(settings: settings)
        var times: [Double] = []
        for (f, w) in zip(trace.force, trace.rotation) {
            if let flip = detector.update(specificForce: f, rotationRate: w, interval: trace.interval) {
                times.append(flip.time)
            }
        }
        return times
    }

    @Test(arguments: [false, true], [0.3, 0.6, 1.0, 1.5])
    func firesOnceOnEveryDeliberateFlip(aboutY: Bool, halfTurn: Double) {
        for (hold, onRound, seed) in [(0.3, false, UInt64(1)), (1.0, true, 2), (2.0, false, 3)] {
            let trace = MotionTrace.flip(aboutY: aboutY, halfTurn: halfTurn, hold: hold, onRound: onRound, seed: seed)
            let found = Self.flips(trace)
            #expect(
                found.count == 1, "about \(aboutY ? "y" : "x"), \(halfTurn) s per half-turn, held \(hold) s\(onRound ? ", on round" : ""): \(found.count) flips"
            )
            // Reported as the device comes back face up: after the second half-turn began.
            if let time = found.first {
                #expect(time > 1.5 + halfTurn + hold && time < 1.5 + 2 * halfTurn + hold + 0.5)
            }
        }
    }

    @Test(arguments: [25.0, 50.0, 200.0])
    func firesAtOtherSampleRates(rate: Double) {
        for aboutY in [false, true] {
            #expect(Self.flips(MotionTrace.flip(aboutY: aboutY, halfTurn: 0.5, hold: 0.5, rate: rate, seed: 4)).count == 1)
        }
    }

    @Test func doesNotFireOnHalfAGestureOrPuttingDown() {
        // Turned over and left face down: no gesture (too long face down).
        let putDown = MotionTrace.flip(aboutY: false, halfTurn: 0.8, hold: 10, seed: 5)
        #expect(Self.flips(putDown).isEmpty)
        // Only tipped to 90 degrees and back.
        var settings = FlipDetector.Settings()
        settings.faceAngle = 40
        let tipped = MotionTrace(rate: 100, seconds: 8, seed: 6) { t in
            let s = t - 1.5
            let roll = s > 0 && s < 2 ? 90 * (1 - (2 * s - 2) * (2 * s - 2) / 4) : 0
            return (roll, 0, 0, .zero)
        }
        #expect(Self.flips(tipped, settings: settings).isEmpty)
        // A blink face down (under 0.25 s) is not held.
        #expect(Self.flips(MotionTrace.flip(aboutY: true, halfTurn: 0.3, hold: 0.0, seed: 7)).isEmpty)
    }

    @Test func cooldownAllowsOneEventPerThreeSeconds() {
        // Two quick flips one after the other: the second starts inside the cooldown.
        let first = MotionTrace.flip(aboutY: false, halfTurn: 0.3, hold: 0.3, seed: 8)
        let quick = first.prefix(seconds: 1.5 + 0.9 + 0.3) + MotionTrace.flip(aboutY: false, halfTurn: 0.3, hold: 0.3, seed: 9)
        #expect(Self.flips(quick).count == 1)
        // Two flips well apart: both.
        let apart = first + MotionTrace.still(seconds: 2) + MotionTrace.flip(aboutY: true, halfTurn: 0.5, hold: 0.5, seed: 10)
        let times = Self.flips(apart)
        #expect(times.count == 2)
        if times.count == 2 { #expect(times[1] - times[0] > 3) }
    }

    @Test func neverFiresOnWalkingRunningRidingOrShaking() {
        var cases: [(String, MotionTrace)] = []
        for cadence in [1.6, 2.0] { cases.append(("walking \(cadence) Hz", MotionTrace.gait(cadence: cadence, seconds: 60, running: false, seed: 21))) }
        for cadence in [2.5, 3.0] { cases.append(("running \(cadence) Hz", MotionTrace.gait(cadence: cadence, seconds: 60, running: true, seed: 22))) }
        cases.append(("bumpy ride", MotionTrace.vehicle(seconds: 300, seed: 23)))
        cases.append(("boat", MotionTrace.boat(seconds: 300, seed: 24)))
        cases.append(("tapped table", MotionTrace.tapping(seconds: 60, seed: 25)))
        for axis in 0..<3 {
            for frequency in [2.0, 5.0, 8.0] {
                cases.append(
                    (
                        "shaken +-3 g along \(["x", "y", "z"][axis]) at \(frequency) Hz",
                        MotionTrace.shaking(axis: axis, seconds: 2, frequency: frequency, seed: UInt64(30 + axis))
                    ))
            }
        }
        for (name, trace) in cases {
            let found = Self.flips(trace)
            print("\(name): \(found.count) flips in \(Int(trace.duration)) s")
            #expect(found.isEmpty, "\(name)")
        }
    }

    /// The accelerometer alone (no gyro) is fooled by the shake: +-3 g along z points "down"
    /// upwards for part of each cycle. The gyro-carried estimate is what keeps the detector quiet.
    @Test func theShakeWouldFoolAnAccelerometerOnlyDetector() {
        let shake = MotionTrace.shaking(axis: 2, seconds: 2, frequency: 2, seed: 40)
        let faceDownReadings = shake.force.filter { $0.z > 0.77 * $0.length }.count
        #expect(faceDownReadings > 20)
    }

    // MARK: The simulated world

    static func simulatedFlips(_ name: ScenarioName, seconds: Double) -> (flips: [Double], faceDownAt: [Double]) {
        let world = SimulatedWorld(scenario: Scenario(name), clock: ManualClock())
        var detector = FlipDetector()
        var viaAttitude = FlipDetector()
        var attitude = AttitudeFilter()
        var flips: [Double] = []
        var faceDown: [Double] = []
        var t = 0.0
        var wasUpsideDown = false
        while t < seconds {
            t += 0.01
            let state = world.state(at: t)
            let truth = state.truth
            if let flip = detector.update(specificForce: truth.specificForce, rotationRate: truth.rotationRate, interval: 0.01) {
                flips.append(flip.time)
            }
            // The same gesture through the attitude filter's down direction.
            attitude.update(rotationRate: truth.rotationRate, specificForce: truth.specificForce, field: truth.magneticField, interval: 0.01)
            let flip = viaAttitude.update(down: attitude.orientation.rotateInverse(Vector3(0, 0, 1)), interval: 0.01)
            #expect((flip != nil) == (flips.last == t), "the attitude-fed detector disagrees at \(t)")
            // Where the scenario's own roll says the device is upside down.
            let upsideDown = abs(state.roll) > 150
            if upsideDown && !wasUpsideDown { faceDown.append(t) }
            wasUpsideDown = upsideDown
        }
        return (flips, faceDown)
    }

    @Test func findsTheFlipOfTheSimulatedWalk() {
        let (flips, faceDown) = Self.simulatedFlips(.walk, seconds: 180)
        print("simulated walk: face down at \(faceDown) s, flips detected at \(flips) s")
        #expect(faceDown.count == 1)
        #expect(flips.count == 1)
        if let down = faceDown.first, let flip = flips.first {
            #expect(flip > down && flip < down + 7)
        }
    }

    @Test(arguments: [ScenarioName.drive, .boat, .still])
    func noFlipInTheSimulatedDriveOrBoat(name: ScenarioName) {
        let (flips, _) = Self.simulatedFlips(name, seconds: 300)
        print("simulated \(name): \(flips.count) flips in 300 s")
        #expect(flips.isEmpty)
    }

    @Test func ignoresNonsenseInput() {
        var detector = FlipDetector()
        #expect(detector.update(specificForce: Vector3(.nan, 0, 0), rotationRate: .zero, interval: 0.01) == nil)
        #expect(detector.update(specificForce: Vector3(0, 0, -9.8), rotationRate: Vector3(.infinity, 0, 0), interval: 0.01) == nil)
        #expect(detector.update(down: .zero, interval: 0.01) == nil)
        #expect(detector.update(specificForce: Vector3(0, 0, -9.8), rotationRate: .zero, interval: .nan) == nil)
        #expect(detector.down.z == 1)
    }
}
