import LodestoneCore
import LodestoneDomain
import LodestoneSim
import Testing

@Suite struct StepCounterTests {
    /// Runs a trace through a fresh counter; the final counter.
    static func count(_ trace: MotionTrace, settings: StepCounter.Settings = .init()) -> StepCounter {
        var counter = StepCounter(settings: settings)
        for f in trace.force { counter.update(specificForce: f, interval: trace.interval) }
        return counter
    }

    static let cadences = [1.6, 2.0, 2.5, 3.0]

    @Test(arguments: [false, true], cadences)
    func countsWithinThreePercent(running: Bool, cadence: Double) {
        var worst = 0.0
        for seed: UInt64 in 1...4 {
            let trace = MotionTrace.gait(cadence: cadence, seconds: 60, running: running, seed: seed)
            let counter = Self.count(trace)
            let error = Double(counter.steps - trace.trueSteps) / Double(trace.trueSteps)
            worst = max(worst, abs(error))
            print(
                "\(running ? "running" : "walking") \(cadence) Hz seed \(seed): \(counter.steps) of \(trace.trueSteps) steps, error \(JSONish.percent(error))")
            #expect(abs(error) <= 0.03, "\(running ? "running" : "walking") at \(cadence) Hz, seed \(seed): \(counter.steps) of \(trace.trueSteps)")
        }
        print("\(running ? "running" : "walking") \(cadence) Hz: worst step count error \(JSONish.percent(worst))")
    }

    @Test(arguments: [25.0, 50.0, 200.0])
    func countsAtOtherSampleRates(rate: Double) {
        for (cadence, running) in [(1.6, false), (3.0, true)] {
            let trace = MotionTrace.gait(cadence: cadence, seconds: 60, running: running, rate: rate, seed: 11)
            let counter = Self.count(trace)
            let error = Double(counter.steps - trace.trueSteps) / Double(trace.trueSteps)
            print("\(rate) Hz sampling, \(cadence) Hz cadence: \(counter.steps) of \(trace.trueSteps) steps, error \(JSONish.percent(error))")
            #expect(abs(error) <= 0.03)
        }
    }

    @Test func cadenceAndDistanceFollowTheGait() {
        let walk = Self.count(MotionTrace.gait(cadence: 1.8, seconds: 40, running: false, seed: 3).prefix(seconds: 30))
        #expect(walk.isStepping)
        #expect(abs(walk.cadence - 108) < 8, "walking cadence \(walk.cadence)")
        #expect(abs(walk.distance - Double(walk.steps) * 0.75) < 1e-9)

        let run = Self.count(MotionTrace.gait(cadence: 3.0, seconds: 40, running: true, seed: 3).prefix(seconds: 30))
        #expect(abs(run.cadence - 180) < 12, "running cadence \(run.cadence)")
        // Derived running stride: longer than walking, about 0.75 x (180/140)^2 = 1.24 m.
        #expect(run.stride > 1.1 && run.stride < 1.4, "running stride \(run.stride)")
        #expect(run.distance > Double(run.steps) * 1.0)

        var settings = StepCounter.Settings()
        settings.runningStride = 1.1
        settings.walkingStride = 0.7
        let configured = Self.count(MotionTrace.gait(cadence: 3.0, seconds: 40, running: true, seed: 3).prefix(seconds: 30), settings: settings)
        #expect(configured.stride == 1.1)
        // The confirming steps are counted at the stride in effect when the walk is recognised.
        #expect(abs(configured.distance - Double(configured.steps) * 1.1) < 1e-9)
    }

    @Test func cadenceDropsToZeroWhenTheWalkEnds() {
        let trace = MotionTrace.gait(cadence: 2.0, seconds: 20, running: false, seed: 5) + MotionTrace.still(seconds: 5)
        let counter = Self.count(trace)
        #expect(!counter.isStepping)
        #expect(counter.cadence == 0)
        #expect(counter.steps > 0)
    }

    static func falseSteps(_ name: String, _ trace: MotionTrace) -> Int {
        let counter = Self.count(trace)
        print("\(name): \(counter.steps) steps in \(Int(trace.duration)) s")
        return counter.steps
    }

    @Test func countsNothingWhileStill() {
        #expect(Self.falseSteps("still", MotionTrace.still(seconds: 300, seed: 2)) == 0)
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func countsNothingOnATappedTable(seed: UInt64) {
        #expect(Self.falseSteps("irregular taps, seed \(seed)", MotionTrace.tapping(seconds: 120, seed: seed)) == 0)
        #expect(Self.falseSteps("drumming at 2 Hz, seed \(seed)", MotionTrace.tapping(seconds: 120, period: 0.5, seed: seed)) == 0)
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func countsNothingInAVehicle(seed: UInt64) {
        #expect(Self.falseSteps("vehicle, seed \(seed)", MotionTrace.vehicle(seconds: 300, seed: seed)) == 0)
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func countsNothingOnABoat(seed: UInt64) {
        #expect(Self.falseSteps("boat, seed \(seed)", MotionTrace.boat(seconds: 300, seed: seed)) == 0)
    }

    @Test func countsNothingInTheSimulatedDriveAndBoat() {
        for name in [ScenarioName.drive, .boat, .still] {
            let world = SimulatedWorld(scenario: Scenario(name), clock: ManualClock())
            var counter = StepCounter()
            var t = 0.0
            while t < 300 {
                t += 0.01
                counter.update(specificForce: world.state(at: t).truth.specificForce, interval: 0.01)
            }
            print("simulated \(name): \(counter.steps) steps in 300 s")
            #expect(counter.steps == 0)
        }
    }

    @Test func countsTheFootstepsOfTheSimulatedWalk() {
        // The walk scenario steps at 2 Hz from 35 s with a 1.5 m/s^2 bounce (no variation).
        // Its speed jumps from 0 to 1.4 m/s within one 10 ms step at 35 s, a 14 g jolt that
        // (rightly) holds the counter off for a few seconds, so the count starts at 45 s,
        // once the walk is recognised.
        let world = SimulatedWorld(scenario: Scenario(.walk), clock: ManualClock())
        var counter = StepCounter()
        var t = 0.0
        var atStart = 0
        while t < 155 {
            t += 0.01
            counter.update(specificForce: world.state(at: t).truth.specificForce, interval: 0.01)
            if abs(t - 45) < 0.005 { atStart = counter.steps }
        }
        let expected = 2.0 * 110
        print("simulated walk: \(counter.steps - atStart) steps in 110 s of walking (\(Int(expected)) taken), \(atStart) before 45 s")
        #expect(abs(Double(counter.steps - atStart) - expected) <= 0.03 * expected)
    }

    /// The quiet traces are hard enough that a bare peak counter would count in them: each
    /// safeguard matters. (The swell of a boat is below the band: the filter alone stops it.)
    @Test func withoutItsSafeguardsACounterWouldCountInTheQuietTraces() {
        var bare = StepCounter.Settings()
        bare.bandToVibrationRatio = 0
        bare.stepsToConfirm = 2
        bare.regularity = 10
        bare.minimumAmplitude = 0.2
        let taps = Self.count(MotionTrace.tapping(seconds: 120, seed: 1), settings: bare).steps
        let car = Self.count(MotionTrace.vehicle(seconds: 300, seed: 1), settings: bare).steps
        let boat = Self.count(MotionTrace.boat(seconds: 300, seed: 1), settings: bare).steps
        print("bare peak counter: \(taps) steps on the tapped table, \(car) in the car, \(boat) on the boat")
        #expect(taps > 5)
        #expect(car > 5)
    }

    /// Plain data through and through (no class, array or string inside): updating or copying
    /// any of the motion types cannot allocate or retain.
    @Test func motionTypesHoldNoReferences() {
        #expect(_isPOD(StepCounter.self))
        #expect(_isPOD(FlipDetector.self))
        #expect(_isPOD(MotionClassifier.self))
        #expect(_isPOD(BubbleLevel.self))
        #expect(_isPOD(BearingLock.self))
        #expect(_isPOD(HeadingSmoother.self))
    }

    @Test func ignoresNonsenseInput() {
        var counter = StepCounter()
        counter.update(specificForce: Vector3(.nan, 0, 0), interval: 0.01)
        counter.update(specificForce: Vector3(0, 0, -9.8), interval: .nan)
        counter.update(specificForce: Vector3(0, 0, .infinity), interval: 0.01)
        counter.update(specificForce: Vector3(0, 0, -9.8), interval: -1)
        #expect(counter.steps == 0)
        let trace = MotionTrace.gait(cadence: 2.0, seconds: 10, running: false, seed: 9)
        for f in trace.force { counter.update(specificForce: f, interval: trace.interval) }
        #expect(counter.steps > 15)
        counter.reset()
        #expect(counter.steps == 0 && counter.distance == 0)
    }
}

extension MotionTrace {
    func prefix(seconds: Double) -> MotionTrace {
        var cut = self
        let n = min(force.count, Int(seconds * rate))
        cut.force = Array(force[0..<n])
        cut.rotation = Array(rotation[0..<n])
        return cut
    }
}

/// Formatting for the printed figures.
enum JSONish {
    static func percent(_ fraction: Double) -> String {
        let tenths = (fraction * 1000).rounded() / 10
        return "\(tenths) %"
    }
}
