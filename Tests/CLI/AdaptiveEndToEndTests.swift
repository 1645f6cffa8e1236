import Glibc
import LodestoneCore
import LodestoneOutputs
import LodestoneRuntime
import Testing
@testable import LodestoneEncoding

/// Adaptive sampling in a real run: lying on a table, the rates drop to the still profile
/// within seconds, the GPS slows down, no sample is lost across the change, and the log says
/// the profile it started with and the change, once each.
@Suite(.serialized) struct AdaptiveEndToEndTests {
    @Test func aDeviceLyingStillSlowsDown() throws {
        let end = EndToEndTests()
        let socket = "/tmp/lodestone-e2e-adaptive-\(getpid()).sock"
        let run = try end.spawn([
            "run", "--duration", "25", "--scenario", "still", "--socket", socket, "--display", "none",
            "--data-dir", "/tmp/lodestone-e2e-adaptive-data-\(getpid())"
        ])
        let client = try #require(end.connect(socket, to: run))
        var health: JSONValue?
        for _ in 0..<40 {
            usleep(500_000)
            client.send("?STATUS;")
            while let line = client.readLine(timeoutMilliseconds: 1000) {
                if line.contains(#""class":"HEALTH""#) { health = try? JSONValue.parse(line); break }
            }
            // The profile is decided on the output thread and the rates applied by the sampling
            // thread at its next tick; HEALTH's rates are measured over the last window, which a
            // busy machine's start (a moment of shed load) can still hold: wait for all of them.
            let rates = Self.rates(health)
            if health?["profile"]?.stringValue == "still", rates["imu"] == 25, rates["process"] == 10 { break }
        }
        kill(run.pid, SIGTERM)
        let (_, said) = end.finish(run)
        // The log names the profile the device starts with, then the change to still: no
        // profile it never measured its way into (a busy machine's start may shed load for a
        // moment, which is a change of its own and said as one).
        let profiles = said.split(separator: "\n").filter { $0.contains("sampling profile") }.map(String.init)
        let motions = profiles.filter { !$0.contains("+shed") }
        #expect(motions.first?.contains("starting with sampling profile walking:") == true, "\(profiles)")
        #expect(motions.dropFirst().first?.contains("sampling profile still:") == true, "\(profiles)")
        #expect(!profiles.contains { $0.contains("vehicle") || $0.contains("running") }, "\(profiles)")
        let report = try #require(health)
        #expect(report["profile"]?.stringValue == "still")
        #expect(report["gpsInterval"]?.numberValue == 5)
        #expect(report["ringOverflows"]?.numberValue == 0)
        let rates = Self.rates(report)
        #expect(!rates.isEmpty, "no tasks in HEALTH")
        #expect(rates["imu"] == 25 && rates["mag"] == 10 && rates["baro"] == 5 && rates["process"] == 10, "\(rates)")
    }

    /// Each task's rate in a HEALTH report, by name.
    static func rates(_ health: JSONValue?) -> [String: Double] {
        guard case .array(let tasks)? = health?["tasks"] else { return [:] }
        return Dictionary(
            tasks.compactMap { task in task["name"]?.stringValue.map { ($0, task["rateHz"]?.numberValue ?? 0) } },
            uniquingKeysWith: { first, _ in first })
    }
}
