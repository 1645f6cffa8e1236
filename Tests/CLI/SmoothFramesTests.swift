import Glibc
import LodestoneCore
import LodestoneEncoding
import LodestoneRuntime
import LodestoneStorage
import Testing

/// The compass on a framebuffer turns smoothly: a file framebuffer sampled every 0.2 s while
/// the simulated walker traces figure-8s shows a new frame nearly every time, and HEALTH
/// carries the display's frame rate and cost; on a still device the frames stay few.
@Suite(.serialized) struct SmoothFramesTests {
    /// Distinct pictures among `samples` reads of the file 0.2 s apart, and HEALTH's display.
    static func watch(scenario: String, samples: Int) throws -> (distinct: Int, display: JSONValue?) {
        let end = EndToEndTests()
        let base = "/tmp/lodestone-frames-\(scenario)-\(getpid())"
        removeTree(base + "-data")
        unlink(base)
        defer { removeTree(base + "-data"); unlink(base); unlink(base + ".ppm") }
        let run = try end.spawn([
            "run", "--scenario", scenario, "--display", "fb:" + base, "--duration", "12", "--socket", base + ".sock",
            "--data-dir", base + "-data"
        ])
        _ = try #require(end.connect(base + ".sock"))
        usleep(2_000_000)
        var seen = Set<[UInt8]>()
        for _ in 0..<samples {
            if let bytes = readFileBytes(base) { seen.insert(bytes) }
            usleep(200_000)
        }
        let (_, status) = end.finish(try end.spawn(["status", "--socket", base + ".sock", "--json"]))
        kill(run.pid, SIGTERM)
        _ = end.finish(run)
        let health = status.split(separator: "\n").compactMap { try? JSONValue.parse(String($0)) }.first { $0["display"] != nil }
        return (seen.count, health?["display"])
    }

    @Test func theRoseTurnsSmoothlyAndAStillOneRests() throws {
        let turning = try Self.watch(scenario: "walk", samples: 15)
        // 15 reads 0.2 s apart of a display drawing 13 frames a second: nearly all differ (a
        // loaded machine may drop some; once a second would give 3 or 4).
        #expect(turning.distinct >= 10, "\(turning.distinct) distinct frames in 15 reads")
        let fps = turning.display?["framesPerSecond"]?.numberValue ?? 0, ms = turning.display?["frameMs"]?.numberValue ?? -1
        #expect(fps >= 8 && ms > 0 && ms < 75, "HEALTH display: \(String(describing: turning.display))")
        let still = try Self.watch(scenario: "still", samples: 10)
        #expect(still.distinct <= 4, "a still compass is not redrawn for nothing: \(still.distinct) distinct frames in 10 reads")
    }
}
