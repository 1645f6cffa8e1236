import Glibc
import LodestoneCore
import LodestoneDomain
import Testing
@testable import LodestoneEncoding
@testable import LodestoneRuntime
@testable import LodestoneServices
@testable import LodestoneStorage

/// `GET /api/v1/track`'s body: the TRACK report of the whole recording with its line thinned
/// to at most 500 points, first and last kept; stopped, the state and an empty line; never a
/// NaN, a null or an exponent in the text.
@Suite struct WebTrackAnswerTests {
    /// A walk north at 1.5 m/s, climbing 0.1 m/s, one fix a second.
    static func walk(_ service: TrackService, seconds: Int) {
        for second in 1...seconds {
            let t = Double(second)
            var fix = GPSFix()
            (fix.mode, fix.latitude, fix.longitude, fix.utc, fix.speed, fix.altitudeMSL) = (
                .threeD, 47 + t * 1.5 / 111_195, 8, 1_782_028_800 + t, 1.5, 500 + t * 0.1
            )
            _ = service.add(fix, state: NavigationState(), now: UInt64(t * 1e9), time: 0)
        }
    }

    @Test func theAnswerIsTheRecordersWithItsLine() throws {
        let store = TrackStore(dataDirectory: "/tmp/lodestone-web-track-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        defer { removeTree(store.directory) }
        let service = TrackService(store: store, mode: .every(1))
        let stopped = try JSONValue.parse(WebTrackAnswer.json(service, now: 1_782_028_800))
        #expect(stopped["class"]?.stringValue == "TRACK" && stopped["state"]?.stringValue == "stopped")
        #expect(stopped["path"]?.arrayValue?.isEmpty == true && stopped["points"] == nil)
        _ = service.start(name: "Lake \"loop\"", at: 1_782_028_800)
        Self.walk(service, seconds: 1501)
        let text = WebTrackAnswer.json(service, now: 1_782_028_800 + 1600)
        for bad in ["nan", "null", "inf", "e+", "e-"] { #expect(!text.lowercased().contains(bad), "\(bad) in \(text.prefix(400))") }
        let answer = try JSONValue.parse(text)
        let points = try #require(service.recording?.points)
        let statistics = TrackStatistics.of(points)
        #expect(answer["state"]?.stringValue == "recording" && answer["name"]?.stringValue == "Lake \"loop\"")
        #expect(answer["points"]?.numberValue == Double(points.count))
        #expect(abs((answer["distance"]?.numberValue ?? 0) - statistics.distance) <= 0.05)
        #expect(answer["started"]?.stringValue == "2026-06-21T08:00:00.000Z")
        #expect(answer["elapsed"]?.numberValue == 1600)
        #expect(answer["movingTime"]?.numberValue == statistics.movingTime.rounded())
        #expect(answer["climb"]?.numberValue == statistics.elevationGain.rounded())
        let split = try #require(answer["split"])
        #expect(split["length"]?.numberValue == 1000 && split["completed"]?.numberValue == 2)
        #expect(split["last"]?.numberValue == statistics.splits.last?.rounded())
        let path = try #require(answer["path"]?.arrayValue)
        #expect(path.count <= WebTrackAnswer.pathLimit && path.count > 300, "\(path.count) points drawn of \(points.count)")
        let first = (path.first?.arrayValue ?? []).compactMap { $0.numberValue }
        let last = (path.last?.arrayValue ?? []).compactMap { $0.numberValue }
        let start = try #require(points.first)
        let end = try #require(points.last)
        #expect(first.count == 2 && abs(first[0] - start.latitude) < 1e-6 && abs(first[1] - start.longitude) < 1e-6)
        #expect(last.count == 2 && abs(last[0] - end.latitude) < 1e-6 && abs(last[1] - end.longitude) < 1e-6)
        _ = service.stop()
    }
}
