import Glibc
import LodestoneCore
import LodestoneEncoding
import Testing
@testable import LodestoneStorage

/// The stores a running device writes, stopped at every step of its writing (as
/// `CrashAtEveryWriteTests`: `LODESTONE_CRASH_AT_WRITE=N`, N = 1, 2, 3... until the run
/// completes without reaching N): the track being recorded, and the web app's pairings.
@Suite struct CrashAtEveryWriteRunTests {
    /// A track being recorded: stopped anywhere, the next start recovers the recording with
    /// every point it held before and a prefix of the points the stopped device went on to
    /// write, no damaged record; filed, it is listed and holds those points.
    ///
    /// A live run's points depend a little on how the machine keeps up (the barometer's
    /// samples, the fix a point falls on), so the device stopped at each step is a replay of a
    /// recorded run (`lodestone replay --speed max`: the whole device again, the same services
    /// and stores, its points the same on every replay) continuing a recording that a live run
    /// started through its socket (`track start`); the uninterrupted replay's points are the
    /// ones every stop must hold a prefix of. The run that takes up a stopped recording is a
    /// real `lodestone run`, checked once.
    @Test func aRecordedTrackKeepsAPrefixOfItsPoints() throws {
        let base = "/tmp/lodestone-crash-recording-\(getpid())"
        defer { removeTree(base) }
        let data = base + "/data", work = base + "/work", recorded = base + "/recorded", socket = base + "/run.sock"
        #expect(makeDirectories(base))
        let end = EndToEndTests()

        // A live run with a track started on its socket leaves its recording behind.
        let live = try end.spawn(["run", "--speed", "20", "--trip-duration", "40", "--display", "none", "--data-dir", data, "--socket", socket])
        if end.connect(socket, to: live) != nil {
            let (status, said) = end.finish(try end.spawn(["track", "start", "--name", "x", "--interval", "1", "--socket", socket]))
            #expect(status == 0 && said.contains("recording"), "\(said)")
        }
        let (liveStatus, liveSaid) = end.finish(live)
        #expect(liveStatus == 0, "\(liveSaid)")
        let recordingPath = "/tracks/recording.track"
        let planted = try #require(Self.points(data + recordingPath), "no recording left: \(liveSaid)")
        let before = BackupTests.tree(data)

        // The same recording continued by a recorded run; replayed, it goes on the same way.
        let recording = base + "/trip.rec"
        CrashAtEveryWriteTests.plant(before, at: recorded)
        let (recordStatus, recordSaid) = end.finish(
            try end.spawn([
                "run", "--speed", "20", "--trip-duration", "6", "--display", "none", "--data-dir", recorded, "--socket", socket,
                "--record", recording
            ]))
        #expect(recordStatus == 0, "\(recordSaid)")
        let replay = ["replay", recording, "--speed", "max", "--data-dir", work]
        CrashAtEveryWriteTests.plant(before, at: work)
        let (fullStatus, fullSaid) = end.finish(try end.spawn(replay))
        #expect(fullStatus == 0, "\(fullSaid)")
        let full = try #require(Self.points(work + recordingPath), "\(fullSaid)")
        #expect(full.count > planted.count && Array(full.prefix(planted.count)) == planted, "the replay did not continue the recording: \(fullSaid)")

        var stops: [(step: Int, points: Int)] = []
        let completed = try CrashAtEveryWriteTests.stopAtEveryStep(replay, prepare: { CrashAtEveryWriteTests.plant(before, at: work) }) {
            step, said in
            let path = work + recordingPath
            let held = Self.points(path)
            #expect(held != nil, "step \(step): the recording cannot be read: \(said)")
            guard let held else { return }
            #expect(
                held.count >= planted.count && Array(full.prefix(held.count)) == held, "step \(step): \(held.count) points, not a prefix of the \(full.count)")
            stops.append((step, held.count))
            // As the next start takes it up (`TrackService`), then filed as `track stop` does.
            let recovered = TrackRecording(recovering: path)
            #expect(recovered?.points.map(TrackFile.body) == held, "step \(step): the recovery keeps other points")
            guard let recovered else { return }
            let store = TrackStore(dataDirectory: work)
            let filed = store.file(recovered)
            #expect(filed != nil, "step \(step): the recovered track cannot be filed")
            #expect(store.list().map(\.id) == filed.map { [$0.id] }, "step \(step): \(store.list().map(\.id))")
            if let filed { #expect(store.load(id: filed.id)?.points.map(TrackFile.body) == held, "step \(step): the filed track holds other points") }
        }
        #expect(completed != nil)
        #expect(stops.contains { $0.points > planted.count } && stops.contains { $0.points < full.count }, "\(stops)")

        // `lodestone run` takes up a recording stopped halfway, every point kept.
        let halfway = try #require(stops.first { $0.points > planted.count && $0.points < full.count })
        CrashAtEveryWriteTests.plant(before, at: work)
        let (stopStatus, stopSaid) = end.finish(
            try end.spawnProgram(EndToEndTests.executable, replay, environment: CrashAtEveryWriteTests.environment(crashAt: halfway.step)))
        #expect(stopStatus == CrashPoint.exitStatus && Self.points(work + recordingPath)?.count == halfway.points, "\(stopSaid)")
        let (runStatus, runSaid) = end.finish(
            try end.spawn(["run", "--duration", "0.5", "--display", "none", "--data-dir", work, "--socket", socket]))
        #expect(runStatus == 0 && runSaid.contains("track 'x' recovered after an interruption: \(halfway.points) points kept"), "\(runSaid)")
        let continued = Self.points(work + recordingPath) ?? []
        #expect(continued.count >= halfway.points && Array(continued.prefix(halfway.points)) == Array(full.prefix(halfway.points)))
        print("track recording: \(stops.count) stops, \(planted.count) to \(full.count) points")
    }

    /// The points of the track file at `path`, as stored; nil when it is missing, unreadable,
    /// or holds a damaged record or a torn one (a stop between two writes leaves neither).
    static func points(_ path: String) -> [String]? {
        guard let bytes = try? readStoreBytes(path), let parsed = TrackFile.parse(bytes) else { return nil }
        guard parsed.skipped == 0, !parsed.headerDamaged, parsed.validBytes == bytes.count else { return nil }
        return parsed.points.map(TrackFile.body)
    }

    /// The web app's pairings (`web-browsers.json`, written by `replaceFile`): a run with one
    /// browser paired pairs another (`web pair`, the address opened) and forgets it (`web
    /// forget`), then stops on SIGTERM; stopped at any step, the store reads the browser it
    /// had, or both, never a file it sets aside as damaged.
    @Test func thePairingsAreTheOldOrTheNew() throws {
        let base = "/tmp/lodestone-crash-pairing-\(getpid())"
        defer { removeTree(base) }
        let seed = base + "/seed", work = base + "/work", socket = base + "/run.sock"
        #expect(makeDirectories(seed))
        let seeded = WebPairingStore(dataDirectory: seed)
        let code = try #require(seeded.newCode(now: 1_790_000_000))
        #expect(seeded.redeem(code: code, name: "chart table", now: 1_790_000_000) != nil)
        let first = try #require(seeded.browsers().first?.id)
        let before = BackupTests.tree(seed)
        let end = EndToEndTests()

        var states = Set<String>()
        var completed: Int?
        for step in 1...CrashAtEveryWriteTests.mostSteps {
            CrashAtEveryWriteTests.plant(before, at: work)
            unlink(socket)
            let port = EndToEndTests.freePort()
            let run = try end.spawnProgram(
                EndToEndTests.executable,
                ["run", "--duration", "30", "--display", "none", "--data-dir", work, "--socket", socket, "--http", "127.0.0.1:\(port)"],
                environment: CrashAtEveryWriteTests.environment(crashAt: step))
            let done = try Self.pairAndForget(end, run: run, socket: socket, port: port, keeping: first)
            kill(run.pid, SIGTERM)
            let (status, said) = end.finish(run)
            if status == 0 {
                #expect(done, "the run completed, but the browser was not paired and forgotten: \(said)")
                completed = step
                break
            }
            #expect(status == CrashPoint.exitStatus, "step \(step): \(said)")
            guard status == CrashPoint.exitStatus else { break }
            let damaged = { directoryEntries(work).filter { $0.hasPrefix("web-browsers.json.damaged") } }
            let text = try? readStoreText(work + "/web-browsers.json")
            #expect(text.flatMap { try? JSONValue.parse($0) }?.arrayValue != nil, "step \(step): \(text ?? "no file")")
            let ids = WebPairingStore(dataDirectory: work).browsers().map(\.id)
            #expect(damaged().isEmpty, "step \(step): \(damaged()) \(said)")
            #expect(ids == [first] || (ids.count == 2 && ids.first == first), "step \(step): \(ids)")
            states.insert(ids.count == 1 ? "one" : "two")
        }
        #expect(completed != nil, "the run never completed within \(CrashAtEveryWriteTests.mostSteps) steps")
        #expect(states.contains("two"), "no stop fell between the pairing and the forgetting: \(states)")
        #expect(WebPairingStore(dataDirectory: work).browsers().map(\.id) == [first])
        print("web pairing: stopped at each of \((completed ?? 1) - 1) steps, then completed; states \(states.sorted())")
    }

    /// Whether the run has ended (its output pipe closed), without collecting it.
    static func exited(_ run: EndToEndTests.Child) -> Bool {
        var watch = pollfd(fd: run.stdout, events: 0, revents: 0)
        return poll(&watch, 1, 0) > 0 && watch.revents & Int16(POLLHUP) != 0
    }

    /// Pairs a browser with the run and forgets it; false when the run stopped before both
    /// were done (a client refused or answered with an error).
    static func pairAndForget(_ end: EndToEndTests, run: EndToEndTests.Child, socket: String, port: Int, keeping first: String) throws -> Bool {
        // Served once the socket exists; a run stopped before (its pipe closed) never serves.
        for _ in 0..<750 {
            if fileExists(socket) { break }
            if exited(run) { return false }
            usleep(20_000)
        }
        // Asked again while the run lives: its socket's file exists a moment before it listens.
        var (pairStatus, pairSaid) = end.finish(try end.spawn(["web", "pair", "--socket", socket]))
        var attempts = 0
        while pairStatus != 0 && attempts < 20 && !exited(run) {
            attempts += 1
            usleep(50_000)
            (pairStatus, pairSaid) = end.finish(try end.spawn(["web", "pair", "--socket", socket]))
        }
        guard pairStatus == 0, let codeStart = pairSaid.firstRange(of: "code=")?.upperBound else { return false }
        let code = pairSaid[codeStart...].prefix { $0.isLetter || $0.isNumber }
        guard let fd = EndToEndTests.connectTCP(port: port, seconds: 2) else { return false }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let request = Array("GET /pair?code=\(code) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUser-Agent: crash test\r\nConnection: close\r\n\r\n".utf8)
        guard request.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == request.count else { return false }
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        // The answer is a 303 without a body: read up to the end of its header.
        while !answer.suffix(4).elementsEqual(Array("\r\n\r\n".utf8)) {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            answer += buffer.prefix(n)
        }
        guard String(decoding: answer, as: UTF8.self).hasPrefix("HTTP/1.1 303") else { return false }
        let (listStatus, listed) = end.finish(try end.spawn(["web", "devices", "--socket", socket, "--json"]))
        guard listStatus == 0, let browsers = (try? JSONValue.parse(listed))?["browsers"]?.arrayValue,
            let paired = browsers.compactMap({ $0["id"]?.stringValue }).first(where: { $0 != first })
        else { return false }
        let (forgetStatus, _) = end.finish(try end.spawn(["web", "forget", paired, "--socket", socket]))
        return forgetStatus == 0
    }
}
