import Testing
@testable import LodestoneRuntime
import LodestoneSim

/// Every referee trip through the real runtime, judged against the simulated world's truth.
/// The trips run in the optimised pass of scripts/test (what runs on a device): a debug build
/// cannot keep a trip's pace at 120x while the other suites load both cores, so there the
/// trips are skipped with a message and only the option parsing and board checks run.
@Suite(.serialized) struct RefereeTests {
    static var optimised: Bool {
        #if DEBUG
        return false
        #else
        return true
        #endif
    }

    @Test(arguments: RefereeTrip.all.map(\.name))
    func tripAgainstTheTruth(_ name: String) throws {
        guard Self.optimised else {
            print("skipped referee trip \(name) in a debug build: scripts/test judges every trip in its optimised pass")
            return
        }
        let trip = try #require(RefereeTrip.named(name))
        // The short trips judge reactions within half a second, and the client's view of the
        // device's health is as fine as the real time between its questions: they run at 30x
        // (a quarter second is 8 ms of real time), the 40-minute ones at 120x.
        let outcome = Referee.run(trip, speed: trip.duration <= 400 ? 30 : 120, seed: 1)
        #expect(outcome.checks.count >= 6, "every trip judges at least attitude, motion, rates, warnings and the clock")
        for check in outcome.checks {
            #expect(check.passed, "\(check.trip): \(check.name) measured \(check.measured) \(check.comparison) \(check.limit): \(check.detail)")
        }
    }

    /// Simulated time must not leak into what the device believes: the same trip at real time
    /// and sixty times faster gives the same judgement and nearly the same figures.
    @Test func sameResultsAtAnySpeed() throws {
        guard Self.optimised else {
            print("skipped the speed comparison in a debug build: scripts/test runs it in its optimised pass")
            return
        }
        let base = try #require(RefereeTrip.named("walk"))
        let trip = RefereeTrip(name: "walk-short", scenario: base.scenario, board: base.board, faults: [], duration: 75,
                               summary: "the walk's figure-8 and first 40 s")
        let slow = Referee.run(trip, speed: 1)
        let fast = Referee.run(trip, speed: 60)
        for name in ["roll and pitch error p95", "motion state correct", "magnetic heading error p95", "one clock"] {
            let a = slow.checks.first { $0.name == name }, b = fast.checks.first { $0.name == name }
            let tolerance = max(0.3, 0.25 * abs(a?.measured ?? 0))
            // A figure within the tolerance of its limit may land either side of it at either
            // speed (the 75 s trip's motion share sits near 95%): there the figures are compared.
            let nearLimit = a.map { abs($0.measured - $0.limit) <= tolerance } ?? false
            #expect(a?.passed == b?.passed || nearLimit, "\(name): speed 1 \(a?.passed ?? false), speed 60 \(b?.passed ?? false)")
            if let a, let b, a.measured.isFinite, b.measured.isFinite, name != "one clock" {
                #expect(abs(a.measured - b.measured) <= tolerance, "\(name): \(a.measured) at speed 1, \(b.measured) at speed 60")
            }
        }
    }

    @Test func faultsParseAsTheOptionTakesThem() {
        #expect(SimulatedFault("magnet@120") == SimulatedFault(kind: .magnet, start: 120))
        #expect(SimulatedFault("gps-outage@60+10") == SimulatedFault(kind: .gpsOutage, start: 60, duration: 10))
        for bad in ["magnet", "magnet@", "laser@10", "magnet@-1", "magnet@1e300", "magnet@10+0", "magnet@nan", "magnet@1+2+3"] {
            #expect(SimulatedFault(bad) == nil, "\(bad)")
        }
    }

    @Test func turnedBoardMatchesItsBoardFile() throws {
        let text: String
        do { text = try readTextFile("boards/sim-turned.json") } catch {
            Issue.record("boards/sim-turned.json: \(error)")
            return
        }
        let file = try BoardDescription.parse(text, file: "boards/sim-turned.json")
        #expect(file.imu == BoardDescription.simulatedTurned.imu)
        #expect(file.magnetometer == BoardDescription.simulatedTurned.magnetometer)
        #expect(file.barometer == BoardDescription.simulatedTurned.barometer)
    }
}
