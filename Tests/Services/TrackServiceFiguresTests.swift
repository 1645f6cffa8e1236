import Glibc
import LodestoneCore
import LodestoneDomain
import LodestoneReports
import Testing
@testable import LodestoneServices
@testable import LodestoneStorage

/// The recorder's figures are one set: TRACK, the display and the web app read the service's,
/// which are those of the whole recording (the same as `TrackStatistics.of` its points) and
/// follow it through a pause, a resume and a recovery after a crash.
@Suite struct TrackServiceFiguresTests {
    /// Walks `seconds` one fix a second, north at 1.5 m/s and climbing 0.1 m/s.
    static func walk(_ service: TrackService, from t: inout Double, seconds: Int) {
        for _ in 0..<seconds {
            t += 1
            var fix = TrackSummaryTests.fix(t, north: t * 1.5, speed: 1.5)
            fix.altitudeMSL = 500 + t * 0.1
            _ = service.add(fix, state: NavigationState(), now: UInt64(t * 1e9), time: 0)
        }
    }

    static func figures(_ report: Report) -> (state: String, recording: TrackReport.Recording?)? {
        guard case .track(let track) = report else { return nil }
        return (track.state, track.recording)
    }

    @Test func theReportIsTheWholeRecordingsStatistics() throws {
        let store = TrackStore(dataDirectory: TrackSummaryTests.folder("figures"))
        defer { removeTree(store.directory) }
        let service = TrackService(store: store, mode: .every(1))
        let start = 1_782_028_800.0
        _ = service.start(name: "Ridge", at: start)
        var t = 0.0
        Self.walk(service, from: &t, seconds: 900)
        let points = try #require(service.recording?.points)
        let expected = TrackStatistics.of(points)
        let got = try #require(Self.figures(service.report(nil, at: start + 1000)))
        let recording = try #require(got.recording)
        #expect(got.state == "recording")
        #expect(recording.points == points.count && recording.points == 900)
        #expect(recording.distance == expected.distance)
        #expect(recording.movingTime == expected.movingTime && recording.climb == expected.elevationGain)
        #expect(recording.descent == expected.elevationLoss)
        #expect(recording.started == start && recording.elapsed == 1000)
        #expect(recording.splits == 1 && recording.lastSplit == expected.splits.first)
        #expect(recording.splitDistance == expected.splitUnderWay.distance && recording.splitTime == expected.splitUnderWay.time)
        #expect(abs(recording.climb - 90) < 10, "0.1 m/s for 900 s: \(recording.climb)")
        // The display's statistics are the same object's.
        #expect(service.statistics == expected)
        _ = service.stop()
    }

    /// Splits by the units shown: a mile in imperial, a nautical mile afloat; a change while
    /// recording counts the whole track again in the new length.
    @Test func splitsFollowTheUnits() throws {
        let store = TrackStore(dataDirectory: TrackSummaryTests.folder("mile-splits"))
        defer { removeTree(store.directory) }
        let service = TrackService(store: store, mode: .every(1))
        service.splitLength = 1609.344
        _ = service.start(name: "Miles", at: 1_782_028_800)
        var t = 0.0
        // 2,400 s at 1.5 m/s: 3.6 km, two whole miles.
        Self.walk(service, from: &t, seconds: 2400)
        let points = try #require(service.recording?.points)
        let miles = try #require(Self.figures(service.report(nil))?.recording)
        let expected = TrackStatistics.of(points, splitLength: 1609.344)
        #expect(miles.splitLength == 1609.344 && miles.splits == 2 && miles.lastSplit == expected.splits.last)
        #expect(abs(miles.lastSplit - 1609.344 / 1.5) < 5, "a mile at 1.5 m/s: \(miles.lastSplit) s")
        service.splitLength = 1852
        let nautical = try #require(Self.figures(service.report(nil))?.recording)
        #expect(nautical.splitLength == 1852 && nautical.splits == 1)
        #expect(nautical.splitDistance == TrackStatistics.of(points, splitLength: 1852).splitUnderWay.distance)
        _ = service.stop()
    }

    @Test func pausedAndResumedTheFiguresGoOn() throws {
        let store = TrackStore(dataDirectory: TrackSummaryTests.folder("paused-figures"))
        defer { removeTree(store.directory) }
        let service = TrackService(store: store, mode: .every(1))
        _ = service.start(name: "Loop", at: 1_782_028_800)
        var t = 0.0
        Self.walk(service, from: &t, seconds: 300)
        #expect(Self.figures(service.handle(.pause, at: 1_782_028_800 + t))?.state == "paused")
        // Paused: no points, the figures stay, the clock of the whole goes on.
        Self.walk(service, from: &t, seconds: 120)
        let paused = try #require(Self.figures(service.report(nil, at: 1_782_028_800 + t))?.recording)
        #expect(paused.points == 300 && paused.elapsed == t)
        // Start on a paused recording changes nothing; Resume records again.
        #expect(Self.figures(service.handle(.start(name: nil, tags: [], mode: nil, notes: nil, isPrivate: false), at: 1_782_028_800 + t))?.state == "paused")
        #expect(Self.figures(service.handle(.resume, at: 1_782_028_800 + t))?.state == "recording")
        Self.walk(service, from: &t, seconds: 100)
        let points = try #require(service.recording?.points)
        let resumed = try #require(Self.figures(service.report(nil))?.recording)
        #expect(resumed.points == 400 && resumed.distance == TrackStatistics.of(points).distance)
        #expect(resumed.elapsed == t, "elapsed to the newest fix: \(resumed.elapsed)")
        _ = service.stop()
        #expect(Self.figures(service.report(nil))?.recording == nil)
    }

    @Test func aRecoveredRecordingKeepsItsFigures() throws {
        let store = TrackStore(dataDirectory: TrackSummaryTests.folder("recovered-figures"))
        defer { removeTree(store.directory) }
        var before: TrackReport.Recording?
        do {
            let service = TrackService(store: store, mode: .every(1))
            _ = service.start(name: "Cut", at: 1_782_028_800)
            var t = 0.0
            Self.walk(service, from: &t, seconds: 200)
            before = Self.figures(service.report(nil))?.recording
            // The power goes: the service is gone without a stop.
        }
        let again = TrackService(store: store, mode: .every(1))
        let after = try #require(Self.figures(again.report(nil, at: 1_782_028_800 + 200))?.recording)
        let kept = try #require(before)
        // The file keeps what it was given to its last digit: the figures are those of the
        // points read back, within a metre of those before the cut.
        let recovered = TrackStatistics.of(try #require(again.recording?.points))
        #expect(after.points == kept.points && after.distance == recovered.distance && after.climb == recovered.elevationGain)
        #expect(abs(after.distance - kept.distance) < 1 && abs(after.climb - kept.climb) < 1, "\(after.distance) \(kept.distance)")
        _ = again.stop()
    }

    @Test func thePathIsThinnedWithItsEnds() throws {
        let store = TrackStore(dataDirectory: TrackSummaryTests.folder("path"))
        defer { removeTree(store.directory) }
        let service = TrackService(store: store, mode: .every(1))
        #expect(service.path(limit: 500).isEmpty)
        _ = service.start(name: "Long", at: 1_782_028_800)
        var t = 0.0
        Self.walk(service, from: &t, seconds: 1234)
        let points = try #require(service.recording?.points)
        let path = service.path(limit: 500)
        #expect(path.count <= 500 && path.count > 400)
        #expect(path.first?.latitude == points.first?.latitude && path.last?.latitude == points.last?.latitude)
        _ = service.stop()
    }
}
