import Glibc
import LodestoneCore
import LodestoneDevices
import LodestoneSim
import Testing

@Suite struct SimulatedWorldTests {
    @Test func stillLiesLevelAndPointsNorth() {
        let clock = ManualClock()
        let world = SimulatedWorld(scenario: Scenario(.still), clock: clock)
        clock.advance(by: 5 * nanosecondsPerSecond)
        let state = world.current()
        #expect(abs(state.time - 5) < 0.011)
        #expect(abs(state.truth.specificForce.z + 9.80665) < 1e-9)
        #expect(abs(state.truth.specificForce.x) < 1e-9)
        #expect(state.truth.rotationRate.length < 1e-9)
        #expect(abs(state.truth.magneticField.x - 21.6) < 1e-9)
        #expect(state.latitude == 47.3769)
        // 408 m in the standard atmosphere: about 96.3 kPa.
        #expect(abs(state.truth.pressure - 96_465) < 150)
    }

    @Test func walkCalibratesThenWalksAtWalkingPace() {
        let clock = ManualClock()
        let world = SimulatedWorld(scenario: Scenario(.walk), clock: clock)
        var minRoll = 0.0, maxRoll = 0.0, minPitch = 0.0, maxPitch = 0.0
        for second in 0..<30 {
            let s = world.state(at: Double(second) + 0.5)
            minRoll = min(minRoll, s.roll); maxRoll = max(maxRoll, s.roll)
            minPitch = min(minPitch, s.pitch); maxPitch = max(maxPitch, s.pitch)
        }
        #expect(minRoll < -30 && maxRoll > 30 && minPitch < -30 && maxPitch > 30)
        let a = world.state(at: 40)
        let b = world.state(at: 50)
        let north = (b.latitude - a.latitude) * .pi / 180 * 6_371_000
        let east = (b.longitude - a.longitude) * .pi / 180 * 6_371_000 * cos(a.latitude * .pi / 180)
        #expect(abs((north * north + east * east).squareRoot() - 14) < 0.1)
        // Flip at 90 s after start: face down, gravity reads +g on body z.
        let flipped = world.state(at: 35 + 55 + 3.5)
        #expect(abs(flipped.roll - 180) < 1e-9)
        #expect(flipped.truth.specificForce.z > 9)
    }

    /// The figure-8 before a car's or a table's trip is the walk's: the same rolls and pitches
    /// (a flat spin would leave the magnetometer's vertical axis unseen), then held still while
    /// settling into the trip's starting attitude.
    @Test(arguments: [ScenarioName.drive, .still])
    func preludeFigure8TiltsLikeTheWalks(_ name: ScenarioName) {
        let prelude = Scenario(name, figure8First: true), walk = Scenario(.walk)
        for tenth in 0..<300 {
            let t = Double(tenth) / 10
            let a = prelude.motion(at: t), b = walk.motion(at: t)
            #expect(abs(a.roll - b.roll) < 1e-9 && abs(a.pitch - b.pitch) < 1e-9, "\(name) at \(t) s: \(a.roll)/\(a.pitch) against \(b.roll)/\(b.pitch)")
            if abs(a.roll - b.roll) >= 1e-9 { break }
        }
        let start = prelude.motion(at: 35), held = prelude.motion(at: 34.999)
        #expect(abs(held.roll - start.roll) < 0.01 && abs(held.pitch - start.pitch) < 0.01, "no jolt into the trip")
    }

    /// The boat's compass is fixed to the hull: the boat begins with a swing, one slow full
    /// circle under engine heeling a few degrees, and sails on from it without a jolt.
    @Test func theBoatSwingsFirst() {
        let boat = Scenario(.boat, figure8First: true)
        #expect(boat.calibrationEnd == 120 && boat.preludeLength == 120)
        var turned = 0.0
        var previous = boat.motion(at: 0).yaw
        for tenth in 1...1200 {
            let m = boat.motion(at: Double(tenth) / 10)
            turned += Angle.signed(m.yaw - previous)
            previous = m.yaw
            #expect(abs(m.roll) <= 13 && abs(m.pitch) <= 4 && m.speed == 2, "a gentle circle: \(m)")
            if abs(m.roll) > 13 || abs(m.pitch) > 4 { break }
        }
        #expect(abs(turned - 360) < 1, "one full circle: \(turned)")
        let end = boat.motion(at: 119.999), sailing = boat.motion(at: 120)
        #expect(abs(end.roll - sailing.roll) < 0.05 && abs(end.pitch - sailing.pitch) < 0.05, "no jolt into the sail")
        #expect(boat.activity(at: 10) == .vehicle)
    }

    @Test func specificForceMatchesGravityThroughAttitude() {
        let world = SimulatedWorld(scenario: Scenario(.boat), clock: ManualClock())
        let s = world.state(at: 12.34)
        // Away from the swell's acceleration, |f| stays near g whatever the heel.
        #expect(abs(s.truth.specificForce.length - 9.80665) < 1.0)
        // Heel shows up as a sideways component of gravity in the body frame.
        let roll = atan2(-s.truth.specificForce.y, -s.truth.specificForce.z) * 180 / .pi
        #expect(abs(roll - s.roll) < 6)
    }

    @Test func sameSeedSameTrip() {
        let a = SimulatedWorld(scenario: Scenario(.drive), clock: ManualClock()).state(at: 200)
        let b = SimulatedWorld(scenario: Scenario(.drive), clock: ManualClock()).state(at: 200)
        #expect(a == b)
    }

    @Test func gpsSentencesParseBackToTheWorld() throws {
        let clock = ManualClock()
        let world = SimulatedWorld(scenario: Scenario(.walk), clock: clock)
        let gps = try SimulatedGPS(world: world, rateHz: 1, seed: 7)
        var framer = NMEAFramer()
        var parser = NMEAParser()
        var fixes: [GPSFix] = []
        var states: [WorldState] = []
        for second in 100..<160 {
            let state = world.state(at: Double(second))
            states.append(state)
            let text = gps.epoch(state).joined()
            Array(text.utf8).withUnsafeBytes { raw in
                framer.feed(raw) { if let fix = parser.parse($0, received: 0) { fixes.append(fix) } }
            }
        }
        #expect(parser.rejected == 0)
        #expect(fixes.count >= 58)
        for (fix, state) in zip(fixes, states) {
            let north = (fix.latitude - state.latitude) * .pi / 180 * 6_371_000
            let east = (fix.longitude - state.longitude) * .pi / 180 * 6_371_000 * cos(state.latitude * .pi / 180)
            #expect((north * north + east * east).squareRoot() < 15)
            #expect(abs(fix.altitudeMSL - state.altitude) < 20)
            #expect(fix.mode == .threeD)
            #expect(abs((fix.utc ?? 0) - (world.scenario.startUTC + state.time)) < 0.011)
        }
    }
}
