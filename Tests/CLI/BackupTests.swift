import Glibc
import LodestoneCore
import LodestoneDomain
import LodestoneOutputs
@testable import LodestoneRuntime
import Testing
@testable import LodestoneEncoding
@testable import LodestoneServices
@testable import LodestoneStorage

/// A backup that restores: `export-all` carries every store, `import-all` checks the whole
/// archive before it changes anything and merges by id.
@Suite(.serialized) struct BackupTests {
    static let started = 1_782_028_800.0

    /// A data directory with something in every store a list command shows: two tracks, two
    /// waypoints, a logging session (a folder of segments), two snapshots, a day of history, two
    /// alerts, a calibration and the device's memory.
    static func fullDirectory(_ tag: String) throws -> String {
        let directory = "/tmp/lodestone-backup-\(tag)-\(getpid())"
        removeTree(directory)
        let tracks = TrackStore(dataDirectory: directory)
        #expect(makeDirectories(tracks.directory))
        for (index, name) in ["Ridge", "Lake"].enumerated() {
            let start = started + Double(index) * 3600
            let recording = try #require(TrackRecording(path: tracks.recordingPath, name: name, started: start, tags: ["hike"]))
            for t in 0..<30 {
                recording.append(
                    TrackPoint(
                        time: start + Double(t) * 5, latitude: 47 + Double(t) * 2e-4, longitude: 8 + Double(index) * 0.01,
                        gpsAltitude: 408 + Double(t), baroAltitude: .nan, pressure: 965.1, speed: 1.4, accuracy: 4),
                    now: UInt64(t) * 5_000_000_000)
            }
            #expect(tracks.file(recording) != nil)
        }
        let waypoints = WaypointStore(dataDirectory: directory)
        try waypoints.add(Waypoint(name: "Hut", latitude: 46.5, longitude: 7.9))
        try waypoints.add(Waypoint(name: "Spring", latitude: 46.51, longitude: 7.91))
        let logs = LogStore(dataDirectory: directory)
        let session = try LogSession(
            id: "20260621-080000", logsDirectory: logs.directory, fields: ["pressure", "temperature"],
            interval: 1, started: started, duration: nil, limitBytes: 100 << 20)
        for second in 0..<10 { _ = session.write(["pressure": 1013 + Double(second) / 10, "temperature": 18.5], time: started + Double(second)) }
        session.close(now: started + 10)
        let snapshots = SnapshotStore(dataDirectory: directory)
        for offset in [0.0, 60] {
            var snapshot = Snapshot(id: snapshots.newID(time: started + offset), timestamp: started + offset, name: "Col \(Int(offset))", notes: "")
            (snapshot.latitude, snapshot.longitude, snapshot.pressure) = (46.0, 7.0, 795.2 + offset / 100)
            try snapshots.save(snapshot)
        }
        let history = HistoryService(dataDirectory: directory)
        for minute in 0..<(24 * 60) { history.add("pressure", 1000 + Double(minute % 90) / 10, time: started + Double(minute) * 60) }
        history.save(time: started + 86_400, force: true)
        let alerts = try RecordLog(path: directory + "/alerts.rec", now: started)
        for (minute, message) in [(10, "pressure falling fast"), (70, "altitude above 2000 m")] {
            try alerts.append(Array(#"{"class":"EVENT","time":"2026-06-21T08:\#(minute % 60):00.000Z","message":"\#(message)"}"#.utf8), now: started)
        }
        alerts.flush(now: started)
        #expect(makeDirectories(directory + "/calibration"))
        #expect(writeFileAtomically(directory + "/calibration/level.json", Array(#"{"roll":0.5,"pitch":-0.2}"#.utf8)))
        #expect(writeFileAtomically(directory + "/last-position.json", Array(#"{"latitude":46.5,"longitude":7.9,"time":1782028800}"#.utf8)))
        #expect(writeFileAtomically(directory + "/timetable-marks.csv", Array("12,Panta Rhei,5\n".utf8)))
        return directory
    }

    /// What every list command prints for a data directory.
    static func listings(_ directory: String) throws -> [String] {
        let end = EndToEndTests()
        var out: [String] = []
        for command in [
            ["track", "list"], ["waypoint", "list", "--lat", "46.5", "--lon", "7.9"], ["log", "list"], ["snapshot", "list"],
            ["history", "--stream", "pressure", "--range", "24h"], ["alert", "history"]
        ] {
            let (status, said) = end.finish(try end.spawn(command + ["--data-dir", directory]))
            out.append("\(command.joined(separator: " ")) -> \(status)\n\(said)")
        }
        return out
    }

    /// Every file under a directory, with its bytes: "byte for byte unchanged" made checkable.
    static func tree(_ path: String, under prefix: String = "") -> [String: [UInt8]] {
        var result: [String: [UInt8]] = [:]
        // The data directory's lock holds the id of the last process that took it, not data.
        for name in directoryEntries(path) where !(prefix.isEmpty && name == ".lock") {
            var status = stat()
            guard lstat(path + "/" + name, &status) == 0 else { continue }
            if status.st_mode & S_IFMT == S_IFDIR {
                result.merge(tree(path + "/" + name, under: prefix + name + "/")) { a, _ in a }
                result[prefix + name + "/"] = []
            } else {
                result[prefix + name] = readFileBytes(path + "/" + name) ?? [0xFF]
            }
        }
        return result
    }

    @Test func exportForgetImportListsWhatWasListedBefore() throws {
        let directory = try Self.fullDirectory("roundtrip")
        defer { removeTree(directory) }
        let archive = directory + ".tar"
        defer { unlink(archive) }
        let before = try Self.listings(directory)
        #expect(before[0].contains("Ridge") && before[2].contains("20260621-080000") && before[5].contains("pressure falling fast"), "\(before)")
        let end = EndToEndTests()
        let socket = directory + "-none.sock"
        let (exported, said) = end.finish(try end.spawn(["export-all", "--out", archive, "--data-dir", directory]))
        #expect(exported == 0 && said.contains("2 tracks, 2 waypoints, 1 log sessions"), "\(said)")
        let (forgot, _) = end.finish(try end.spawn(["forget-all", "--yes", "--data-dir", directory, "--socket", socket]))
        #expect(forgot == 0)
        #expect(try Self.listings(directory) != before, "forget-all took the records")
        let (imported, summary) = end.finish(try end.spawn(["import-all", archive, "--json", "--data-dir", directory, "--socket", socket]))
        #expect(imported == 0, "\(summary)")
        let json = try JSONValue.parse(summary.split(separator: "\n").last.map(String.init) ?? "")
        #expect(json["mode"]?.stringValue == "merge" && json["renamed"]?.arrayValue?.isEmpty == true)
        let importedItems = json["imported"]?.arrayValue?.compactMap(\.stringValue) ?? []
        for item in ["logs/20260621-080000", "waypoints.json", "history.bin", "alerts.rec"] { #expect(importedItems.contains(item), "\(item) in \(summary)") }
        let after = try Self.listings(directory)
        for (was, now) in zip(before, after) { #expect(was == now) }
        // A second import of the same archive adds nothing.
        let treeBefore = Self.tree(directory)
        let (again, said2) = end.finish(try end.spawn(["import-all", archive, "--data-dir", directory, "--socket", socket]))
        #expect(again == 0 && said2.contains("imported 0 items, 0 under new ids"), "\(said2)")
        #expect(Self.tree(directory) == treeBefore)
    }

    /// The damage an archive can come with: each is refused with what is wrong, and the data
    /// directory is left byte for byte as it was.
    @Test func aDamagedArchiveLeavesTheDataDirectoryUntouched() throws {
        let source = try Self.fullDirectory("damage-source")
        defer { removeTree(source) }
        let good = PersonalData.archive(dataDirectory: source, now: Self.started).bytes
        let target = "/tmp/lodestone-backup-damage-target-\(getpid())"
        removeTree(target)
        defer { removeTree(target) }
        #expect(makeDirectories(target + "/tracks"))
        #expect(writeFileAtomically(target + "/waypoints.json", Array(#"[{"name":"Home","lat":47,"lon":8}]"#.utf8)))
        #expect(writeFileAtomically(target + "/tracks/keep.txt", Array("mine".utf8)))
        let untouched = Self.tree(target)
        let entries = try TarReader.entries(ArchiveBytes(good))
        let track = try #require(entries.first { $0.name.hasSuffix(".track") })

        var flipped = good
        flipped[track.offset + track.size / 2] ^= 0x20
        var flippedHeader = good
        flippedHeader[track.offset - 512 + 3] ^= 0x01
        let manifestFirst = try #require(entries.first)
        let manifestBytes = Array(good[manifestFirst.offset..<manifestFirst.offset + manifestFirst.size])
        func archive(_ files: [(String, [UInt8])], manifest: [UInt8]? = nil, link: String? = nil) -> [UInt8] {
            var tar = TarArchive()
            tar.add("manifest.json", manifest ?? manifestBytes, modified: Self.started)
            for (name, bytes) in files { tar.add(name, bytes, modified: Self.started) }
            var bytes = tar.finished
            if let link { bytes.replaceSubrange(bytes.count - 1024..<bytes.count, with: Self.linkHeader(link) + [UInt8](repeating: 0, count: 1024)) }
            return bytes
        }
        let stored = entries.dropFirst().map { ($0.name, Array(good[$0.offset..<$0.offset + $0.size])) }
        let cases: [(String, [UInt8], String)] = [
            ("truncated", Array(good.prefix(good.count / 2)), "cut short"),
            ("a flipped byte in a file", flipped, "SHA-256"),
            ("a flipped byte in a header", flippedHeader, "checksum"),
            ("an entry missing", archive(Array(stored.dropLast())), "missing from the archive"),
            ("an entry extra", archive(stored + [("snapshots/20990101-000000.json", Array("{}".utf8))]), "not in its manifest"),
            ("a path escaping the data directory", archive(stored + [("../x", Array("x".utf8))]), "reaches out"),
            ("an absolute path", archive(stored + [("/tmp/x", Array("x".utf8))]), "reaches out"),
            ("a link entry", archive(stored, link: "tracks/evil.track"), "link"),
            ("bytes after the end", good + Array("more".utf8), "after the archive's end"),
            ("no manifest first", Array(archive(stored).dropFirst(512 + (manifestBytes.count + 511) / 512 * 512)), "manifest")
        ]
        let end = EndToEndTests()
        for (what, bytes, reason) in cases {
            let path = target + "-\(what.split(separator: " ").joined(separator: "-")).tar"
            defer { unlink(path) }
            #expect(writeFileAtomically(path, bytes))
            let (status, said) = end.finish(try end.spawn(["import-all", path, "--replace", "--data-dir", target, "--socket", target + "-none.sock"]))
            #expect(status == 1 && said.contains(reason) && said.contains("nothing was changed"), "\(what): \(said)")
            #expect(Self.tree(target) == untouched, "\(what) changed the data directory")
        }
    }

    /// A ustar header of a symbolic link, its checksum right.
    static func linkHeader(_ name: String) -> [UInt8] {
        var tar = TarArchive()
        tar.add(name, [], modified: started)
        var header = Array(tar.bytes.prefix(512))
        header[156] = UInt8(ascii: "2")
        for (index, byte) in "/etc/passwd".utf8.enumerated() { header[157 + index] = byte }
        for index in 148..<156 { header[index] = 0x20 }
        let digits = Array(String(header.reduce(0) { $0 + Int($1) }, radix: 8).utf8)
        let padded = [UInt8](repeating: 0x30, count: 6 - digits.count) + digits
        for (index, byte) in padded.enumerated() { header[148 + index] = byte }
        header[154] = 0
        return header
    }

    /// A different item under a taken id is kept under a new id, never over the one here; the
    /// same item is not added twice.
    @Test func mergeKeepsAConflictingItemUnderANewID() throws {
        let directory = try Self.fullDirectory("merge")
        defer { removeTree(directory) }
        let archive = directory + ".tar"
        defer { unlink(archive) }
        #expect(writeFileAtomically(archive, PersonalData.archive(dataDirectory: directory, now: Self.started).bytes))
        let tracks = TrackStore(dataDirectory: directory)
        let id = try #require(tracks.list(TrackStore.Query(order: .oldest)).first?.id)
        _ = try tracks.edit(id: id, name: "Ridge, my own", notes: nil)
        let snapshots = SnapshotStore(dataDirectory: directory)
        let snapshotID = try #require(snapshots.listReporting().snapshots.first?.id)
        var changed = try #require(snapshots.load(id: snapshotID))
        changed.name = "changed here"
        try snapshots.save(changed)
        let mineTrack = readFileBytes(tracks.directory + "/" + id + ".json")
        let mineSnapshot = readFileBytes(snapshots.directory + "/" + snapshotID + ".json")

        let end = EndToEndTests()
        let socket = directory + "-none.sock"
        let (status, said) = end.finish(try end.spawn(["import-all", archive, "--json", "--data-dir", directory, "--socket", socket]))
        #expect(status == 0, "\(said)")
        let json = try JSONValue.parse(said.split(separator: "\n").last.map(String.init) ?? "")
        let renamed = json["renamed"]?.arrayValue?.compactMap { $0["to"]?.stringValue } ?? []
        #expect(renamed.sorted() == ["snapshots/\(snapshotID)-2", "tracks/\(id)-2"], "\(said)")
        #expect(readFileBytes(tracks.directory + "/" + id + ".json") == mineTrack, "the track here is not overwritten")
        #expect(readFileBytes(snapshots.directory + "/" + snapshotID + ".json") == mineSnapshot)
        let restored = try tracks.summary(id: id + "-2")
        #expect(restored.name == "Ridge" && tracks.load(id: id + "-2")?.points.count == 30)
        #expect(snapshots.load(id: snapshotID + "-2")?.name == "Col 0")

        // Again: everything is there already, under its own id or the one given before.
        let treeBefore = Self.tree(directory)
        let (again, said2) = end.finish(try end.spawn(["import-all", archive, "--json", "--data-dir", directory, "--socket", socket]))
        let json2 = try JSONValue.parse(said2.split(separator: "\n").last.map(String.init) ?? "")
        #expect(again == 0 && json2["renamed"]?.arrayValue?.isEmpty == true && json2["imported"]?.arrayValue?.isEmpty == true, "\(said2)")
        #expect(Self.tree(directory) == treeBefore)
    }

    /// A recording in the archive beside a different one in progress here is filed as a stopped
    /// track under its start's id; the one here goes on recording untouched.
    @Test func aRecordingBesideAnotherIsFiledUnderItsStart() throws {
        let directory = try Self.fullDirectory("recording")
        defer { removeTree(directory) }
        let tracks = TrackStore(dataDirectory: directory)
        func record(_ name: String, _ start: Double) throws {
            unlink(tracks.recordingPath)
            let recording = try #require(TrackRecording(path: tracks.recordingPath, name: name, started: start))
            for t in 0..<12 {
                recording.append(
                    TrackPoint(
                        time: start + Double(t) * 5, latitude: 46 + Double(t) * 3e-4, longitude: 7, gpsAltitude: 500,
                        baroAltitude: .nan, pressure: 950, speed: 1.2, accuracy: 4), now: UInt64(t) * 5_000_000_000)
            }
            recording.sync()
        }
        try record("Evening walk", Self.started + 36_000)
        let archive = directory + ".tar"
        defer { unlink(archive) }
        #expect(writeFileAtomically(archive, PersonalData.archive(dataDirectory: directory, now: Self.started).bytes))
        try record("Morning run", Self.started + 86_400)
        let mine = readFileBytes(tracks.recordingPath)
        let end = EndToEndTests()
        let (status, said) = end.finish(try end.spawn(["import-all", archive, "--json", "--data-dir", directory, "--socket", directory + "-none.sock"]))
        let json = try JSONValue.parse(said.split(separator: "\n").last.map(String.init) ?? "")
        let filed = TrackStore.id(started: Self.started + 36_000)
        #expect(status == 0 && json["renamed"]?.arrayValue?.first?["to"]?.stringValue == "tracks/" + filed, "\(said)")
        #expect(try tracks.summary(id: filed).name == "Evening walk" && tracks.load(id: filed)?.points.count == 12)
        #expect(readFileBytes(tracks.recordingPath) == mine, "the recording here is untouched")
    }

    /// Replace makes the stores the archive's: an item the archive lacks goes.
    @Test func replaceMakesTheStoresTheArchives() throws {
        let directory = try Self.fullDirectory("replace")
        defer { removeTree(directory) }
        let archive = directory + ".tar"
        defer { unlink(archive) }
        #expect(writeFileAtomically(archive, PersonalData.archive(dataDirectory: directory, now: Self.started).bytes))
        let expected = Self.tree(directory)
        let snapshots = SnapshotStore(dataDirectory: directory)
        var extra = Snapshot(id: "20990101-000000", timestamp: 4_070_908_800, name: "later", notes: "")
        extra.pressure = 1000
        try snapshots.save(extra)
        #expect(writeFileAtomically(directory + "/calibration/level.json", Array(#"{"roll":9,"pitch":9}"#.utf8)))
        let end = EndToEndTests()
        let (status, said) = end.finish(try end.spawn(["import-all", archive, "--replace", "--data-dir", directory, "--socket", directory + "-none.sock"]))
        #expect(status == 0 && said.contains("1 removed"), "\(said)")
        #expect(Self.tree(directory) == expected)
    }

    @Test func theManifestListsEveryFileWithSizeAndDigest() throws {
        let directory = try Self.fullDirectory("manifest")
        defer { removeTree(directory) }
        let bytes = PersonalData.archive(dataDirectory: directory, now: Self.started).bytes
        let backup = try CheckedBackup(ArchiveBytes(bytes))
        let paths = backup.manifest.files.map(\.path)
        for path in [
            "waypoints.json", "logs/20260621-080000/0001.rec", "history.bin", "alerts.rec", "calibration/level.json",
            "last-position.json", "timetable-marks.csv", "gpx/waypoints.gpx"
        ] {
            #expect(paths.contains(path), "\(path) in \(paths)")
        }
        #expect(paths.filter { $0.hasPrefix("tracks/") }.count == 4 && paths.filter { $0.hasPrefix("snapshots/") }.count == 2)
        for file in backup.manifest.files where !file.path.hasPrefix("gpx/") {
            #expect(readFileBytes(directory + "/" + file.path).map { SHA256.hex($0) } == file.sha256, "\(file.path)")
        }
    }
}
