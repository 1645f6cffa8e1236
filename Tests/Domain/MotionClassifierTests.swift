import LodestoneCore
import LodestoneDomain
import LodestoneSim
import Testing

@Suite struct MotionClassifierTests {
    struct Run {
        var changes: [MotionClassifier.Change] = []
        /// Seconds spent in each reported state.
        var time: [MotionState: Double] = [:]
        var final = MotionState.still
        func share(_ state: MotionState, of total: Double) -> Double { (time[state] ?? 0) / total }
    }

    /// A trace through the step counter and the classifier together, as the runtime would.
    static func classify(_ trace: MotionTrace, gpsSpeed: Double? = nil) -> Run {
        var steps = StepCounter()
        var classifier = MotionClassifier()
        var run = Run()
        for (f, w) in zip(trace.force, trace.rotation) {
            steps.update(specificForce: f, interval: trace.interval)
            if let change = classifier.update(
                specificForce: f, rotationRate: w, cadence: steps.cadence,
                gpsSpeed: gpsSpeed, interval: trace.interval)
            {
                run.changes.append(change)
            }
            run.time[classifier.state, default: 0] += trace.interval
        }
        run.final = classifier.state
        return run
    }

    static func describe(_ run: Run) -> String {
        run.changes.map { "\($0.from)->\($0.to) at \(Int($0.time * 10) / 10) s" }.joined(separator: ", ")
    }

    /// The classifier starts in "still" before it has read anything: that state is judged only
    /// once the readings say it (a full window, then its dwell), or when a change completes,
    /// so the sampling profile does not follow a state nobody measured.
    @Test func theFirstStateIsJudgedOnlyOnItsReadings() {
        var classifier = MotionClassifier()
        let trace = MotionTrace.still(seconds: 10)
        var judgedAt: Double?
        var time = 0.0
        for (f, w) in zip(trace.force, trace.rotation) {
            _ = classifier.update(specificForce: f, rotationRate: w, cadence: 0, gpsSpeed: nil, interval: trace.interval)
            time += trace.interval
            if classifier.judged, judgedAt == nil { judgedAt = time }
        }
        let at = judgedAt ?? -1
        #expect(at >= classifier.settings.window && at < 5, "judged at \(at) s")
        var walking = MotionClassifier()
        var steps = StepCounter()
        let gait = MotionTrace.gait(cadence: 1.8, seconds: 10, running: false, seed: 33).prefix(seconds: 1.5)
        for (f, w) in zip(gait.force, gait.rotation) {
            steps.update(specificForce: f, interval: gait.interval)
            _ = walking.update(specificForce: f, rotationRate: w, cadence: steps.cadence, gpsSpeed: nil, interval: gait.interval)
        }
        #expect(!walking.judged, "a second and a half of steps is not yet a judgement")
    }

    @Test func stillStaysStill() {
        let run = Self.classify(MotionTrace.still(seconds: 120))
        #expect(run.changes.isEmpty)
        #expect(run.final == .still)
    }

    @Test(arguments: [(1.6, false), (2.0, false), (2.5, true), (3.0, true)])
    func recognisesTheGaitOnceAndHoldsIt(cadence: Double, running: Bool) {
        let trace = MotionTrace.gait(cadence: cadence, seconds: 60, running: running, seed: 31).prefix(seconds: 61)
        let run = Self.classify(trace)
        let expected: MotionState = running ? .running : .walking
        print("\(running ? "running" : "walking") \(cadence) Hz: \(Self.describe(run))")
        #expect(run.changes.count == 1, "\(Self.describe(run))")
        #expect(run.changes.first?.to == expected)
        if let first = run.changes.first { #expect(first.time < 2 + 8, "recognised only at \(first.time) s") }
        #expect(run.final == expected)
    }

    @Test func theWalkEndsInStill() {
        let trace = MotionTrace.gait(cadence: 1.8, seconds: 30, running: false, seed: 32) + MotionTrace.still(seconds: 10)
        let run = Self.classify(trace)
        #expect(run.changes.map(\.to) == [.walking, .still], "\(Self.describe(run))")
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func aCarIsAVehicle(seed: UInt64) {
        let trace = MotionTrace.vehicle(seconds: 120, seed: seed)
        let run = Self.classify(trace)
        print("vehicle seed \(seed): \(Self.describe(run))")
        #expect(run.changes.count == 1, "\(Self.describe(run))")
        #expect(run.changes.first?.to == .vehicle)
        #expect(run.share(.vehicle, of: trace.duration) > 0.9)
    }

    @Test(arguments: [UInt64(1), 2])
    func aTappedTableIsStill(seed: UInt64) {
        for period in [nil, 0.5] as [Double?] {
            let run = Self.classify(MotionTrace.tapping(seconds: 120, period: period, seed: seed))
            print("taps \(period.map { "every \($0) s" } ?? "irregular"), seed \(seed): \(run.changes.isEmpty ? "no change" : Self.describe(run))")
            #expect(run.changes.isEmpty, "\(Self.describe(run))")
        }
    }

    @Test func gpsSpeedTellsAVehicleWithoutVibration() {
        // A boat: no steps, no vibration. Without GPS it reads still; making way at 3 m/s (a
        // sailing boat) or 9 m/s it is a vehicle, and at 0.3 m/s (GPS noise at a mooring) still.
        let boat = MotionTrace.boat(seconds: 60, seed: 4)
        #expect(Self.classify(boat).final == .still)
        #expect(Self.classify(boat, gpsSpeed: 0.3).final == .still)
        #expect(Self.classify(boat, gpsSpeed: 3).final == .vehicle)
        let fast = Self.classify(boat, gpsSpeed: 9)
        #expect(fast.changes.map(\.to) == [.vehicle])
        // Walking with a GPS fix at walking speed stays walking.
        let walk = Self.classify(MotionTrace.gait(cadence: 2.0, seconds: 30, running: false, seed: 5).prefix(seconds: 31), gpsSpeed: 1.4)
        #expect(walk.final == .walking)
        // "Steps" at 20 m/s are a vehicle's bumps.
        let bumps = Self.classify(MotionTrace.gait(cadence: 2.0, seconds: 30, running: false, seed: 5).prefix(seconds: 31), gpsSpeed: 20)
        #expect(bumps.final == .vehicle)
    }

    @Test func getsOutOfTheCarAndWalks() {
        let trace =
            MotionTrace.vehicle(seconds: 60, seed: 6) + MotionTrace.still(seconds: 15)
            + MotionTrace.gait(cadence: 1.8, seconds: 30, running: false, seed: 6).prefix(seconds: 31)
        let run = Self.classify(trace)
        print("car, stop, walk: \(Self.describe(run))")
        #expect(run.changes.map(\.to) == [.vehicle, .still, .walking], "\(Self.describe(run))")
    }

    @Test func theSimulatedWorld() {
        for (name, expected, from) in [(ScenarioName.drive, MotionState.vehicle, 10.0), (.walk, .walking, 45), (.still, .still, 0)] {
            let world = SimulatedWorld(scenario: Scenario(name), clock: ManualClock())
            var steps = StepCounter()
            var classifier = MotionClassifier()
            var t = 0.0
            var agreeing = 0.0, total = 0.0
            while t < 150 {
                t += 0.01
                let truth = world.state(at: t).truth
                steps.update(specificForce: truth.specificForce, interval: 0.01)
                _ = classifier.update(
                    specificForce: truth.specificForce, rotationRate: truth.rotationRate,
                    cadence: steps.cadence, gpsSpeed: nil, interval: 0.01)
                if t >= from {
                    total += 1
                    if classifier.state == expected { agreeing += 1 }
                }
            }
            print("simulated \(name): \(JSONish.percent(agreeing / total)) of the time \(expected)")
            #expect(agreeing / total > 0.95, "\(name)")
        }
    }

    @Test func ignoresNonsenseInput() {
        var classifier = MotionClassifier()
        for _ in 0..<1000 {
            _ = classifier.update(specificForce: Vector3(.nan, 0, 0), rotationRate: .zero, cadence: 120, gpsSpeed: nil, interval: 0.01)
            _ = classifier.update(specificForce: Vector3(0, 0, -9.8), rotationRate: .zero, cadence: .nan, gpsSpeed: .infinity, interval: 0.01)
            _ = classifier.update(specificForce: Vector3(0, 0, -9.8), rotationRate: .zero, cadence: 120, gpsSpeed: nil, interval: -1)
        }
        #expect(classifier.state == .still)
    }
}
