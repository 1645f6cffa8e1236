import Glibc
import LodestoneCore
import LodestoneDomain
@testable import LodestoneRuntime
import Testing
@testable import LodestoneServices
@testable import LodestoneStorage

/// Tracks survive the cuts a field device suffers: a torn last line and garbage after it are
/// dropped, every complete point is kept, and recording continues.
@Suite struct TrackRecordingTests {
    func point(_ t: Double) -> TrackPoint {
        TrackPoint(
            time: 1_782_028_800 + t, latitude: 47 + t * 1e-5, longitude: 8, gpsAltitude: 408, baroAltitude: 410,
            pressure: 965.1, speed: 1.4, accuracy: 4)
    }

    @Test func aTornRecordingIsRecoveredAndContinued() throws {
        let directory = "/tmp/lodestone-tracks-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let store = TrackStore(dataDirectory: directory)
        #expect(makeDirectories(store.directory))
        do {
            let recording = try #require(TrackRecording(path: store.recordingPath, name: "Ridge, with a comma", started: 1_782_028_800))
            for t in 0..<50 { recording.append(point(Double(t)), now: UInt64(t) * 1_000_000_000) }
        }
        // The power goes in the middle of a line, and the card returns junk after it.
        let fd = open(store.recordingPath, O_WRONLY | O_APPEND)
        _ = "1782028850.0,47.0005,8.0,40".withCString { write(fd, $0, strlen($0)) }
        close(fd)
        let service = TrackService(store: store)
        #expect(service.state == .recording)
        #expect(service.recording?.points.count == 50)
        #expect(service.recording?.name == "Ridge, with a comma")
        var fix = GPSFix()
        (fix.mode, fix.latitude, fix.longitude, fix.utc, fix.speed) = (.threeD, 47.001, 8, 1_782_028_900, 1.4)
        _ = service.add(fix, state: NavigationState(), now: 100_000_000_000, time: 0)
        _ = service.stop()
        let tracks = store.list()
        #expect(tracks.count == 1 && tracks[0].points == 51)
        let loaded = try #require(store.load(id: tracks[0].id))
        #expect(loaded.points.first == point(0))
        #expect(loaded.points[49] == point(49))
    }

    @Test func standingStillAddsNoPhantomDistance() throws {
        let directory = "/tmp/lodestone-tracks-still-\(getpid())"
        let service = TrackService(store: TrackStore(dataDirectory: directory))
        _ = service.start(name: "still", at: 1_782_028_800)
        var fix = GPSFix()
        fix.mode = .threeD
        for t in 0..<300 {
            // Ten minutes standing with 3 m of GPS jitter.
            (fix.latitude, fix.longitude, fix.utc, fix.speed) = (47 + Double(t % 7) * 3e-5, 8 + Double(t % 5) * 4e-5, 1_782_028_800 + Double(t) * 2, 0.1)
            _ = service.add(fix, state: NavigationState(), now: UInt64(t) * 2_000_000_000, time: 0)
        }
        #expect(service.autoPaused)
        let points = service.recording?.points ?? []
        #expect(points.count <= 3, "\(points.count) points while standing")
        _ = service.stop()
    }

    @Test func exportedGPXIsValidGPX11() throws {
        let points = (0..<20).map { point(Double($0)) }
        let gpx = TrackExport.gpx(name: "A & B <walk>", points: points)
        #expect(gpx.contains("<name>A &amp; B &lt;walk&gt;</name>"))
        let xsd = EndToEndTests.boardsDirectory + "/../../shared/vectors/gpx11.xsd"
        guard access("/usr/bin/xmllint", X_OK) == 0, access(xsd, R_OK) == 0 else {
            print("skipped: xmllint or ../shared/vectors/gpx11.xsd is not present")
            return
        }
        let path = "/tmp/lodestone-track-\(getpid()).gpx"
        defer { unlink(path) }
        #expect(writeFileAtomically(path, Array(gpx.utf8)))
        let end = EndToEndTests()
        let child = try end.spawnProgram("/usr/bin/xmllint", ["--noout", "--schema", xsd, path])
        let (status, output) = end.finish(child)
        #expect(status == 0, "\(output)")
    }

    /// Files `count` tracks a day apart, named and tagged in turn.
    func fill(_ store: TrackStore, count: Int) throws {
        #expect(makeDirectories(store.directory))
        let names = ["Ridge walk", "Harbour sail", "Morning run"]
        for index in 0..<count {
            let started = 1_782_028_800 + Double(index) * 86_400
            let recording = try #require(
                TrackRecording(
                    path: store.recordingPath, name: names[index % 3], started: started,
                    tags: index % 3 == 1 ? ["sail", "sea"] : ["hike"]))
            // Track i is (i + 1) km long.
            for k in 0...(index + 1) {
                recording.append(
                    TrackPoint(
                        time: started + Double(k) * 600, latitude: 47 + Double(k) * 1000 / 111_171.0, longitude: 8,
                        gpsAltitude: 400), now: 0)
            }
            #expect(store.file(recording) != nil)
        }
    }

    @Test func listFiltersSearchesAndSorts() throws {
        let store = TrackStore(dataDirectory: "/tmp/lodestone-track-list-\(getpid())")
        try fill(store, count: 9)
        #expect(store.list().map(\.started) == store.list().map(\.started).sorted(by: >), "newest first by default")
        #expect(store.list(.init(tag: "sail")).count == 3)
        #expect(store.list(.init(text: "HARBOUR sea")).count == 3, "every word, any case, name or tag")
        #expect(store.list(.init(text: "harbour hike")).isEmpty)
        let day3 = 1_782_028_800 + 3 * 86_400.0
        #expect(store.list(.init(from: day3, to: day3 + 86_400)).map(\.started) == [day3])
        let long = store.list(.init(minimumDistance: 4_500, maximumDistance: 7_500, order: .shortest))
        #expect(long.map { Int(($0.distance / 1000).rounded()) } == [5, 6, 7])
        #expect(store.list(.init(order: .name)).first?.name == "Harbour sail")
        #expect(store.list(.init(tag: "sail")).allSatisfy { $0.tags == ["sail", "sea"] })
    }

    @Test func aPrivateExportLeavesOutHomeAndTheTimes() throws {
        let store = TrackStore(dataDirectory: "/tmp/lodestone-track-private-\(getpid())")
        try fill(store, count: 2)
        let id = try #require(store.list().first?.id)
        // Home is the start; the track's 3 points are 0, 1 and 2 km north of it.
        let privacy = PrivacyTrim(places: [PrivacyTrim.Place(latitude: 47, longitude: 8, radius: 500)])
        let gpx = try #require(store.export(id: id, format: "gpx", privacy: privacy))
        #expect(gpx.split(separator: "<trkpt ").count - 1 == 2)
        #expect(!gpx.contains("<time>"))
        #expect(!gpx.contains("lat=\"47.0000000\""))
        let json = try #require(store.export(id: id, format: "json", privacy: privacy))
        #expect(!json.contains("\"time\""))
        #expect(json.contains("\"distance\":1000"), "statistics of what is shared")
    }

    @Test func gpsbabelReadsTheExport() throws {
        guard access("/usr/bin/gpsbabel", X_OK) == 0 else {
            print("skipped: gpsbabel is not installed (scripts/install-deps --test installs it)")
            return
        }
        let path = "/tmp/lodestone-babel-\(getpid()).gpx"
        defer { unlink(path) }
        let points = (0..<25).map { point(Double($0) * 5) }
        #expect(writeFileAtomically(path, Array(TrackExport.gpx(name: "Ridge walk", points: points).utf8)))
        let end = EndToEndTests()
        let child = try end.spawnProgram("/usr/bin/gpsbabel", ["-t", "-i", "gpx", "-f", path, "-o", "unicsv", "-F", "-"])
        let (status, output) = end.finish(child)
        #expect(status == 0, "\(output)")
        // unicsv ends its lines in CRLF, one Character in Swift: split on any newline.
        let rows = output.split(whereSeparator: \.isNewline).filter { $0.first?.isNumber == true }
        #expect(rows.count == 25, "\(output)")
        #expect(rows.first?.contains("47.000000") == true && rows.first?.contains("8.000000") == true, "\(output)")
    }
}
