import Glibc
import LodestoneCore
import LodestoneDomain
import LodestoneSettings
import Testing
@testable import LodestoneServices
@testable import LodestoneStorage

/// What a runner reads about a track: pauses as segments, splits per kilometre or mile, the
/// summary on a terminal, lists by pace and in pages, private tracks, and a recovered
/// recording that goes on as it was.
@Suite struct TrackSummaryTests {
    static func folder(_ name: String) -> String { "/tmp/lodestone-\(name)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))" }

    /// A fix `t` seconds in, walking north at `speed` from 47° N.
    static func fix(_ t: Double, north metres: Double, speed: Double) -> GPSFix {
        var fix = GPSFix()
        (fix.mode, fix.latitude, fix.longitude, fix.utc, fix.speed, fix.altitudeMSL) = (
            .threeD, 47 + metres / 111_195, 8, 1_782_028_800 + t, speed, 500 + metres / 100
        )
        return fix
    }

    /// A pause (by hand, then by itself standing still) starts a new segment: the GPX has one
    /// <trkseg> per stretch, and the metres between them are not walked.
    @Test func pausesStartSegments() throws {
        let store = TrackStore(dataDirectory: Self.folder("segments"))
        let service = TrackService(store: store, mode: .every(1))
        _ = service.start(name: "Intervals", at: 1_782_028_800)
        var t = 0.0, north = 0.0
        func walk(_ seconds: Int) {
            for _ in 0..<seconds {
                t += 1; north += 1.5
                _ = service.add(Self.fix(t, north: north, speed: 1.5), state: NavigationState(), now: UInt64(t * 1e9), time: 0)
            }
        }
        walk(200)
        _ = service.pause()
        north += 400  // carried 400 m in a car while paused
        t += 300
        _ = service.resume()
        walk(200)
        // Standing still for a minute pauses by itself; walking on starts the third segment.
        for _ in 0..<60 { t += 1; _ = service.add(Self.fix(t, north: north, speed: 0.05), state: NavigationState(), now: UInt64(t * 1e9), time: 0) }
        #expect(service.autoPaused)
        walk(100)
        _ = service.stop()
        let id = try #require(store.list().first?.id)
        let points = try #require(store.load(id: id)).points
        #expect(points.filter(\.startsSegment).count == 2, "\(points.filter(\.startsSegment).count) segment starts")
        let gpx = try #require(store.export(id: id, format: "gpx"))
        #expect(gpx.components("<trkseg>") == 3)
        let walked = TrackStatistics.of(points).distance
        #expect(abs(walked - 1.5 * 500) < 30, "walked \(walked) m of 750 (the 400 m driven while paused do not count)")
    }

    @Test func splitsFollowTheUnitsAndTheSummaryReads() throws {
        // 5 km at 5:00 /km, the third kilometre at 4:00.
        var points: [TrackPoint] = []
        var t = 0.0, along = 0.0
        while along < 5_000 {
            let speed = along >= 2_000 && along < 3_000 ? 1000.0 / 240 : 1000.0 / 300
            points.append(
                TrackPoint(
                    time: 1_782_028_800 + t, latitude: 47 + along / 111_195, longitude: 8, gpsAltitude: 500 + along / 50,
                    speed: speed))
            t += 5; along += speed * 5
        }
        let perKilometre = TrackStatistics.of(points)
        #expect(perKilometre.splits.count == 4 || perKilometre.splits.count == 5)
        #expect(abs((perKilometre.splits.min() ?? 0) - 240) <= 10, "best split \(perKilometre.splits.min() ?? 0) s")
        let perMile = TrackStatistics.of(points, splitLength: 1609.344)
        #expect(perMile.splits.count == 3)
        let summary = TrackStore.Summary(
            id: "20260621-080000", name: "Tempo run", started: 1_782_028_800, distance: perKilometre.distance,
            movingTime: perKilometre.movingTime, elevationGain: perKilometre.elevationGain, points: points.count)
        let text = TrackSummaryText.text(summary: summary, points: points, timeless: false, units: .metric)
        #expect(text.contains("km 1") && text.contains("best split") && text.contains("highest") && text.contains("lowest"), "\(text)")
        #expect(text.contains("4:0") || text.contains("3:5"), "the fast kilometre's split: \(text)")
        let miles = TrackSummaryText.text(summary: summary, points: points, timeless: false, units: .imperial)
        #expect(miles.contains("mi 1") && miles.contains("/mi"), "\(miles)")
        let shapeOnly = TrackSummaryText.text(summary: summary, points: points, timeless: true, units: .metric)
        #expect(shapeOnly.contains("no times") && !shapeOnly.contains("splits"))
    }

    /// A recording cut by a crash comes back with its interval mode, tags and notes.
    @Test func recoveryKeepsTheWayPointsWereTaken() throws {
        let store = TrackStore(dataDirectory: Self.folder("recovery"))
        do {
            let service = TrackService(store: store)
            _ = service.start(name: "Coast path", tags: ["hike", "sea"], mode: .adaptive, notes: "with Anna, low tide at 14:10", at: 1_782_028_800)
            _ = service.add(Self.fix(1, north: 0, speed: 1.4), state: NavigationState(), now: 1_000_000_000, time: 0)
        }
        // kill -9: the next start finds the recording.
        let service = TrackService(store: store)
        let recovered = try #require(service.recording)
        #expect(recovered.extra.interval == "adaptive" && recovered.tags == ["hike", "sea"] && recovered.extra.notes == "with Anna, low tide at 14:10")
        guard case .track(let report) = service.handle(.report, at: 1_782_028_900) else { Issue.record("no TRACK"); return }
        #expect(report.recording?.interval == "adaptive")
        _ = service.stop()
        let summary = try #require(store.list().first)
        #expect(summary.notes == "with Anna, low tide at 14:10" && summary.tags == ["hike", "sea"])
    }

    @Test func listsSortByPaceAndPrivateIsKept() throws {
        let store = TrackStore(dataDirectory: Self.folder("pace"))
        // Three runs: 10 km in 50 min, 5 km in 30 min, 8 km in 36 min.
        for (index, (km, minutes)) in [(10.0, 50.0), (5.0, 30.0), (8.0, 36.0)].enumerated() {
            let service = TrackService(store: store, mode: .every(5))
            let start = 1_782_028_800 + Double(index) * 86_400
            _ = service.start(name: "Run \(index + 1)", at: start)
            let speed = km * 1000 / (minutes * 60)
            for step in 0...Int(minutes * 12) {
                let t = Double(step) * 5
                var fix = Self.fix(t, north: speed * t, speed: speed)
                fix.utc = start + t
                _ = service.add(fix, state: NavigationState(), now: UInt64((start + t) * 1e9), time: 0)
            }
            _ = service.stop()
        }
        let byPace = store.list(TrackStore.Query(order: .pace)).map(\.name)
        #expect(byPace == ["Run 3", "Run 1", "Run 2"], "\(byPace)")
        let byDistance = store.list(TrackStore.Query(order: .distance)).map(\.name)
        #expect(byDistance == ["Run 1", "Run 3", "Run 2"])
        let id = try #require(store.list().first { $0.name == "Run 2" }?.id)
        #expect(try store.edit(id: id, name: nil, notes: nil, isPrivate: true).isPrivate)
        #expect(try store.summary(id: id).isPrivate)
        #expect(try !store.edit(id: id, name: nil, notes: nil, isPrivate: false).isPrivate)
    }

    /// Auto-pause's speed and time are settings: a slow paddler at 0.2 m/s keeps recording with
    /// 0.1 m/s, and is paused by the default 0.3 m/s after 10 s.
    @Test func autoPauseFollowsItsSettings() throws {
        for (limit, paused) in [((0.3, 10.0), true), ((0.1, 30.0), false)] {
            let service = TrackService(store: TrackStore(dataDirectory: Self.folder("autopause")), mode: .every(1), autoPause: limit)
            _ = service.start(name: "Paddle", at: 1_782_028_800)
            for t in 1...60 {
                _ = service.add(Self.fix(Double(t), north: Double(t) * 0.2, speed: 0.2), state: NavigationState(), now: UInt64(t) * 1_000_000_000, time: 0)
            }
            #expect(service.autoPaused == paused, "\(limit)")
            _ = service.stop()
        }
        var c = Configuration()
        #expect(Setting.all.first { $0.key == "tracks.autoPauseSpeed" }?.apply(.number(0.1), to: &c) == nil && c.autoPauseSpeed == 0.1)
        #expect(Setting.all.first { $0.key == "tracks.autoPauseSeconds" }?.apply(.number(0), to: &c) != nil)
    }

    /// export-all leaves private tracks out unless asked.
    @Test func privateTracksStayOutOfTheBackup() throws {
        let directory = Self.folder("backup")
        let store = TrackStore(dataDirectory: directory)
        for (name, isPrivate) in [("Ridge", false), ("Home to work", true)] {
            let service = TrackService(store: store, mode: .every(1))
            _ = service.start(name: name, isPrivate: isPrivate, at: 1_782_028_800 + (isPrivate ? 86_400 : 0))
            for t in 1...30 {
                var fix = Self.fix(Double(t), north: Double(t) * 1.5, speed: 1.5)
                fix.utc = (fix.utc ?? 0) + (isPrivate ? 86_400 : 0)
                _ = service.add(fix, state: NavigationState(), now: UInt64(t) * 1_000_000_000, time: 0)
            }
            _ = service.stop()
        }
        let hidden = try #require(store.list().first { $0.isPrivate }?.id)
        let kept = try #require(store.list().first { !$0.isPrivate }?.id)
        let without = PersonalData.archive(dataDirectory: directory, now: 1_782_300_000)
        let text = String(decoding: without.bytes, as: UTF8.self)
        #expect(!text.contains(hidden) && text.contains(kept) && without.contents.tracks == 1)
        #expect(without.warnings.contains { $0.contains("1 private track is left out") })
        let with = PersonalData.archive(dataDirectory: directory, now: 1_782_300_000, withPrivate: true)
        #expect(with.contents.tracks == 2 && String(decoding: with.bytes, as: UTF8.self).contains(hidden))
    }
}

extension String {
    /// How many times `piece` occurs.
    func components(_ piece: String) -> Int { max(0, split(separator: piece, omittingEmptySubsequences: false).count - 1) }
}
