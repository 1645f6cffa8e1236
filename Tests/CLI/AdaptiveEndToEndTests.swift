import Glibc
import LodestoneCore
import LodestoneOutputs
import LodestoneRuntime
import Testing
@testable import LodestoneEncoding

/// Adaptive sampling in a real run: lying on a table, the rates drop to the still profile
/// within seconds, the GPS slows down, and no sample is lost across the change.
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
        _ = end.finish(run)
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
