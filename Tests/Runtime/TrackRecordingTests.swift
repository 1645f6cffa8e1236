import Glibc
import LodestoneCore
import LodestoneDomain
@testable import LodestoneRuntime
import Testing

/// Tracks survive the cuts a field device suffers: a torn last line and garbage after it are
/// dropped, every complete point is kept, and recording continues.
@Suite struct TrackRecordingTests {
    func point(_ t: Double) -> TrackPoint {
        TrackPoint(time: 1_782_028_800 + t, latitude: 47 + t * 1e-5, longitude: 8, gpsAltitude: 408, baroAltitude: 410,
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
        service.add(fix, state: NavigationState(), now: 100_000_000_000)
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
            service.add(fix, state: NavigationState(), now: UInt64(t) * 2_000_000_000)
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
        let xsd = BoardFileTests.boardsDirectory + "/../../shared/vectors/gpx11.xsd"
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
}
