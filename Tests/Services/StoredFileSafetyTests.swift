import Glibc
import LodestoneCore
import LodestoneDomain
import LodestoneOutputs
import LodestoneReports
import Testing
@testable import LodestoneServices
@testable import LodestoneStorage

/// Writing never replaces what is not a regular file; reading says why it stopped; a damaged
/// waypoint file is kept and what can be read from it is saved.
@Suite(.serialized) struct StoredFileSafetyTests {
    static func scratch(_ name: String) -> String {
        let directory = "/tmp/lodestone-files-\(getpid())-\(name)"
        removeTree(directory)
        _ = makeDirectories(directory)
        return directory
    }

    static func kind(_ path: String) -> mode_t {
        var status = stat()
        return lstat(path, &status) == 0 ? status.st_mode & S_IFMT : 0
    }

    @Test func onlyARegularFileIsEverReplaced() throws {
        let directory = Self.scratch("targets")
        defer { removeTree(directory) }
        // A device node (run as root, this once replaced /dev/zero), a directory, a link.
        #expect(throws: WriteFailure.self) { try replaceFile("/dev/null", with: [1, 2, 3]) }
        #expect(Self.kind("/dev/null") == S_IFCHR)
        #expect(throws: WriteFailure.self) { try replaceFile(directory, with: [1]) }
        let target = directory + "/target.txt", link = directory + "/link.txt"
        try replaceFile(target, with: Array("kept\n".utf8))
        #expect(symlink(target, link) == 0)
        do {
            try replaceFile(link, with: Array("replaced\n".utf8))
            Issue.record("a symbolic link was written through")
        } catch {
            #expect(error.description.contains("symbolic link"), "\(error)")
        }
        #expect(Self.kind(link) == S_IFLNK)
        #expect((try? readTextFile(target)) == "kept\n")
        // A regular file is replaced, and nothing is left beside it.
        try replaceFile(target, with: Array("new\n".utf8))
        #expect((try? readTextFile(target)) == "new\n")
        var leftovers = 0
        if let dir = opendir(directory) {
            while let entry = readdir(dir) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                if name.contains(".tmp") { leftovers += 1 }
            }
            closedir(dir)
        }
        #expect(leftovers == 0)
    }

    @Test func aStoreReplacedOverAndOverRefusesALinkAndRemakesItsFolder() throws {
        let directory = Self.scratch("replaced")
        defer { removeTree(directory) }
        let path = directory + "/store/history.bin"
        let file = ReplacedFile(path: path)
        // Its folder does not exist yet: a store's folder is made (owner-only).
        try file.replace { $0.append(contentsOf: "first\n".utf8) }
        try file.replace { $0.append(contentsOf: "second\n".utf8) }
        #expect((try? readTextFile(path)) == "second\n")
        var status = stat()
        #expect(lstat(directory + "/store", &status) == 0 && status.st_mode & 0o777 == 0o700)
        // A link put in the file's place is refused, and the file it points at is untouched.
        #expect(unlink(path) == 0)
        let elsewhere = directory + "/elsewhere.txt"
        try replaceFile(elsewhere, with: Array("theirs\n".utf8))
        #expect(symlink(elsewhere, path) == 0)
        #expect(throws: WriteFailure.self) { try file.replace { $0.append(contentsOf: "third\n".utf8) } }
        #expect((try? readTextFile(elsewhere)) == "theirs\n")
        // A file a user named is not given a folder that is not there.
        #expect(throws: WriteFailure.self) { try replaceFile(directory + "/missing/out.txt", with: [1]) }
        #expect(!fileExists(directory + "/missing"))
    }

    @Test func aFileTooLargeIsSaidToBeTooLarge() throws {
        let directory = Self.scratch("large")
        defer { removeTree(directory) }
        // A sparse regular file of 2 MiB: too large, said as such (a device is refused before
        // any read, see StoreTakeoverTests).
        let path = directory + "/large.json"
        let fd = open(path, O_WRONLY | O_CREAT, 0o600)
        try #require(fd >= 0)
        try #require(ftruncate(fd, 2 << 20) == 0)
        close(fd)
        do {
            _ = try readTextFile(path, limit: 1 << 20)
            Issue.record("an endless file was read")
        } catch {
            #expect(error.limit == 1 << 20)
            #expect(error.description.contains("larger than 1 MiB"), "\(error)")
        }
    }

    @Test func aDamagedWaypointFileIsKeptAndWhatIsReadableIsSaved() throws {
        let directory = Self.scratch("waypoints")
        defer { removeTree(directory) }
        let store = WaypointStore(dataDirectory: directory)
        for (index, name) in ["Hut", "Spring", "Summit"].enumerated() {
            try store.add(
                Waypoint(
                    name: name, latitude: 46 + Double(index) * 0.01, longitude: 8, elevation: .nan, symbol: "Flag",
                    notes: "", created: 1_782_028_800))
        }
        // One byte of damage in the second waypoint's line.
        let original = try readTextFile(store.path)
        var lines = original.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        try #require(lines.count >= 3 && lines[1].contains("Spring"))
        lines[1] = String(lines[1].dropFirst(3))
        let damaged = lines.joined(separator: "\n")
        try replaceFile(store.path, with: Array(damaged.utf8))

        let (waypoints, warning) = store.loadReporting()
        #expect(waypoints.map(\.name) == ["Hut", "Summit"])
        let message = try #require(warning)
        #expect(message.contains(store.path) && message.contains("2 waypoints recovered"), "\(message)")
        // The damaged file is kept aside, under the name the warning gives.
        let aside = try #require(message.split(separator: " ").last.map(String.init))
        #expect((try? readTextFile(aside)) == damaged, "\(aside)")
        // Adding one more keeps what was recovered.
        try store.add(Waypoint(name: "Lake", latitude: 46.1, longitude: 8.1, elevation: .nan, symbol: "Flag", notes: "", created: 0))
        #expect(store.load().map(\.name).sorted() == ["Hut", "Lake", "Summit"])
    }

    @Test func aDamagedWaypointFileThatCannotBeSetAsideIsNeverWrittenOver() throws {
        let directory = Self.scratch("readonly")
        defer { chmod(directory, 0o755); removeTree(directory) }
        let store = WaypointStore(dataDirectory: directory)
        try replaceFile(store.path, with: Array("[{\"name\":\"Hut\",\"lat\":46,\"lon\":8}\n,{\"name\":\"Sp".utf8))
        guard geteuid() != 0 else {
            print("skipped the read-only half: root writes into a read-only folder anyway")
            return
        }
        chmod(directory, 0o555)
        let (waypoints, warning) = store.loadReporting()
        #expect(waypoints.map(\.name) == ["Hut"])
        #expect(warning?.contains("cannot be set aside") == true, "\(warning ?? "no warning")")
        #expect(throws: WaypointStore.Failure.self) {
            try store.add(Waypoint(name: "Lake", latitude: 46.1, longitude: 8.1, elevation: .nan, symbol: "Flag", notes: "", created: 0))
        }
        #expect((try? readTextFile(store.path))?.contains("\"Sp") == true, "the damaged file is untouched")
    }
}

/// Ids and the person's settings: nothing started in the same second shares a file, and a
/// damaged alert settings file is said and kept.
@Suite(.serialized) struct SessionAndSettingsFileTests {
    @Test func twoLogSessionsInOneSecondGetTheirOwnFolders() throws {
        let directory = StoredFileSafetyTests.scratch("logs")
        defer { removeTree(directory) }
        let service = LogService(store: LogStore(dataDirectory: directory))
        let time = 1_782_028_800.0
        let first = GPSDReports.line(service.handle(.start(interval: 10, streams: LogRequest.defaultStreams, duration: nil), time: time))
        _ = service.handle(.stop, time: time + 0.2)
        let second = GPSDReports.line(service.handle(.start(interval: 10, streams: LogRequest.defaultStreams, duration: nil), time: time + 0.4))
        _ = service.handle(.stop, time: time + 0.6)
        #expect(first.contains("\"id\":\"20260621-080000\""), "\(first)")
        #expect(second.contains("\"id\":\"20260621-080000-2\""), "\(second)")
    }

    @Test func aDamagedAlertSettingsFileIsKeptAsideAndTheStandardRulesStand() throws {
        let directory = StoredFileSafetyTests.scratch("alerts")
        defer { removeTree(directory) }
        let path = directory + "/alerts.json"
        let damaged = "[{\"name\":\"pressureLow\",\"threshold\":99"
        try replaceFile(path, with: Array(damaged.utf8))
        let service = AlertService(dataDirectory: directory, now: 1_782_028_800)
        #expect(service.rules.rule(.pressureLow)?.threshold == AlertRules.Rule.standard(.pressureLow).threshold)
        #expect(!fileExists(path))
        #expect((try? readTextFile(path + ".damaged-20260621-080000")) == damaged)
    }
}

/// Damage shown to the person, and what is intact kept: tracks and snapshots.
@Suite(.serialized) struct DamagedRecordingTests {
    static func line(_ body: String) -> String {
        var sum: UInt8 = 0
        for byte in body.utf8 { sum ^= byte }
        let digits = Array("0123456789ABCDEF")
        return body + "*" + String(digits[Int(sum >> 4)]) + String(digits[Int(sum & 15)]) + "\n"
    }

    @Test func aTrackWithADamagedHeaderAndALineIsShownAndListed() throws {
        let directory = StoredFileSafetyTests.scratch("tracks")
        defer { removeTree(directory) }
        _ = makeDirectories(directory + "/tracks")
        var text = "# lodestXXX damaged header\n"
        for second in 0..<4 {
            text += Self.line("\(1_782_028_801 + second).0,47.\(3769 + second),8.5417,408.2,410.1,965.12,1.35,4.0")
        }
        text += "1782028805.0,47.3773,8.5417,408.2,410.1,965.12,1.35,4.0*00\n"  // a bad checksum
        try replaceFile(directory + "/tracks/20260621-080001.track", with: Array(text.utf8))
        let store = TrackStore(dataDirectory: directory)
        let loaded = try #require(store.loadReporting(id: "20260621-080001"), "a damaged header is not 'no track'")
        #expect(loaded.points.count == 4)
        let warning = try #require(loaded.warning)
        #expect(warning.contains("header is damaged") && warning.contains("2 damaged or torn lines"), "\(warning)")
        // No summary was written: the track is listed all the same, and that is said.
        let (summaries, warnings) = store.listReporting()
        #expect(summaries.map(\.id) == ["20260621-080001"])
        #expect(summaries.first?.points == 4)
        #expect(warnings.count == 1 && warnings.first?.contains("rebuilt") == true, "\(warnings)")
    }

    @Test func aSnapshotCutShortIsNamedNotHidden() throws {
        let directory = StoredFileSafetyTests.scratch("snapshots")
        defer { removeTree(directory) }
        _ = makeDirectories(directory + "/snapshots")
        try replaceFile(directory + "/snapshots/a.json", with: Array(#"{"id":"a","timestamp":"2026-06-21T08:00:00Z"}"#.utf8))
        try replaceFile(directory + "/snapshots/b.json", with: Array(#"{"id":"b","timest"#.utf8))
        let (snapshots, warnings) = SnapshotStore(dataDirectory: directory).listReporting()
        #expect(snapshots.map(\.id) == ["a"])
        #expect(warnings.count == 1 && warnings.first?.contains("b.json") == true, "\(warnings)")
        #expect(fileExists(directory + "/snapshots/b.json"), "left as it is")
    }
}
