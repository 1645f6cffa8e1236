import Glibc
import LodestoneBench
import LodestoneCore
import LodestoneDomain
import LodestoneEncoding
import Testing
@testable import LodestoneStorage

/// Every store stopped at every step of its writing: the debug binary, given
/// `LODESTONE_CRASH_AT_WRITE=N`, ends (`_exit(86)`, like a kill -9) just before its Nth write,
/// fsync or rename; for N = 1, 2, 3... until the operation completes without reaching N, the
/// store must then be found (after the next start's recovery, or by its own reader) as it
/// was before or as it is after, never mixed nor unreadable.
@Suite(.serialized) struct CrashAtEveryWriteTests {
    /// The most steps one operation is stopped at; more means it never finished.
    static let mostSteps = 400

    /// This process's environment with the crash point set.
    static func environment(crashAt step: Int) -> [String] {
        var result: [String] = []
        var index = 0
        while let entry = environ[index] {
            let text = String(cString: entry)
            if !text.hasPrefix(CrashPoint.variable + "=") { result.append(text) }
            index += 1
        }
        return result + ["\(CrashPoint.variable)=\(step)"]
    }

    /// Runs `arguments` stopped at step 1, 2, 3...: `after` is called after each stop with the
    /// step; returns the first step the command completed at (exit status 0), or nil.
    static func stopAtEveryStep(
        _ arguments: [String], prepare: () throws -> Void, after: (_ step: Int, _ said: String) throws -> Void
    ) throws -> Int? {
        let end = EndToEndTests()
        for step in 1...mostSteps {
            try prepare()
            let (status, said) = end.finish(try end.spawnProgram(EndToEndTests.executable, arguments, environment: environment(crashAt: step)))
            if status == 0 {
                print("\(arguments.prefix(2).joined(separator: " ")): stopped at each of \(step - 1) steps, then completed")
                return step
            }
            #expect(status == CrashPoint.exitStatus, "step \(step): \(said)")
            guard status == CrashPoint.exitStatus else { return nil }
            try after(step, said)
        }
        return nil
    }

    /// A folder made again as `tree` says (`BackupTests.tree`: files with their bytes, folders
    /// ending in "/").
    static func plant(_ tree: [String: [UInt8]], at directory: String) {
        removeTree(directory)
        _ = makeDirectories(directory)
        for path in tree.keys.sorted() {
            if path.hasSuffix("/") {
                _ = makeDirectories(directory + "/" + path)
            } else {
                _ = makeDirectories(directory + "/" + String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]))
                _ = writeFileAtomically(directory + "/" + path, tree[path] ?? [])
            }
        }
    }

    /// import-all --replace: after any stop, the next opening of the data directory finds it
    /// as before (rolled back) or as the archive's (finished), and says which.
    @Test func importAllReplaceLeavesTheOldStoresOrTheNew() throws {
        let old = try BackupTests.fullDirectory("crash-old")
        let source = try BackupTests.fullDirectory("crash-new")
        let base = "/tmp/lodestone-crash-import-\(getpid())"
        defer {
            for path in [old, source, base] { removeTree(path) }
        }
        #expect(makeDirectories(base))
        // The archive differs from the device in three stores: a snapshot more, another
        // level calibration, and no alerts at all.
        let snapshots = SnapshotStore(dataDirectory: source)
        var extra = Snapshot(id: "20990101-000000", timestamp: 4_070_908_800, name: "later", notes: "")
        extra.pressure = 1000
        try snapshots.save(extra)
        #expect(writeFileAtomically(source + "/calibration/level.json", Array(#"{"roll":9,"pitch":9}"#.utf8)))
        unlink(source + "/alerts.rec")
        let archive = base + "/backup.tar"
        #expect(writeFileAtomically(archive, PersonalData.archive(dataDirectory: source, now: BackupTests.started).bytes))

        let before = BackupTests.tree(old)
        let work = base + "/data"
        let arguments = ["import-all", archive, "--replace", "--data-dir", work, "--socket", base + "/none.sock"]
        Self.plant(before, at: work)
        let end = EndToEndTests()
        let (cleanStatus, cleanSaid) = end.finish(try end.spawn(arguments))
        #expect(cleanStatus == 0, "\(cleanSaid)")
        let after = BackupTests.tree(work)
        #expect(after != before && after["alerts.rec"] == nil && after["snapshots/20990101-000000.json"] != nil)

        var outcomes = Set<String>()
        let completed = try Self.stopAtEveryStep(arguments, prepare: { Self.plant(before, at: work) }) { step, said in
            let line = ImportJournal.recover(dataDirectory: work) ?? ""
            let found = BackupTests.tree(work)
            #expect(found == before || found == after, "step \(step) left a mix: \(Self.differences(found, before, after)) \(said) / \(line)")
            if line.contains("finished") {
                #expect(found == after, "step \(step): \(line): \(Self.differences(found, after))")
                outcomes.insert("finished")
            } else if line.contains("rolled back") {
                #expect(found == before, "step \(step): \(line): \(Self.differences(found, before))")
                outcomes.insert("rolled back")
            } else {
                #expect(line.isEmpty, "step \(step): \(line)")
            }
        }
        #expect(completed != nil, "the import never completed within \(Self.mostSteps) steps")
        #expect(outcomes == ["finished", "rolled back"], "\(outcomes)")
        #expect(BackupTests.tree(work) == after, "\(Self.differences(BackupTests.tree(work), after))")
    }

    /// The paths where `found` differs from each of `expected`, for a failure's message.
    static func differences(_ found: [String: [UInt8]], _ expected: [String: [UInt8]]...) -> String {
        expected.map { tree in
            Set(found.keys).union(tree.keys).filter { found[$0] != tree[$0] }.sorted().joined(separator: ",")
        }.joined(separator: " | ")
    }

    /// The recovery is made by the next start (`lodestone run`), before any store is opened,
    /// and said in one line.
    @Test func theNextStartFinishesAnInterruptedReplace() throws {
        let old = try BackupTests.fullDirectory("crash-start")
        let base = "/tmp/lodestone-crash-start-\(getpid())"
        defer {
            removeTree(old)
            removeTree(base)
        }
        #expect(makeDirectories(base))
        let archive = base + "/backup.tar"
        #expect(writeFileAtomically(archive, PersonalData.archive(dataDirectory: old, now: BackupTests.started).bytes))
        #expect(writeFileAtomically(old + "/calibration/level.json", Array(#"{"roll":7,"pitch":7}"#.utf8)))
        #expect(makeDirectories(old + "/tracks"))
        let end = EndToEndTests()
        // Stopped at the first step after its journal is written: finished by the next start.
        var stopped = 0
        for step in 1...Self.mostSteps {
            let work = base + "/data"
            Self.plant(BackupTests.tree(old), at: work)
            let (status, _) = end.finish(
                try end.spawnProgram(
                    EndToEndTests.executable, ["import-all", archive, "--replace", "--data-dir", work, "--socket", base + "/none.sock"],
                    environment: Self.environment(crashAt: step)))
            guard status == CrashPoint.exitStatus else { break }
            if fileExists(work + "/" + ImportJournal.journal) {
                stopped = step
                break
            }
        }
        #expect(stopped > 0, "no stop left a journal")
        let work = base + "/data"
        // `lodestone run` is the next start; a command that changes a store takes the same path.
        let (status, said) = end.finish(
            try end.spawn(["run", "--duration", "0.5", "--display", "none", "--data-dir", work, "--socket", base + "/run.sock"]))
        #expect(said.contains("an interrupted import-all --replace was finished"), "\(status): \(said)")
        #expect(!fileExists(work + "/" + ImportJournal.journal) && !fileExists(work + "/" + ImportJournal.staging))
        #expect(readFileBytes(work + "/calibration/level.json") == Array(#"{"roll":0.5,"pitch":-0.2}"#.utf8))
    }

    /// An archive holding a file its store's reader refuses is refused whole by --replace too.
    @Test func replaceRefusesAFileItsReaderCannotRead() throws {
        let directory = try BackupTests.fullDirectory("crash-unreadable")
        let base = "/tmp/lodestone-crash-unreadable-\(getpid())"
        defer {
            removeTree(directory)
            removeTree(base)
        }
        #expect(makeDirectories(base))
        let end = EndToEndTests()
        for (path, bytes) in [
            ("waypoints.json", Array(#"{"not":"a list"}"#.utf8)), ("calibration/level.json", Array("{roll".utf8)),
            ("snapshots/20990101-000000.json", Array("[1,2]".utf8))
        ] {
            let source = base + "/source"
            Self.plant(BackupTests.tree(directory), at: source)
            #expect(writeFileAtomically(source + "/" + path, bytes))
            let archive = base + "/bad.tar"
            #expect(writeFileAtomically(archive, PersonalData.archive(dataDirectory: source, now: BackupTests.started).bytes))
            let untouched = BackupTests.tree(directory)
            for mode in ["--replace", "--merge"] {
                let (status, said) = end.finish(try end.spawn(["import-all", archive, mode, "--data-dir", directory, "--socket", base + "/none.sock"]))
                #expect(status == 1 && said.contains(path) && said.contains("nothing was changed"), "\(path) \(mode): \(said)")
                #expect(BackupTests.tree(directory) == untouched, "\(path) \(mode) changed the data directory")
            }
        }
    }

    /// A calibration saved (calibrate accel --save): stopped anywhere, the store reads the old
    /// calibration or the new one, never a file it refuses.
    @Test func aCalibrationIsTheOldOrTheNew() throws {
        let base = "/tmp/lodestone-crash-calibration-\(getpid())"
        defer { removeTree(base) }
        #expect(makeDirectories(base + "/data/calibration"))
        var rows = ["ax,ay,az"]
        for up in [(1.0, 0.0, 0.0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)] {
            for _ in 0..<40 { rows.append("\(up.0 * 1.02 + 0.04),\(up.1 * 0.99 - 0.02),\(up.2 * 1.01 + 0.06)") }
        }
        let csv = base + "/faces.csv"
        #expect(writeFileAtomically(csv, Array(rows.joined(separator: "\n").utf8)))
        let store = CalibrationStore(dataDirectory: base + "/data")
        let oldFile = Array(#"{"offset":[0,0,0],"scale":[1,1,1]}"#.utf8)
        let arguments = ["calibrate", "accel", "--from", csv, "--save", "--data-dir", base + "/data"]
        var sawOld = false
        let completed = try Self.stopAtEveryStep(arguments, prepare: { _ = writeFileAtomically(store.directory + "/accelerometer.json", oldFile) }) {
            step, said in
            let loaded = store.loadAccelerometer()
            #expect(loaded != nil, "step \(step): the calibration cannot be read: \(said)")
            if let loaded, loaded.scale.x == 1 { sawOld = true }
        }
        #expect(completed != nil && sawOld)
        let saved = try #require(store.loadAccelerometer())
        #expect(abs(saved.scale.x - 1 / 1.02) < 1e-3, "the new calibration is in place")
    }

    /// A track filed (track import): stopped anywhere, the store lists no track or the whole
    /// one, never part of it.
    @Test func aTrackIsFiledWholeOrNotAtAll() throws {
        let base = "/tmp/lodestone-crash-track-\(getpid())"
        defer { removeTree(base) }
        #expect(makeDirectories(base))
        let gpx = """
            <?xml version="1.0"?><gpx version="1.1" creator="test"><trk><name>Ridge</name><trkseg>
            \((0..<40).map { "<trkpt lat=\"\(46 + Double($0) * 1e-4)\" lon=\"7\"><ele>500</ele><time>2026-05-01T06:\($0 < 10 ? "0" : "")\($0):00Z</time></trkpt>" }.joined(separator: "\n"))
            </trkseg></trk></gpx>
            """
        let file = base + "/ridge.gpx"
        #expect(writeFileAtomically(file, Array(gpx.utf8)))
        let data = base + "/data"
        let completed = try Self.stopAtEveryStep(["track", "import", file, "--data-dir", data], prepare: { removeTree(data) }) { step, said in
            let store = TrackStore(dataDirectory: data)
            let listed = store.list()
            #expect(listed.count <= 1, "step \(step): \(listed.map(\.id))")
            for summary in listed {
                #expect(store.load(id: summary.id)?.points.count == 40, "step \(step): \(summary.id) holds part of the track")
            }
        }
        #expect(completed != nil)
        #expect(TrackStore(dataDirectory: data).list().count == 1)
    }
    /// A timetable imported over another: stopped anywhere, `departures` answers from the old
    /// timetable or the new one, never from a mix or from none.
    @Test func aTimetableIsTheOldOrTheNew() throws {
        let base = "/tmp/lodestone-crash-timetable-\(getpid())"
        defer { removeTree(base) }
        let feeds = [base + "/feed-a", base + "/feed-b"], data = base + "/data", work = base + "/work"
        #expect(SyntheticFeed(stops: 60, stopTimes: 1200, stopsPerTrip: 12).write(to: feeds[0]))
        #expect(SyntheticFeed(stops: 60, stopTimes: 1200, stopsPerTrip: 10).write(to: feeds[1]))
        let end = EndToEndTests()
        func answer(_ directory: String) throws -> String {
            let ask = ["departures", "--stop", SyntheticFeed.busyStopID, "--at", "2026-03-16T07:00:00+01:00", "--count", "4", "--json", "--data-dir", directory]
            return end.finish(try end.spawn(ask)).output
        }
        var answers: [String] = []
        for feed in feeds {
            let (status, said) = end.finish(try end.spawn(["timetable", "import", feed, "--data-dir", data]))
            #expect(status == 0, "\(said)")
            answers.append(try answer(data))
        }
        #expect(answers[0] != answers[1] && answers[0].contains("\"departures\":[{"), "\(answers)")
        // The device holds feed A; feed B is imported over it.
        removeTree(data)
        let (status, said) = end.finish(try end.spawn(["timetable", "import", feeds[0], "--data-dir", data]))
        #expect(status == 0, "\(said)")
        let before = BackupTests.tree(data)
        var sawOld = false
        let completed = try Self.stopAtEveryStep(["timetable", "import", feeds[1], "--data-dir", work], prepare: { Self.plant(before, at: work) }) {
            step, _ in
            let found = try answer(work)
            #expect(found == answers[0] || found == answers[1], "step \(step): \(found)")
            if found == answers[0] { sawOld = true }
        }
        #expect(completed != nil && sawOld)
        #expect(try answer(work) == answers[1])
    }
    /// The history (and the day's activity) saved by a run as it stops: stopped anywhere, the
    /// next start reads the old history or the new one, whole, never a damaged file.
    @Test func theHistoryIsTheOldOrTheNew() throws {
        let base = "/tmp/lodestone-crash-history-\(getpid())"
        defer { removeTree(base) }
        let data = base + "/data", work = base + "/work"
        let end = EndToEndTests()
        func arguments(_ directory: String) -> [String] {
            ["run", "--duration", "0.5", "--display", "none", "--data-dir", directory, "--socket", base + "/run.sock"]
        }
        let (status, said) = end.finish(try end.spawn(arguments(data)))
        #expect(status == 0 && fileExists(data + "/history.bin"), "\(said)")
        let before = BackupTests.tree(data)
        let completed = try Self.stopAtEveryStep(arguments(work), prepare: { Self.plant(before, at: work) }) { step, said in
            let read = HistoryFile.read(work + "/history.bin")
            #expect(read != nil && read?.damaged == false && read?.histories.isEmpty == false, "step \(step): \(said)")
            if let activity = try? readStoreText(work + "/activity.json") {
                #expect((try? JSONValue.parse(activity)) != nil, "step \(step): activity.json cannot be read")
            }
        }
        #expect(completed != nil)
    }
    /// The MQTT outbox of a run whose broker is away: stopped anywhere, the next start reads
    /// every message the outbox held before (and what the stopped run added up to its last
    /// whole record), never a damaged record in the middle.
    @Test func theMQTTOutboxKeepsWhatItHeld() throws {
        let base = "/tmp/lodestone-crash-outbox-\(getpid())"
        defer { removeTree(base) }
        let data = base + "/data", work = base + "/work"
        let end = EndToEndTests()
        // Nothing listens on port 1: every message waits in the outbox.
        func arguments(_ directory: String) -> [String] {
            ["run", "--duration", "0.5", "--display", "none", "--mqtt", "127.0.0.1:1", "--data-dir", directory, "--socket", base + "/run.sock"]
        }
        let (status, said) = end.finish(try end.spawn(arguments(data)))
        #expect(status == 0, "\(said)")
        let waiting = MQTTOutbox(path: data + "/mqtt-outbox.rec", limit: 10_000, now: 0).count
        #expect(waiting > 0, "no message waits: \(said)")
        let before = BackupTests.tree(data)
        let completed = try Self.stopAtEveryStep(arguments(work), prepare: { Self.plant(before, at: work) }) { step, said in
            let records = try? RecordLog.records(path: work + "/mqtt-outbox.rec")
            #expect(records != nil && records?.recovery.skippedBytes == 0, "step \(step): \(said)")
            let outbox = MQTTOutbox(path: work + "/mqtt-outbox.rec", limit: 10_000, now: 0)
            #expect(outbox.count >= waiting, "step \(step): \(outbox.count) of the \(waiting) messages kept")
        }
        #expect(completed != nil)
    }
}
