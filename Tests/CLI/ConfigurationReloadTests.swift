import Glibc
import LodestoneCore
import LodestoneOutputs
import Testing
@testable import LodestoneEncoding

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
        let child = try runner.spawn([
            "run", "--config", file, "--no-adaptive", "--duration", "10", "--display", "none",
            "--socket", socket, "--data-dir", "/tmp/lodestone-reload-data"
        ])
        try #require(runner.connect(socket) != nil)
        let before = Self.imuRate(socket)

        try #require(Self.save(#"{"rates": {"imu": 50}, "theme": "night", "loopRateHz": 500}"#, to: file))
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
        #expect(
            output.contains("configuration read again: theme day -> night, rates.imu 100 -> 50 Hz; loopRateHz take effect after a restart"),
            "the table marks loopRateHz restart: \(output)")
        #expect(output.contains("'rates.imu': must be a number from 1 to 1000, found \"fast\"; keeping the running configuration"), "\(output)")
        #expect(output.contains("stopped (duration)"))
    }

    /// Connects to a TCP port on loopback (trying for up to `waiting` seconds) and reads what
    /// arrives within `milliseconds`; nil when nothing listens there.
    static func readTCP(port: Int, milliseconds: Int32, waiting: Double = 0) -> String? {
        guard let fd = EndToEndTests.connectTCP(port: port, seconds: waiting) else { return nil }
        defer { close(fd) }
        var text = ""
        var buffer = [UInt8](repeating: 0, count: 4096)
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while poll(&poller, 1, milliseconds) > 0 {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { break }
            text += String(decoding: buffer.prefix(n), as: UTF8.self)
            if text.count > 2000 { break }
        }
        return text
    }

    /// The outputs move without a restart: gpsd JSON from one TCP port to another, NMEA 0183
    /// opened on a port it did not have; the QNH and the alert rules file are read again.
    @Test func sighupMovesTheOutputsAndReadsQNHAndAlerts() throws {
        let runner = EndToEndTests()
        let id = Int(getpid())
        let file = "/tmp/lodestone-reload-outputs-\(id).json"
        let socket = "/tmp/lodestone-reload-outputs-\(id).sock"
        let data = "/tmp/lodestone-reload-outputs-data-\(id)"
        let ports = EndToEndTests.freePorts(3)
        let (first, second, nmea) = (ports.first ?? 0, ports.dropFirst().first ?? 0, ports.last ?? 0)
        defer { unlink(file); unlink(data + "/alerts.json") }
        try #require(Self.save(#"{"listen": "127.0.0.1:\#(first)", "qnh": 1013.25}"#, to: file))
        let child = try runner.spawn([
            "run", "--config", file, "--duration", "20", "--display", "none",
            "--socket", socket, "--data-dir", data
        ])
        guard let client = runner.connect(socket, to: child) else { return }
        // Up once it reports: its outputs are open and the alert rules read (on a loaded
        // machine the socket comes well before that).
        client.send(#"?WATCH={"enable":true,"json":true};"#)
        _ = client.readLine(timeoutMilliseconds: 15000)
        let gpsdBefore = Self.readTCP(port: first, milliseconds: 2000, waiting: 5)

        try #require(Self.save(#"{"listen": "127.0.0.1:\#(second)", "nmeaListen": "127.0.0.1:\#(nmea)", "qnh": 1000}"#, to: file))
        try #require(Self.save(#"[{"name":"pressureLow","enabled":false}]"#, to: data + "/alerts.json"))
        kill(child.pid, SIGHUP)
        // The reload is done when the new port answers (up to 10 s on a loaded machine).
        var gpsdNew: String?
        for _ in 0..<20 where gpsdNew == nil {
            usleep(500_000)
            gpsdNew = Self.readTCP(port: second, milliseconds: 500)
        }
        let gpsdOld = Self.readTCP(port: first, milliseconds: 200)
        let sentences = Self.readTCP(port: nmea, milliseconds: 2500)
        let (status, output) = runner.finish(child)

        #expect(status == 0, "\(output)")
        #expect(gpsdBefore?.hasPrefix(#"{"class":"VERSION""#) == true, "\(String(describing: gpsdBefore))")
        #expect(gpsdOld == nil, "the old port is closed")
        #expect(gpsdNew?.hasPrefix(#"{"class":"VERSION""#) == true, "\(String(describing: gpsdNew))")
        #expect(sentences?.contains("RMC,") == true, "\(String(describing: sentences))")
        #expect(output.contains("qnh 1013.25 -> 1000 hPa"), "\(output)")
        #expect(output.contains("alert pressureLow"), "\(output)")
        #expect(output.contains("listen 127.0.0.1:\(first) -> 127.0.0.1:\(second)"), "\(output)")
        #expect(output.contains("nmeaListen none -> 127.0.0.1:\(nmea)"), "\(output)")
        #expect(!output.contains("take effect after a restart"), "everything in this file changed in place: \(output)")
        #expect(output.contains("stopped (duration)"))
    }
}
