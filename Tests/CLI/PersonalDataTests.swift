import Glibc
import LodestoneCore
import LodestoneDomain
@testable import LodestoneRuntime
import Testing
@testable import LodestoneStorage

/// A person's records: tracks renamed and annotated after the fact, deleted only when meant,
/// taken away in one archive, and forgotten.
@Suite(.serialized) struct PersonalDataTests {
    /// A data directory with one stored track, a waypoint, a log file and a snapshot file.
    static func dataDirectory(_ tag: String) throws -> (directory: String, track: String) {
        let directory = "/tmp/lodestone-personal-\(tag)-\(getpid())"
        removeTree(directory)
        let tracks = TrackStore(dataDirectory: directory)
        #expect(makeDirectories(tracks.directory) && makeDirectories(directory + "/logs/20260621-080000") && makeDirectories(directory + "/snapshots"))
        let recording = try #require(TrackRecording(path: tracks.directory + "/recording.track", name: "Ridge", started: 1_782_028_800))
        for t in 0..<20 {
            recording.append(
                TrackPoint(
                    time: 1_782_028_800 + Double(t) * 5, latitude: 47 + Double(t) * 1e-4, longitude: 8, gpsAltitude: 408,
                    baroAltitude: .nan, pressure: 965.1, speed: 1.4, accuracy: 4), now: UInt64(t) * 5_000_000_000)
        }
        let summary = try #require(tracks.file(recording))
        try WaypointStore(dataDirectory: directory).add(Waypoint(name: "Hut", latitude: 46.5, longitude: 7.9))
        #expect(writeFileAtomically(directory + "/logs/20260621-080000/0001.rec", Array("log".utf8)))
        #expect(writeFileAtomically(directory + "/snapshots/20260621-080500.json", Array("{}".utf8)))
        #expect(writeFileAtomically(directory + "/last-position.json", Array("{}".utf8)))
        return (directory, summary.id)
    }

    @Test func aTrackIsRenamedAndAnnotatedAfterTheFact() throws {
        let (directory, id) = try Self.dataDirectory("edit")
        defer { removeTree(directory) }
        let end = EndToEndTests()
        let (renamed, said) = end.finish(try end.spawn(["track", "rename", id, "Ridge at dawn", "--data-dir", directory]))
        #expect(renamed == 0 && said.contains("Ridge at dawn"), "\(said)")
        let (noted, _) = end.finish(try end.spawn(["track", "edit", id, "--notes", "fog until 9, then clear", "--data-dir", directory]))
        #expect(noted == 0)
        let (_, list) = end.finish(try end.spawn(["track", "list", "--json", "--data-dir", directory]))
        #expect(list.contains("\"name\":\"Ridge at dawn\"") && list.contains("\"notes\":\"fog until 9, then clear\""), "\(list)")
        let (_, gpx) = end.finish(try end.spawn(["track", "export", id, "--data-dir", directory]))
        #expect(gpx.contains("<name>Ridge at dawn</name>") && gpx.contains("<desc>fog until 9, then clear</desc>"), "\(gpx.prefix(400))")
        let (bad, why) = end.finish(try end.spawn(["track", "edit", id, "--data-dir", directory]))
        #expect(bad == 2 && why.contains("--name, --notes, --private or --public"))
    }

    /// Without a terminal to ask on, delete wants --yes and keeps the track until given it.
    @Test func deleteWantsYesWithoutATerminal() throws {
        let (directory, id) = try Self.dataDirectory("delete")
        defer { removeTree(directory) }
        let end = EndToEndTests()
        let (refused, why) = end.finish(try end.spawn(["track", "delete", id, "--data-dir", directory]))
        #expect(refused == 2 && why.contains("give --yes"), "\(why)")
        #expect(TrackStore(dataDirectory: directory).contains(id: id))
        let (deleted, _) = end.finish(try end.spawn(["track", "delete", id, "--yes", "--data-dir", directory]))
        #expect(deleted == 0 && !TrackStore(dataDirectory: directory).contains(id: id))
    }

    /// The archive lists with tar itself (every store as stored, GPX copies beside them); forget-all deletes the records and keeps settings.
    @Test func everythingInOneArchiveThenForgotten() throws {
        let (directory, id) = try Self.dataDirectory("archive")
        defer { removeTree(directory) }
        #expect(writeFileAtomically(directory + "/alerts.json", Array("[]".utf8)))
        let end = EndToEndTests()
        let archive = directory + "-export.tar"
        defer { unlink(archive) }
        let (written, said) = end.finish(try end.spawn(["export-all", "--out", archive, "--data-dir", directory]))
        #expect(written == 0 && said.contains("1 tracks, 1 waypoints, 1 log sessions (1 files), 1 snapshots"), "\(said)")
        if access("/bin/tar", X_OK) == 0 {
            let listing = TerminalDisplayTests.output("/bin/tar -tf \(archive)")
            for name in [
                "gpx/\(id).gpx", "tracks/\(id).track", "tracks/\(id).json", "gpx/waypoints.gpx", "waypoints.json",
                "logs/20260621-080000/0001.rec", "snapshots/20260621-080500.json", "last-position.json", "manifest.json"
            ] {
                #expect(listing.contains(name), "\(name) in \(listing)")
            }
            #expect(TerminalDisplayTests.output("/bin/tar -xOf \(archive) gpx/\(id).gpx").contains("<name>Ridge</name>"))
        }
        let (refused, why) = end.finish(try end.spawn(["forget-all", "--data-dir", directory]))
        #expect(refused == 2 && why.contains("give --yes"))
        let (forgot, gone) = end.finish(try end.spawn(["forget-all", "--yes", "--data-dir", directory, "--socket", directory + "/none.sock"]))
        #expect(forgot == 0 && gone.contains("tracks") && gone.contains("waypoints.json") && gone.contains("last-position.json"), "\(gone)")
        #expect(!fileExists(directory + "/tracks") && !fileExists(directory + "/logs") && !fileExists(directory + "/snapshots"))
        #expect(fileExists(directory + "/alerts.json"), "settings are kept")
    }
}
