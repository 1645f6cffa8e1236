import Glibc
import LodestoneCore
import LodestoneDomain
import Testing
@testable import LodestoneStorage

/// `track import` streams: each point is written to its track file as it is parsed and the
/// statistics worked out as the points arrive, so the files it leaves are byte for byte those
/// of the tracks read whole and written through the live recording's writer; a file refused
/// half-way leaves nothing listed and no temporary; and the import's peak resident memory does
/// not grow with the file.
@Suite(.serialized) struct TrackImportStreamingTests {
    static func folder(_ name: String) -> String { "/tmp/lodestone-import-stream-\(getpid())-\(name)" }
    static let now = 1_790_000_000.0

    /// GPX files that take each path of the streamed import: two tracks (one without times),
    /// a name and notes after the points, a point without a time after timed ones, control
    /// characters and a name past 200 bytes, segments, an empty track, the same start twice.
    static var files: [String] {
        func point(_ index: Int, time: Bool = true, ele: Bool = true) -> String {
            "<trkpt lat=\"\(47 + Double(index) * 0.000137)\" lon=\"\(8.5 + Double(index % 7) * 0.00001)\">"
                + (ele ? "<ele>\(400 + Double(index % 23) * 0.7)</ele>" : "")
                + (time ? "<time>\(CivilTime(unixSeconds: 1_782_028_800 + Double(index * 3)).iso8601)</time>" : "") + "</trkpt>\n"
        }
        let open = "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\" creator=\"t\">\n"
        return [
            TrackImportTests.gpx10,
            open + "<trk><trkseg>" + (0..<300).map { point($0) }.joined() + "</trkseg><name>Named late</name><desc>notes\tlate</desc></trk></gpx>\n",
            open + "<trk><name>Mixed</name><trkseg>" + (0..<200).map { point($0, time: $0 != 150) }.joined() + "</trkseg></trk></gpx>\n",
            open + "<trk><name>" + String(repeating: "Ridge &#1; walk ", count: 20) + "</name><trkseg>" + (0..<50).map { point($0) }.joined()
                + "</trkseg><trkseg>" + (60..<120).map { point($0, ele: $0 % 3 != 0) }.joined() + "</trkseg></trk>"
                + "<trk><name>Empty</name><trkseg></trkseg></trk>"
                + "<trk><name>Same start</name><trkseg>" + (0..<40).map { point($0) }.joined() + "</trkseg></trk>"
                + "<trk><trkseg>" + (0..<30).map { point($0, time: false) }.joined() + "</trkseg></trk></gpx>\n"
        ]
    }

    /// The regular files under `directory`, by name, with their bytes.
    static func contents(_ directory: String) -> [String: [UInt8]] {
        var found: [String: [UInt8]] = [:]
        for name in directoryEntries(directory) { found[name] = (try? readStoreBytes(directory + "/" + name)) ?? [] }
        return found
    }

    @Test func aStreamedImportWritesWhatTheRecordingWriterWritesForTheTracksReadWhole() throws {
        let folder = Self.folder("same")
        removeTree(folder)
        try #require(makeDirectories(folder))
        defer { removeTree(folder) }
        for (number, text) in Self.files.enumerated() {
            let file = folder + "/\(number).gpx"
            try replaceFile(file, with: Array(text.utf8))
            try Self.compare(file, text, in: folder + "/\(number)")
        }
        // The device's own JSON export comes in the same way.
        let store = TrackStore(dataDirectory: folder + "/0/streamed")
        let json = try #require(store.export(id: "20260501-060000", format: "json"))
        try replaceFile(folder + "/again.json", with: Array(json.utf8))
        try Self.compare(folder + "/again.json", json, in: folder + "/json")
    }

    /// Imports `file` (whose text is `text`) streamed, and the same tracks read whole and
    /// written point by point by a recording, filed with the statistics of the whole list;
    /// expects the same summaries, warnings and files.
    static func compare(_ file: String, _ text: String, in folder: String) throws {
        let streamed = TrackStore(dataDirectory: folder + "/streamed")
        let imported = try streamed.importTracks(file: file, limit: 100_000_000, tags: ["trip"], now: now)
        let whole = TrackStore(dataDirectory: folder + "/whole")
        try #require(makeDirectories(whole.directory))
        var summaries: [TrackStore.Summary] = []
        let tracks = try TrackImport.tracks(text)
        for (index, track) in tracks.enumerated() {
            var points = track.points
            if track.timeless { for i in points.indices { points[i].time = now + Double(i) } }
            let extra = TrackFile.Extra(notes: track.notes, imported: true, timeless: track.timeless)
            let recording = try #require(
                TrackRecording(path: whole.directory + "/whole-\(index).track", name: track.name, started: points[0].time, tags: ["trip"], extra: extra))
            for point in points { recording.append(point, now: 0) }
            #expect(recording.flush())
            summaries.append(try #require(whole.file(recording)))
        }
        #expect(imported.map(\.summary) == summaries, "\(file)")
        #expect(imported.map(\.warnings) == tracks.map(\.warnings), "\(file)")
        #expect(imported.map(\.timeless) == tracks.map(\.timeless), "\(file)")
        let files = contents(streamed.directory)
        #expect(!files.isEmpty && files.keys.allSatisfy { !$0.hasPrefix("import-") }, "\(file): \(files.keys.sorted())")
        #expect(files == contents(whole.directory), "\(file)")
    }

    @Test func anImportRefusedHalfWayLeavesNothing() throws {
        let folder = Self.folder("refused")
        removeTree(folder)
        try #require(makeDirectories(folder))
        defer { removeTree(folder) }
        var text = "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\" creator=\"t\">\n<trk><name>First</name><trkseg>\n"
        for index in 0..<200 {
            text += "<trkpt lat=\"47.\(1000 + index)\" lon=\"8.5\"><time>\(CivilTime(unixSeconds: 1_782_028_800 + Double(index)).iso8601)</time></trkpt>\n"
        }
        text += "</trkseg></trk>\n<trk><name>Second</name><trkseg>\n"
        for index in 0..<10_000 {
            text += "<trkpt lat=\"46.\(10_000 + index)\" lon=\"8.5\"><time>\(CivilTime(unixSeconds: 1_782_128_800 + Double(index)).iso8601)</time></trkpt>\n"
        }
        let store = TrackStore(dataDirectory: folder + "/data")
        // XML broken after 10,000 points of the second track; the file cut short; a later point wrong.
        for (name, broken) in [("broken", text + "<trkpt lat=\"46\" lon=\"8\"></trk>"), ("cut", text), ("wrong", text + "<trkpt lat=\"95\" lon=\"8\"/>")] {
            try replaceFile(folder + "/\(name).gpx", with: Array(broken.utf8))
            do {
                _ = try store.importTracks(file: folder + "/\(name).gpx", limit: 100_000_000)
                Issue.record("\(name): imported")
            } catch {
                guard case .reading = error else {
                    Issue.record("\(name): \(error)")
                    continue
                }
            }
            #expect(store.list().isEmpty && directoryEntries(store.directory).isEmpty, "\(name): \(directoryEntries(store.directory))")
        }
        // Over the limit: refused before a point is written.
        try replaceFile(folder + "/whole.gpx", with: Array((text + "</trkseg></trk></gpx>\n").utf8))
        #expect(throws: TrackStore.ImportFailure.self) { try store.importTracks(file: folder + "/whole.gpx", limit: 100_000) }
        #expect(directoryEntries(store.directory).isEmpty)
        // A temporary left by an import stopped half-way is named for its process and never listed.
        #expect(try store.importTracks(file: folder + "/whole.gpx", limit: 100_000_000).map(\.summary.points) == [200, 10_000])
        #expect(StaleTemporaries.writer(of: "import-\(getpid())-0.track") == getpid())
        try replaceFile(store.directory + "/import-999999-0.track", with: Array("partial".utf8))
        #expect(store.list().count == 2)
    }

    /// Runs `lodestone track import` on a generated GPX of `points` points; its peak resident
    /// memory in kilobytes.
    static func importPeak(points: Int, folder: String) throws -> Int {
        var text = "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\" creator=\"t\">\n<trk><name>Long</name><trkseg>\n"
        text.reserveCapacity(points * 130)
        for index in 0..<points {
            text += "<trkpt lat=\"\(fixed(47 + Double(index % 20_000) * 0.00001, 7))\" lon=\"\(fixed(8 + Double(index / 20_000) * 0.001, 7))\">"
            text +=
                "<ele>\(fixed(400 + Double(index % 500) * 0.3, 1))</ele><time>\(CivilTime(unixSeconds: 1_782_028_800 + Double(index)).iso8601)</time></trkpt>\n"
        }
        text += "</trkseg></trk></gpx>\n"
        let file = folder + "/\(points).gpx"
        try replaceFile(file, with: Array(text.utf8))
        text = ""
        let end = EndToEndTests()
        let child = try end.spawn(["track", "import", file, "--data-dir", folder + "/data-\(points)"])
        // The child's own high-water mark (VmHWM), read while it runs until its output ends:
        // wait4's ru_maxrss would also count this process's, which the child shares until it
        // starts the program (posix_spawn's vfork), and which grows with the text built here.
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        var peak = 0
        while true {
            if let high = Self.highWaterKilobytes(child.pid) { peak = max(peak, high) }
            var ready = pollfd(fd: child.stdout, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 5) != 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { read(child.stdout, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            output += buffer[0..<count]
        }
        close(child.stdout)
        var status: Int32 = 0
        while waitpid(child.pid, &status, 0) < 0 && errno == EINTR {}
        let said = String(decoding: output, as: UTF8.self)
        #expect(status == 0 && said.contains("\(points) points"), "\(said)")
        unlink(file)
        return peak
    }

    /// A running process's peak resident memory so far (`VmHWM` of /proc/PID/status), kB.
    static func highWaterKilobytes(_ pid: pid_t) -> Int? {
        let fd = open("/proc/\(pid)/status", O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 8192)
        let count = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        let text = String(decoding: bytes[0..<count], as: UTF8.self)
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return nil }
        return Int(line.dropFirst(6).filter(\.isNumber))
    }

    /// Four times the points take no more memory: the points are written, never held (before,
    /// each held point cost about a quarter of a kilobyte: 75,000 more, some 19 MB).
    @Test func theImportsMemoryIsFlatInTheFilesSize() throws {
        let folder = Self.folder("memory")
        removeTree(folder)
        try #require(makeDirectories(folder))
        defer { removeTree(folder) }
        let small = try Self.importPeak(points: 25_000, folder: folder)
        let large = try Self.importPeak(points: 100_000, folder: folder)
        #expect(small > 0 && large - small < 8 * 1024, "25,000 points peaked at \(small) KB, 100,000 at \(large) KB")
    }
}
