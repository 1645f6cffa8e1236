import Glibc
import LodestoneCore
import LodestoneOutputs
import Testing

/// SIGHUP reads the configuration file again: what can change while running changes (here the
/// IMU's rate, seen in HEALTH, and the theme), and is logged; a bad file is refused with the
/// error a start gives and the device runs on with the configuration it had.
@Suite(.serialized) struct ConfigurationReloadTests {
    static func save(_ text: String, to path: String) -> Bool {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return text.withCString { Glibc.write(fd, $0, strlen($0)) } == text.utf8.count
    }

    static func imuRate(_ socket: String) -> Double? {
        guard let client = try? ReportClient(path: socket) else { return nil }
        client.send("?STATUS;")
        while let line = client.readLine(timeoutMilliseconds: 3000) {
            guard line.contains("\"class\":\"HEALTH\""), let report = try? JSONValue.parse(line) else { continue }
            return report["tasks"]?.arrayValue?.first { $0["name"]?.stringValue == "imu" }?["rateHz"]?.numberValue
        }
        return nil
    }

    @Test func sighupAppliesAGoodFileAndRefusesABadOne() throws {
        let runner = EndToEndTests()
        let file = "/tmp/lodestone-reload-\(getpid()).json"
        let socket = "/tmp/lodestone-reload-\(getpid()).sock"
        defer { unlink(file) }
        try #require(Self.save(#"{"rates": {"imu": 100}, "theme": "day"}"#, to: file))
        let child = try runner.spawn(["run", "--config", file, "--no-adaptive", "--duration", "10", "--display", "none",
                                      "--socket", socket, "--data-dir", "/tmp/lodestone-reload-data"])
        try #require(runner.connect(socket) != nil)
        let before = Self.imuRate(socket)

        try #require(Self.save(#"{"rates": {"imu": 50}, "theme": "night"}"#, to: file))
        kill(child.pid, SIGHUP)
        usleep(1_500_000)
        let after = Self.imuRate(socket)

        try #require(Self.save(#"{"rates": {"imu": "fast"}}"#, to: file))
        kill(child.pid, SIGHUP)
        usleep(1_500_000)
        let afterBad = Self.imuRate(socket)
        let (status, output) = runner.finish(child)

        #expect(status == 0, "the device ran on to its duration: \(output)")
        #expect(before.map { abs($0 - 100) < 5 } == true, "imu before: \(String(describing: before))")
        #expect(after.map { abs($0 - 50) < 5 } == true, "imu after the good file: \(String(describing: after))")
        #expect(afterBad.map { abs($0 - 50) < 5 } == true, "imu after the bad file: \(String(describing: afterBad))")
        #expect(output.contains("configuration read again: theme day -> night, rates.imu 100 -> 50 Hz"), "\(output)")
        #expect(output.contains("'rates.imu': must be a number from 1 to 1000, found \"fast\"; keeping the running configuration"), "\(output)")
        #expect(output.contains("stopped (duration)"))
    }
}
