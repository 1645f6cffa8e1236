import Glibc
import LodestoneCore
import LodestoneOutputs
import LodestoneRuntime

import Testing
@testable import LodestoneEncoding
@testable import LodestoneStorage

/// `?BARO` through the running device's socket: a known altitude answers with the reference it
/// set, and one whose QNH no weather gives is refused with the range.
@Suite(.serialized) struct BaroRequestTests {
    /// Sends `request` and returns the first BARO or ERROR answer.
    func ask(_ client: ReportClient, _ request: String) -> JSONValue? {
        client.send(request)
        let deadline = time(nil) + 10
        while time(nil) < deadline, let line = client.readLine(timeoutMilliseconds: 2000) {
            guard let report = try? JSONValue.parse(line), let kind = report["class"]?.stringValue else { continue }
            if kind == "BARO" || kind == "ERROR" { return report }
        }
        return nil
    }

    @Test func aKnownAltitudeAnswersWithTheStateAfterTheChangeAndAnImpossibleOneIsRefused() throws {
        let end = EndToEndTests()
        let data = "/tmp/lodestone-baro-request-\(getpid())"
        defer { removeTree(data) }
        let socket = data + ".sock"
        let child = try end.spawn([
            "run", "--scenario", "walk", "--speed", "5", "--socket", socket, "--display", "none",
            "--data-dir", data, "--duration", "20"
        ])
        defer { kill(child.pid, SIGTERM); _ = end.finish(child) }
        let client = try #require(end.connect(socket, to: child))
        // Waits for the barometer's first reading.
        var pressure = Double.nan
        for _ in 0..<20 where !pressure.isFinite {
            if let report = ask(client, "?BARO;"), let value = report["pressure"]?.numberValue { pressure = value } else { usleep(250_000) }
        }
        try #require(pressure.isFinite, "the barometer never read")

        let set = try #require(ask(client, #"?BARO={"altitude":100};"#))
        #expect(set["class"]?.stringValue == "BARO" && set["reference"]?.stringValue == "altitude", "\(set)")
        let altitude = try #require(set["altBaro"]?.numberValue, "\(set)")
        #expect(abs(altitude - 100) < 1, "the answer already counts from the new reference: \(set)")
        let qnh = try #require(set["qnh"]?.numberValue)
        #expect(qnh > pressure, "100 m up, sea level is above the station: \(set)")

        let refused = try #require(ask(client, #"?BARO={"altitude":9000};"#))
        #expect(refused["class"]?.stringValue == "ERROR", "\(refused)")
        let message = refused["message"]?.stringValue ?? ""
        #expect(message.contains("850 to 1100 hPa") && message.contains("9000"), "\(message)")
        let after = try #require(ask(client, "?BARO;"))
        #expect(after["qnh"]?.numberValue == qnh && after["reference"]?.stringValue == "altitude", "the refused one changed nothing: \(after)")
    }
}
