import Glibc
import LodestoneCore
import LodestoneOutputs
import LodestoneRuntime
import Testing
@testable import LodestoneEncoding
@testable import LodestoneStorage

/// The guided figure-8 calibration end to end: `lodestone calibrate mag` against a running
/// simulated board (whose magnetometer has hard and soft iron), the result saved, and a
/// later start that loads it and points true north.
@Suite(.serialized) struct LiveCalibrationTests {
    @Test func guidedCalibrationThenTrueNorth() throws {
        let end = EndToEndTests()
        let data = "/tmp/lodestone-e2e-cal-\(getpid())"
        let socket = data + ".sock"
        // The walk starts with 30 s of figure 8s; at double speed, 15 s.
        let run = try end.spawn([
            "run", "--duration", "40", "--speed", "2", "--socket", socket, "--display", "none",
            "--data-dir", data
        ])
        _ = try #require(end.connect(socket))
        let (status, output) = end.finish(try end.spawn(["calibrate", "mag", "--socket", socket, "--json"]))
        kill(run.pid, SIGTERM)
        _ = end.finish(run)
        #expect(status == 0, "\(output)")
        let last = try JSONValue.parse(String(output.split(separator: "\n").last ?? ""))
        #expect(last["status"]?.stringValue == "good")
        // The figure-8's progress only grows, and the words ask for figure-8s.
        let steps = output.split(separator: "\n").compactMap { try? JSONValue.parse(String($0)) }.filter { $0["status"]?.stringValue == "inProgress" }
        let progress = steps.compactMap { $0["progress"]?.numberValue }
        #expect(progress.count >= 3 && progress == progress.sorted(), "\(progress)")
        #expect(steps.first?["message"]?.stringValue?.contains("figure-8") == true, "\(output.prefix(400))")
        #expect((last["expectedHeadingError"]?.numberValue ?? 99) < 2)
        #expect(access(data + "/calibration/magnetometer.json", R_OK) == 0)

        // Lying still pointing true north in Zurich: the calibrated compass says so.
        let still = try end.spawn([
            "run", "--duration", "6", "--scenario", "still", "--socket", socket, "--display", "none",
            "--data-dir", data
        ])
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

    /// A boat's guided swing end to end: `lodestone calibrate mag` (no --swing: the boat's "use"
    /// asks for a swing) against the simulated boat, which begins with one slow circle under
    /// engine with its compass in the hull's iron. The helmsman is told how far the circle has
    /// come, the percentage never goes back, and the swing is fitted as a swing.
    @Test func guidedSwingOnTheBoat() throws {
        let end = EndToEndTests()
        let data = "/tmp/lodestone-e2e-swing-\(getpid())"
        let socket = data + ".sock"
        let run = try end.spawn([
            "run", "--scenario", "boat", "--duration", "40", "--speed", "10", "--socket", socket,
            "--display", "none", "--data-dir", data
        ])
        _ = try #require(end.connect(socket))
        let (status, output) = end.finish(try end.spawn(["calibrate", "mag", "--socket", socket, "--json"]))
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
        #expect(!output.contains("point the") && !output.contains("figure-8"), "a swing is not guided as a figure-8: \(output)")
        let progress = events.filter { $0["status"]?.stringValue == "inProgress" }.compactMap { $0["progress"]?.numberValue }
        #expect(progress.count >= 3 && progress == progress.sorted(), "\(progress)")
        #expect(events.last?["status"]?.stringValue == "good", "\(output)")
    }

    /// A guided calibration whose client goes away (here `lodestone calibrate mag` interrupted
    /// with SIGINT, as Ctrl-C does: the socket closes) ends at once, and the sampling rates it
    /// raised to walking come back down: the device does not stay "inProgress" at walking rates
    /// until the session's three-minute limit.
    @Test func anInterruptedCalibrationEndsAndTheRatesReturn() throws {
        let end = EndToEndTests()
        let data = "/tmp/lodestone-e2e-calgone-\(getpid())"
        let socket = data + ".sock"
        defer { removeTree(data) }
        let run = try end.spawn([
            "run", "--scenario", "still", "--duration", "90", "--socket", socket, "--display", "none",
            "--data-dir", data
        ])
        defer {
            kill(run.pid, SIGTERM)
            _ = end.finish(run)
        }
        let watcher = try #require(end.connect(socket, to: run))
        watcher.send(#"?WATCH={"enable":true,"json":true};"#)
        func profile(_ report: JSONValue) -> String? { report["class"]?.stringValue == "HEALTH" ? report["profile"]?.stringValue : nil }
        func calibration(_ report: JSONValue) -> String? {
            report["class"]?.stringValue == "EVENT" && report["event"]?.stringValue == "calibration" ? report["status"]?.stringValue : nil
        }
        // Lying on the table: the still profile's rates.
        _ = try #require(Self.report(on: watcher, within: 20) { profile($0) == "still" }, "never at the still profile")
        let calibrate = try end.spawn(["calibrate", "mag", "--socket", socket, "--json"])
        _ = try #require(Self.report(on: watcher, within: 10) { calibration($0) == "inProgress" }, "the calibration never started")
        _ = try #require(Self.report(on: watcher, within: 10) { profile($0) == "walking" }, "the calibration did not raise the rates")
        kill(calibrate.pid, SIGINT)
        _ = end.finish(calibrate)
        let clock = SystemMonotonicClock()
        let gone = clock.now()
        let ended = Self.report(on: watcher, within: 10) { calibration($0).map { $0 != "inProgress" } ?? false }
        let endedAfter = Double(clock.now() - gone) / 1e9
        #expect(ended?["message"]?.stringValue?.contains("went away") == true, "\(String(describing: ended))")
        #expect(ended != nil && endedAfter <= 5, "the session ended \(endedAfter) s after its client went")
        let lowered = Self.report(on: watcher, within: 15) { profile($0) == "still" }
        let loweredAfter = Double(clock.now() - gone) / 1e9
        #expect(lowered != nil && loweredAfter <= 10, "the rates came back \(loweredAfter) s after the client went")
    }

    /// Reads `client`'s reports (asking for HEALTH four times a second) until one is `wanted`,
    /// for up to `seconds`.
    static func report(on client: ReportClient, within seconds: Double, _ wanted: (JSONValue) -> Bool) -> JSONValue? {
        let clock = SystemMonotonicClock()
        let deadline = clock.now() + UInt64(seconds * 1e9)
        var nextQuestion: MonotonicNanoseconds = 0
        while clock.now() < deadline {
            if clock.now() >= nextQuestion {
                client.send("?STATUS;")
                nextQuestion = clock.now() + 250_000_000
            }
            guard let line = client.readLine(timeoutMilliseconds: 100) else { continue }
            if let report = try? JSONValue.parse(line), wanted(report) { return report }
        }
        return nil
    }
}
