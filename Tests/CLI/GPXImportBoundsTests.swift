import Glibc
import LodestoneCore
import Testing
@testable import LodestoneStorage

/// `track import` within bounds: the file read in pieces as it is parsed (the same tracks
/// whatever the pieces, never the whole file held), a file over tracks.importMaxMB refused,
/// a name past 200 bytes cut and control characters taken out, each said.
@Suite(.serialized) struct GPXImportBoundsTests {
    static func folder(_ name: String) -> String { "/tmp/lodestone-gpx-bounds-\(getpid())-\(name)" }

    /// A GPX file whose track's name is `name` (XML text), with `points` points and `padding`
    /// bytes of a comment and an extension between each (what apps write beside the points).
    static func gpx(name: String = "Ridge", points: Int = 3, padding: Int = 0) -> String {
        var text = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n<gpx version=\"1.1\" creator=\"t\">\n <trk><name>\(name)</name><trkseg>\n"
        let pad = String(repeating: "x", count: padding)
        for index in 0..<points {
            let latitude = 47.0 + Double(index) * 0.0001
            text += "  <trkpt lat=\"\(latitude)\" lon=\"8.5\"><ele>410</ele><time>\(CivilTime(unixSeconds: 1_782_028_800 + Double(index)).iso8601)</time>"
            if padding > 0 { text += "<!-- \(pad) --><extensions><note>\(pad) &amp; é</note></extensions>" }
            text += "</trkpt>\n"
        }
        return text + " </trkseg></trk>\n</gpx>\n"
    }

    /// The tracks of `text` fed `piece` bytes at a time, as text for comparing, and the most
    /// the reader held at once.
    static func read(_ text: String, piece: Int) -> (tracks: String, held: Int) {
        let bytes = Array(text.utf8)
        var scanner = GPXScanner()
        var events: [String] = []
        do {
            let handle = { (event: GPXReader.Event) throws(GPXReader.Failure) -> Void in
                switch event {
                case .open(let name, let attributes, let selfClosing, let line):
                    // The attributes in a fixed order (a dictionary's own differs from run to run).
                    events.append("open(\(name), \(attributes.sorted { $0.key < $1.key }), \(selfClosing), \(line))")
                default: events.append("\(event)")
                }
            }
            try scanner.scan(bytes, inPiecesOf: piece, handle)
        } catch {
            events.append("refused: \(error.description)")
        }
        // Text may come in more parts when a piece ends inside it: compared joined.
        var joined: [String] = []
        for event in events {
            if event.hasPrefix("text("), let last = joined.last, last.hasPrefix("text(") {
                joined[joined.count - 1] = last + event
            } else {
                joined.append(event)
            }
        }
        return (joined.joined(separator: "\n"), scanner.largestHeld)
    }

    @Test func anyPiecesReadTheSameAsTheWhole() {
        let text = """
            <?xml version="1.0"?><!DOCTYPE gpx><gpx><!-- a comment > with a bracket -->
            <trk><name>Caf&#xE9; &amp; <![CDATA[<lake>]]> ü</name><trkseg>
            <trkpt lat='47.1' lon="8.2"><time>2026-06-21T08:00:00Z</time></trkpt><trkpt lat="47.2" lon="8.2"/>
            </trkseg></trk></gpx>
            """
        let whole = Self.read(text, piece: 1 << 20).tracks
        #expect(whole.contains("Caf") && !whole.contains("refused"), "\(whole)")
        for piece in [1, 2, 3, 7, 9, 64] {
            #expect(Self.read(text, piece: piece).tracks == whole, "pieces of \(piece)")
        }
        // A file cut short is refused the same way, however it arrives.
        let cut = String(text.dropLast(30))
        let refused = Self.read(cut, piece: 1 << 20).tracks
        #expect(refused.contains("refused"), "\(refused)")
        for piece in [1, 5, 64] { #expect(Self.read(cut, piece: piece).tracks == refused, "cut, pieces of \(piece)") }
    }

    @Test func theReaderHoldsAPieceNotTheFile() {
        // About 8 MB of points with padding beside them, read in 64 KiB pieces.
        let text = Self.gpx(points: 8000, padding: 1000)
        #expect(text.utf8.count > 8_000_000)
        let read = Self.read(text, piece: 64 << 10)
        #expect(!read.tracks.contains("refused"))
        #expect(read.held < 70 << 10, "held \(read.held) bytes at once")
        // A construct larger than any GPX writer makes is refused rather than held.
        let hostile = "<gpx><!--" + String(repeating: "-", count: GPXScanner.largestConstruct + 10)
        #expect(Self.read(hostile, piece: 64 << 10).tracks.contains("longer than 4 MiB"))
    }

    @Test func aFileOverTheSettingIsRefusedUnread() throws {
        let folder = Self.folder("limit")
        removeTree(folder)
        try #require(makeDirectories(folder))
        defer { removeTree(folder) }
        let file = folder + "/big.gpx"
        try replaceFile(file, with: Array(Self.gpx(points: 2000, padding: 600).utf8))
        do {
            _ = try TrackImport.tracks(file: file, limit: 1_000_000)
            Issue.record("a file over the limit was read")
        } catch {
            #expect(error.description.contains("more than tracks.importMaxMB allows (1 MB)"), "\(error.description)")
        }
        #expect(try TrackImport.tracks(file: file, limit: 100_000_000).first?.points.count == 2000)
        // The setting, from the configuration file given.
        try replaceFile(folder + "/lodestone.json", with: Array(#"{"tracks": {"importMaxMB": 1}}"#.utf8))
        let end = EndToEndTests()
        let (status, output) = end.finish(
            try end.spawn(["track", "import", file, "--config", folder + "/lodestone.json", "--data-dir", folder + "/data"]))
        #expect(status == 1 && output.contains("more than tracks.importMaxMB allows") && output.contains("nothing was imported"), "\(output)")
        #expect(TrackStore(dataDirectory: folder + "/data").list().isEmpty)
    }

    @Test func aLongNameIsCutAndControlsAreTakenOutSaidEachTime() throws {
        let folder = Self.folder("names")
        removeTree(folder)
        try #require(makeDirectories(folder))
        defer { removeTree(folder) }
        // 329 bytes once the space at its end is trimmed, as every name is.
        let long = String(repeating: "Long ridge ", count: 30)
        try replaceFile(folder + "/long.gpx", with: Array(Self.gpx(name: long).utf8))
        // A NUL as a character reference, an escape and a bell as they are, a line break.
        try replaceFile(folder + "/controls.gpx", with: Array(Self.gpx(name: "Lake&#0;\u{1B}[2Jwalk\u{07}\nevening").utf8))
        let end = EndToEndTests()
        for name in ["long", "controls"] {
            let (status, output) = end.finish(try end.spawn(["track", "import", folder + "/\(name).gpx", "--data-dir", folder + "/data"]))
            #expect(status == 0, "\(output)")
            #expect(
                output.contains(
                    name == "long" ? "the track's name is 329 bytes long: cut to its first 200" : "3 control characters removed from the track's name"),
                "\(output)")
        }
        let names = TrackStore(dataDirectory: folder + "/data").list().map(\.name).sorted()
        #expect(names == ["Lake[2Jwalk evening", String(long.prefix(200))], "\(names)")
    }
}
