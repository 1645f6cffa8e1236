import Glibc
import LodestoneCore
import LodestoneOutputs
import LodestoneRuntime
import Testing

/// The guided figure-8 calibration end to end: `lodestone calibrate mag` against a running
/// simulated board (whose magnetometer has hard and soft iron), the result saved, and a
/// later start that loads it and points true north.
@Suite(.serialized) struct LiveCalibrationTests {
    @Test func guidedCalibrationThenTrueNorth() throws {
        let end = EndToEndTests()
        let data = "/tmp/lodestone-e2e-cal-\(getpid())"
        let socket = data + ".sock"
        // The walk starts with 30 s of figure 8s; at double speed, 15 s.
        let run = try end.spawn(["run", "--duration", "40", "--speed", "2", "--socket", socket, "--display", "none",
                                 "--data-dir", data])
        _ = try #require(end.connect(socket))
        let (status, output) = end.finish(try end.spawn(["calibrate", "mag", "--socket", socket, "--json"]))
        kill(run.pid, SIGTERM)
        _ = end.finish(run)
        #expect(status == 0, "\(output)")
        let last = try JSONValue.parse(String(output.split(separator: "\n").last ?? ""))
        #expect(last["status"]?.stringValue == "good")
        #expect((last["expectedHeadingError"]?.numberValue ?? 99) < 2)
        #expect(access(data + "/calibration/magnetometer.json", R_OK) == 0)

        // Lying still pointing true north in Zurich: the calibrated compass says so.
        let still = try end.spawn(["run", "--duration", "6", "--scenario", "still", "--socket", socket, "--display", "none",
                                   "--data-dir", data])
        let client = try #require(end.connect(socket))
        client.send(#"?WATCH={"enable":true,"json":true};"#)
        var att: JSONValue?
        while let line = client.readLine(timeoutMilliseconds: 8000) {
            if line.contains(#""class":"ATT""#), line.contains(#""heading""#) { att = try? JSONValue.parse(line) }
        }
        _ = end.finish(still)
        let report = try #require(att, "no ATT with a true heading")
        #expect(abs(Angle.signed((report["heading"]?.numberValue ?? 99) - 0)) < 2, "\(report)")
        #expect(abs((report["declination"]?.numberValue ?? 0) - 3.6) < 0.2)
        #expect(report["calibration"]?.stringValue == "good")
        #expect(report["mag_st"]?.stringValue == "N")
        #expect((report["headingAccuracy"]?.numberValue ?? 99) < 3)
    }

    /// A boat's guided swing end to end: `lodestone calibrate mag --swing` against the simulated
    /// boat, which begins with one slow circle under engine with its compass in the hull's iron.
    /// The helmsman is told how far the circle has come, and the swing is fitted as a swing.
    @Test func guidedSwingOnTheBoat() throws {
        let end = EndToEndTests()
        let data = "/tmp/lodestone-e2e-swing-\(getpid())"
        let socket = data + ".sock"
        let run = try end.spawn(["run", "--scenario", "boat", "--duration", "40", "--speed", "10", "--socket", socket,
                                 "--display", "none", "--data-dir", data])
        _ = try #require(end.connect(socket))
        let (status, output) = end.finish(try end.spawn(["calibrate", "mag", "--swing", "--socket", socket, "--json"]))
        kill(run.pid, SIGTERM)
        _ = end.finish(run)
        #expect(status == 0, "\(output)")
        let events = output.split(separator: "\n").compactMap { try? JSONValue.parse(String($0)) }
        let turned = events.compactMap { event -> Int? in
            guard let message = event["message"]?.stringValue, message.hasPrefix("keep turning, ") else { return nil }
            return Int(message.dropFirst("keep turning, ".count).prefix { $0.isNumber })
        }
        #expect(turned.count >= 3, "the swing's progress is said in degrees: \(output)")
        #expect(turned == turned.sorted(), "the degrees done only grow: \(turned)")
        #expect(!output.contains("point the"), "a swing is not guided as a figure-8: \(output)")
        #expect(events.last?["status"]?.stringValue == "good", "\(output)")
    }
}
