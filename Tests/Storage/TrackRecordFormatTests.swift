import Glibc
import LodestoneCore
import LodestoneDomain
import Testing
@testable import LodestoneStorage

/// Tracks on the record log: a flipped bit costs one frame, never the points after it, and a
/// recording an older version left as text is continued as records.
@Suite struct TrackRecordFormatTests {
    static func point(_ t: Double) -> TrackPoint {
        TrackPoint(
            time: 1_782_028_800 + t, latitude: 47 + t * 1e-5, longitude: 8, gpsAltitude: 408, baroAltitude: .nan,
            pressure: 965.1, speed: 1.4, accuracy: 4)
    }

    static func scratch(_ name: String) -> String { "/tmp/lodestone-trackrecords-\(getpid())-\(name)" }

    @Test func aCorruptHeaderOrPointLosesOnlyItself() throws {
        let path = Self.scratch("corrupt")
        unlink(path)
        defer { unlink(path) }
        do {
            let recording = try #require(TrackRecording(path: path, name: "Ridge", started: 1_782_028_800, tags: ["hike"]))
            for t in 0..<5 { recording.append(Self.point(Double(t)), now: UInt64(t) * 1_000_000_000) }
            #expect(recording.flush())
        }
        let bytes = try #require(readFileBytes(path))
        #expect(bytes.first == RecordLog.sync.first, "written as records")
        let whole = try #require(TrackFile.parse(bytes))
        #expect(whole.name == "Ridge" && whole.tags == ["hike"] && whole.points.count == 5 && whole.skipped == 0)
        #expect(whole.points.first == Self.point(0) || whole.points.first?.baroAltitude.isNaN == true)
        // A byte of the header flipped: the name is lost, every point kept.
        var header = bytes
        header[12] ^= 0x20
        let headless = try #require(TrackFile.parse(header))
        #expect(headless.headerDamaged && headless.points.count == 5)
        // A byte of the third point flipped: that point alone is lost.
        let headerLength = TrackFile.header(name: "Ridge", started: 1_782_028_800, tags: ["hike"]).utf8.count + 10
        let pointLength = TrackFile.body(Self.point(0)).utf8.count + 10
        var middle = bytes
        let offset = headerLength + 2 * pointLength + 12
        try #require(middle.indices.contains(offset))
        middle[offset] ^= 0x01
        let holed = try #require(TrackFile.parse(middle))
        #expect(!holed.headerDamaged && holed.skipped == 1)
        #expect(holed.points.map(\.time) == [0, 1, 3, 4].map { 1_782_028_800 + $0 })
    }

    @Test func aTextRecordingFromAnEarlierVersionIsContinuedAsRecords() throws {
        let path = Self.scratch("legacy")
        unlink(path)
        defer { unlink(path) }
        let text =
            TrackFile.magic + " name=Old walk started=1782028800 tags=alps\n"
            + (0..<3).map { TrackFile.line(Self.point(Double($0))) }.joined()
        #expect(writeFileAtomically(path, Array(text.utf8)))
        let recording = try #require(TrackRecording(recovering: path))
        #expect(recording.name == "Old walk" && recording.tags == ["alps"] && recording.points.count == 3)
        recording.append(Self.point(3), now: 0)
        #expect(recording.flush())
        let bytes = try #require(readFileBytes(path))
        #expect(bytes.first == RecordLog.sync.first, "converted to records")
        let parsed = try #require(TrackFile.parse(bytes))
        #expect(parsed.name == "Old walk" && parsed.points.count == 4 && parsed.skipped == 0)
    }
}
