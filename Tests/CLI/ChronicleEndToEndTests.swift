import Glibc
import LodestoneCore
import LodestoneOutputs
import LodestoneRuntime
import Testing
@testable import LodestoneEncoding

/// The running device's memory through its interfaces: the barometer on ENV and BARO, an
/// alert on the socket, a logging session and a snapshot taken from the CLI, read back and
/// exported.
@Suite(.serialized) struct ChronicleEndToEndTests {
    @Test func baroAlertLogAndSnapshotThroughTheCLI() throws {
        let end = EndToEndTests()
        let data = "/tmp/lodestone-e2e-chronicle-\(getpid())"
        let socket = data + ".sock"
        let child = try end.spawn([
            "run", "--scenario", "walk", "--speed", "20", "--socket", socket, "--display", "none",
            "--data-dir", data, "--duration", "14"
        ])
        let client = try #require(end.connect(socket))
        client.send(#"?WATCH={"enable":true,"json":true,"rates":{"IMU":0}};"#)
        func cli(_ arguments: [String]) throws -> (Int32, String) { end.finish(try end.spawn(arguments + ["--socket", socket])) }
        // An altitude target just above the start: the walk climbs through it.
        let (alertStatus, rules) = try cli(["alert", "set", "altitudeReached", "--on", "--threshold", "440", "--json"])
        #expect(alertStatus == 0 && rules.contains(#""name":"altitudeReached","enabled":true,"threshold":440"#), "\(rules)")
        let (logStatus, logging) = try cli(["log", "start", "--interval", "1s", "--streams", "pressure,altitude,latitude", "--json"])
        #expect(logStatus == 0 && logging.contains(#""logging":true"#), "\(logging)")
        var environment: JSONValue?, alert: JSONValue?
        let deadline = time(nil) + 9
        while time(nil) < deadline, let line = client.readLine(timeoutMilliseconds: 2000) {
            guard let report = try? JSONValue.parse(line) else { continue }
            if report["class"]?.stringValue == "ENV" { environment = report }
            if report["event"]?.stringValue == "alert" { alert = report }
        }
        let (snapshotStatus, taken) = try cli(["snapshot", "take", "--name", "Ridge", "--notes", "cairn", "--json"])
        #expect(snapshotStatus == 0, "\(taken)")
        let (baroStatus, baro) = try cli(["baro", "--json"])
        #expect(baroStatus == 0 && baro.contains(#""class":"BARO""#) && baro.contains(#""reference":"gps""#), "\(baro)")
        _ = try cli(["log", "stop"])
        let (status, output) = end.finish(child)
        #expect(status == 0, "\(output)")

        let env = try #require(environment)
        #expect((env["seaLevelPressure"]?.numberValue ?? 0) > 950 && env["altFused"]?.numberValue != nil, "\(env)")
        let fired = try #require(alert, "the altitude alert reached the socket")
        #expect(fired["alert"]?.stringValue == "altitudeReached" && (fired["value"]?.numberValue ?? 0) >= 440)
        #expect(output.contains("alert: Altitude of"), "a log line for the alert")
        let (_, history) = end.finish(try end.spawn(["alert", "history", "--json", "--data-dir", data]))
        #expect(history.contains("altitudeReached"), "\(history)")

        let (_, sessions) = end.finish(try end.spawn(["log", "list", "--json", "--data-dir", data]))
        let id = try #require(try JSONValue.parse(sessions).arrayValue?.first?["id"]?.stringValue, "\(sessions)")
        let (_, csv) = end.finish(try end.spawn(["log", "export", id, "--format", "csv", "--data-dir", data]))
        let rows = csv.split(separator: "\n")
        #expect(rows.first == "time,pressure,altitude,latitude" && rows.count > 5, "\(csv)")

        let (_, exported) = end.finish(try end.spawn(["snapshot", "export", "--data-dir", data]))
        let snapshot = try #require(try JSONValue.parse(exported).arrayValue?.first)
        #expect(snapshot["name"]?.stringValue == "Ridge" && snapshot["notes"]?.stringValue == "cairn")
        #expect(snapshot["location"]?["latitude"]?.numberValue != nil && snapshot["barometer"]?["pressure"]?.numberValue != nil)
        #expect(snapshot["motion"]?["accelerometer"]?["z"]?.numberValue != nil)
        let (_, history1h) = end.finish(try end.spawn(["history", "--stream", "pressure", "--range", "1h", "--json", "--data-dir", data]))
        #expect((try JSONValue.parse(history1h))["samples"]?.numberValue ?? 0 > 3, "\(history1h)")
    }
}
