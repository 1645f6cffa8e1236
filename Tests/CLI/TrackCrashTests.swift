import Glibc
import LodestoneCore
import LodestoneOutputs
import LodestoneRuntime
import Testing
@testable import LodestoneEncoding

/// `kill -9` in the middle of a recording: the next start finds the track, keeps every point
/// written more than a second before the kill, and goes on recording it.
@Suite(.serialized) struct TrackCrashTests {
    @Test func killNineThenContinue() throws {
        let end = EndToEndTests()
        let data = "/tmp/lodestone-e2e-crash-\(getpid())"
        let socket = data + ".sock"
        let arguments = [
            "run", "--scenario", "drive", "--speed", "5", "--no-adaptive", "--socket", socket, "--display", "none",
            "--data-dir", data
        ]
        let first = try end.spawn(arguments + ["--duration", "30"])
        _ = try #require(end.connect(socket))
        let (startStatus, started) = end.finish(try end.spawn(["track", "start", "--name", "Crash test", "--socket", socket]))
        #expect(startStatus == 0, "\(started)")
        usleep(4_000_000)
        let (_, before) = end.finish(try end.spawn(["track", "pause", "--socket", socket, "--json"]))
        let pausedReport = try JSONValue.parse(String(before.split(separator: "\n").last ?? ""))
        let pointsBeforeKill = Int(pausedReport["points"]?.numberValue ?? 0)
        kill(first.pid, SIGKILL)
        _ = end.finish(first)
        #expect(pointsBeforeKill >= 3, "\(before)")

        let second = try end.spawn(arguments + ["--duration", "8"])
        _ = try #require(end.connect(socket))
        let (_, resumed) = end.finish(try end.spawn(["track", "resume", "--socket", socket, "--json"]))
        usleep(2_000_000)
        let (stopStatus, stopped) = end.finish(try end.spawn(["track", "stop", "--socket", socket]))
        kill(second.pid, SIGTERM)
        let (_, log) = end.finish(second)
        #expect(log.contains("recovered after an interruption"), "\(log)")
        #expect(resumed.contains(#""state":"recording""#), "\(resumed)")
        #expect(stopStatus == 0, "\(stopped)")
        let (_, listed) = end.finish(try end.spawn(["track", "list", "--json", "--data-dir", data]))
        let list = try JSONValue.parse(listed)
        guard case .array(let tracks) = list, let track = tracks.first else {
            Issue.record("no stored track: \(listed)")
            return
        }
        #expect(track["name"]?.stringValue == "Crash test")
        #expect(Int(track["points"]?.numberValue ?? 0) >= pointsBeforeKill, "\(track) vs \(pointsBeforeKill) before the kill")
    }
}
