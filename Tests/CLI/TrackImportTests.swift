import Glibc
import LodestoneCore
import LodestoneDomain
@testable import LodestoneRuntime
import Testing
@testable import LodestoneStorage

/// `lodestone track import`: GPX 1.0 and 1.1 from other apps and the JSON the device exports
/// come back in as tracks like any other; a file with one wrong point is refused with its line
/// and nothing is added.
@Suite(.serialized) struct TrackImportTests {
    /// Two tracks in GPX 1.0: a run with two segments, elevations and times, and a sketch
    /// without times.
    static let gpx10 = """
        <?xml version="1.0"?>
        <gpx version="1.0" creator="a watch" xmlns="http://www.topografix.com/GPX/1/0">
         <trk><name>Morning &amp; lake</name><desc>from a watch</desc>
          <trkseg>
           <trkpt lat="47.3700" lon="8.5400"><ele>410</ele><time>2026-05-01T06:00:00Z</time></trkpt>
           <trkpt lat="47.3750" lon="8.5400"><ele>415</ele><time>2026-05-01T06:03:00Z</time></trkpt>
           <trkpt lat="47.3800" lon="8.5400"><ele>420</ele><time>2026-05-01T06:06:00Z</time></trkpt>
          </trkseg>
          <trkseg>
           <trkpt lat="47.3900" lon="8.5400"><ele>425</ele><time>2026-05-01T06:20:00Z</time></trkpt>
           <trkpt lat="47.3950" lon="8.5400"><ele>440</ele><time>2026-05-01T06:23:00Z</time></trkpt>
          </trkseg>
         </trk>
         <trk><name>Sketch</name><trkseg>
           <trkpt lat="46.0" lon="7.0"/><trkpt lat="46.01" lon="7.0"/><trkpt lat="46.02" lon="7.01"/>
         </trkseg></trk>
        </gpx>
        """

    static func folder(_ name: String) -> String { "/tmp/lodestone-import-\(name)-\(getpid())" }

    @Test func gpxFromAnotherAppComesBackAsTracks() throws {
        let tracks = try TrackImport.tracks(Self.gpx10)
        #expect(tracks.count == 2)
        let run = try #require(tracks.first), sketch = try #require(tracks.last)
        #expect(run.name == "Morning & lake" && run.notes == "from a watch" && !run.timeless && run.points.count == 5)
        #expect(run.points.map(\.startsSegment) == [false, false, false, true, false])
        #expect(run.points.first?.gpsAltitude == 410 && run.points.last?.time == CivilTime.parseISO8601("2026-05-01T06:23:00Z"))
        #expect(sketch.timeless && sketch.points.count == 3)
        // GPX 1.1 with a namespace prefix reads the same.
        let prefixed = Self.gpx10.replacingOccurrences("<trk", "<g:trk").replacingOccurrences("</trk", "</g:trk")
            .replacingOccurrences("<gpx version=\"1.0\"", "<gpx version=\"1.1\" xmlns:g=\"http://www.topografix.com/GPX/1/1\"")
        #expect(try TrackImport.tracks(prefixed).map(\.points.count) == [5, 3])
    }

    @Test func aWrongPointRefusesTheFileWithItsLine() throws {
        let badLatitude = Self.gpx10.replacingOccurrences("lat=\"47.3750\"", "lat=\"147.3750\"")
        #expect(throws: TrackImport.Failure.self) { try TrackImport.tracks(badLatitude) }
        do { _ = try TrackImport.tracks(badLatitude) } catch { #expect(error.description.hasPrefix("line 6:"), "\(error)") }
        let badTime = Self.gpx10.replacingOccurrences("2026-05-01T06:06:00Z", "yesterday")
        do { _ = try TrackImport.tracks(badTime) } catch { #expect(error.description.hasPrefix("line 7:"), "\(error)") }
        let backwards = Self.gpx10.replacingOccurrences("2026-05-01T06:06:00Z", "2026-05-01T05:00:00Z")
        #expect(throws: TrackImport.Failure.self) { try TrackImport.tracks(backwards) }
        let cut = String(Self.gpx10.prefix(400))
        #expect(throws: TrackImport.Failure.self) { try TrackImport.tracks(cut) }
    }

    /// From the outside: imported, listed, shown, exported (segments kept, no made-up times),
    /// and a refused file adds nothing.
    @Test func theCommandImportsAllOrNothing() throws {
        let directory = Self.folder("command")
        removeTree(directory)
        defer { removeTree(directory) }
        #expect(makeDirectories(directory))
        let good = directory + "/two.gpx", bad = directory + "/bad.gpx"
        #expect(writeFileAtomically(good, Array(Self.gpx10.utf8)))
        #expect(writeFileAtomically(bad, Array(Self.gpx10.replacingOccurrences("lon=\"7.01\"", "lon=\"east\"").utf8)))
        let end = EndToEndTests()
        let (refused, why) = end.finish(try end.spawn(["track", "import", bad, "--data-dir", directory]))
        #expect(refused == 1 && why.contains("line 15:") && why.contains("nothing was imported"), "\(why)")
        #expect(TrackStore(dataDirectory: directory).list().isEmpty)
        let (status, said) = end.finish(try end.spawn(["track", "import", good, "--tags", "watch", "--data-dir", directory]))
        #expect(status == 0 && said.contains("imported 20260501-060000") && said.contains("no times"), "\(said)")
        let store = TrackStore(dataDirectory: directory)
        let listed = store.list()
        #expect(listed.count == 2 && listed.allSatisfy { $0.tags == ["watch"] })
        #expect(listed.first { $0.name == "Sketch" }?.timeless == true)
        let (shown, summary) = end.finish(try end.spawn(["track", "show", "20260501-060000", "--data-dir", directory]))
        #expect(shown == 0 && summary.contains("km 1") && summary.contains("highest 440 m"), "\(summary)")
        let gpx = try #require(store.export(id: "20260501-060000", format: "gpx"))
        #expect(gpx.components("<trkseg>") == 2)
        let sketchID = try #require(listed.first { $0.name == "Sketch" }?.id)
        #expect(!(store.export(id: sketchID, format: "gpx") ?? "<time>").contains("<time>"), "a track without times is exported without them")
        // The device's own JSON comes back in as the same track.
        let json = try #require(store.export(id: "20260501-060000", format: "json"))
        let again = try TrackImport.tracks(json)
        #expect(again.count == 1 && again.first?.points.count == 5 && again.first?.points.map(\.startsSegment) == [false, false, false, true, false])
    }
}

extension String {
    /// How many times `piece` occurs.
    fileprivate func components(_ piece: String) -> Int { max(0, split(separator: piece, omittingEmptySubsequences: false).count - 1) }

    func replacingOccurrences(_ old: String, _ new: String) -> String {
        split(separator: old, omittingEmptySubsequences: false).joined(separator: new)
    }
}
