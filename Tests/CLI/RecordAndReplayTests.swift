import Glibc
import LodestoneCore
import LodestoneEncoding
import LodestoneStorage
import Testing

/// `run --record`, `replay`, `verify --recording` and `recording`, run as a user runs them: a
/// simulated trip recorded, replayed at two speeds into the same report stream byte for byte,
/// refused against another board, judged, summarised and cut.
@Suite(.serialized) struct RecordAndReplayTests {
    let program = EndToEndTests()
    static let folder = "/tmp/lodestone-record-\(getpid())"

    func lodestone(_ arguments: [String]) throws -> (status: Int32, output: String) {
        program.finish(try program.spawn(arguments))
    }

    /// A walk recorded for 8 s of real time at speed 10 (80 s of the trip).
    func recordTrip() throws -> String {
        let path = Self.folder + "/walk.rec"
        if access(path, F_OK) == 0 { return path }
        mkdir(Self.folder, 0o700)
        let run = try lodestone([
            "run", "--record", path, "--scenario", "walk", "--speed", "10", "--duration", "8", "--display", "none",
            "--socket", Self.folder + "/run.sock", "--data-dir", Self.folder + "/run-data"
        ])
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("recorded"), "\(run.output)")
        return path
    }

    @Test func aRecordedTripReplaysReportForReportAtAnySpeed() throws {
        let path = try recordTrip()
        let fast = try lodestone(["replay", path, "--speed", "max", "--reports", Self.folder + "/fast.jsonl"])
        #expect(fast.status == 0, "\(fast.output)")
        #expect(fast.output.contains("the end of the recording"), "\(fast.output)")
        let paced = try lodestone(["replay", path, "--speed", "50", "--reports", Self.folder + "/paced.jsonl"])
        #expect(paced.status == 0, "\(paced.output)")
        let a = try #require(readFileBytes(Self.folder + "/fast.jsonl"))
        let b = try #require(readFileBytes(Self.folder + "/paced.jsonl"))
        #expect(a == b, "two replays of one recording published different reports")
        let text = String(decoding: a, as: UTF8.self)
        let lines = text.split(separator: "\n")
        #expect(lines.count > 500, "\(lines.count) reports")
        #expect(text.contains(#""class":"TPV""#) && text.contains(#""class":"ATT""#))
        // The weather station's readings (the water probe, the anemometer, the vane) come back too.
        #expect(text.contains(#""waterTemperature":"#) && text.contains(#""windDirection":"#))
        // The trip's own time: the first position report is from the trip's start date.
        #expect(text.contains(#""time":"2026-06-21T08:"#))
    }

    @Test func inRealTimeTooTheSameReportsComeOut() throws {
        let path = try recordTrip()
        let piece = Self.folder + "/first-6s.rec"
        unlink(piece)
        let cut = try lodestone(["recording", "cut", path, "--to", "6", "--out", piece])
        #expect(cut.status == 0, "\(cut.output)")
        let clock = SystemMonotonicClock()
        let started = clock.now()
        let real = try lodestone(["replay", piece, "--speed", "1", "--reports", Self.folder + "/real.jsonl"])
        let seconds = Double(clock.now() &- started) / 1e9
        #expect(real.status == 0, "\(real.output)")
        // Six seconds of the device's time take about six real ones at speed 1.
        #expect(seconds > 5, "\(seconds) s")
        let fast = try lodestone(["replay", piece, "--speed", "max", "--reports", Self.folder + "/fast-6s.jsonl"])
        #expect(fast.status == 0, "\(fast.output)")
        let a = try #require(readFileBytes(Self.folder + "/real.jsonl"))
        #expect(!a.isEmpty && a == readFileBytes(Self.folder + "/fast-6s.jsonl"))
    }

    @Test func aRecordingReplayedAgainstAnotherBoardIsRefusedAtTheFirstDifference() throws {
        let path = try recordTrip()
        let contents = try RecordingFile.read(path: path)
        // The same recording, its board file now naming the IMU at the other address.
        let board =
            #"{"name": "moved imu", "i2c": "sim:i2c-1", "imu": {"chip": "mpu6050", "address": "0x69"}, "#
            + #""magnetometer": {"chip": "qmc5883l", "address": "0x0d"}, "barometer": {"chip": "bmp280", "address": "0x76"}, "#
            + #""gps": {"port": "sim:pty", "baud": 9600}}"#
        guard case .object(var members) = contents.header else { throw Refused.notAnObject }
        members.removeAll { $0.0 == "board" }
        members.append(("board", .object([("name", .string("moved imu")), ("simulated", .bool(false)), ("text", .string(board))])))
        let other = Self.folder + "/other-board.rec"
        unlink(other)
        let writer = try RecordingWriter(path: other, header: .object(members), maximumBytes: 1 << 30, now: 0)
        try writer.take(contents.events, now: 0)
        try writer.close(now: 0)
        let replay = try lodestone(["replay", other, "--speed", "max"])
        #expect(replay.status == 1)
        #expect(replay.output.contains("diverged"), "\(replay.output)")
        #expect(replay.output.contains("0x69"), "\(replay.output)")
    }

    @Test func verifyJudgesARecordingWithoutTheWorld() throws {
        let path = try recordTrip()
        let verify = try lodestone(["verify", "--recording", path])
        #expect(verify.output.contains("replayed to the recording's end"), "\(verify.output)")
        #expect(verify.output.contains("heading against course over ground"), "\(verify.output)")
        #expect(verify.output.contains("longest gap in the receiver's fixes"), "\(verify.output)")
        #expect(verify.status == 0, "\(verify.output)")
    }

    @Test func infoAndCutSayWhatTheRecordingHoldsAndMakeAPrivatePiece() throws {
        let path = try recordTrip()
        let info = try lodestone(["recording", "info", path])
        #expect(info.status == 0, "\(info.output)")
        #expect(info.output.contains("simulated board"), "\(info.output)")
        #expect(info.output.contains("bus 0 0x68"), "\(info.output)")
        #expect(info.output.contains("takes of the weather station"), "\(info.output)")
        let piece = Self.folder + "/piece.rec"
        unlink(piece)
        let cut = try lodestone(["recording", "cut", path, "--from", "20", "--to", "40", "--without-positions", "--out", piece])
        #expect(cut.status == 0, "\(cut.output)")
        let replay = try lodestone(["replay", piece, "--speed", "max", "--reports", Self.folder + "/piece.jsonl"])
        #expect(replay.status == 0, "\(replay.output)")
        let reports = String(decoding: try #require(readFileBytes(Self.folder + "/piece.jsonl")), as: UTF8.self)
        #expect(reports.contains(#""class":"TPV""#))
        #expect(reports.contains(#""lat":0"#) || reports.contains(#""lat":0.0"#), "positions are not zeroed")
        #expect(!reports.contains(#""lat":4"#))
        let refused = try lodestone(["recording", "cut", path, "--out", piece])
        #expect(refused.status == 1 && refused.output.contains("exists"), "\(refused.output)")
    }

    enum Refused: Error { case notAnObject }
}

/// A recording bounded by `record.maxMB` rotates at a restart point, and each file replays on
/// its own; a piece cut from the middle begins at the restart point before it.
@Suite(.serialized) struct RecordingRotationTests {
    let program = EndToEndTests()
    static let folder = "/tmp/lodestone-rotate-\(getpid())"

    func lodestone(_ arguments: [String]) throws -> (status: Int32, output: String) {
        program.finish(try program.spawn(arguments))
    }

    @Test func aBoundedRecordingRotatesAndEachFileReplaysOnItsOwn() throws {
        mkdir(Self.folder, 0o700)
        let path = Self.folder + "/walk.rec"
        unlink(path)
        unlink(path + ".1")
        // 12 minutes of the walk at about 5 MB an hour: past the half of 1 MB twice or so, and
        // a restart point every 10 minutes of the trip. At 50 times real time: at 100 a busy
        // machine's recorder fell behind and lost bytes, which the replay rightly refuses.
        let run = try lodestone([
            "run", "--record", path, "--record-max-mb", "1", "--scenario", "walk", "--speed", "50", "--trip-duration", "720",
            "--duration", "300", "--display", "none", "--socket", Self.folder + "/run.sock", "--data-dir", Self.folder + "/data"
        ])
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("rotated"), "\(run.output)")
        for file in [path, path + ".1"] {
            let size = try #require(readFileBytes(file)).count
            #expect(size <= 600_000, "\(file): \(size) bytes")
            let replay = try lodestone(["replay", file, "--speed", "max"])
            #expect(replay.status == 0, "\(file): \(replay.output)")
            #expect(replay.output.contains("the end of the recording"), "\(replay.output)")
        }
        let info = try lodestone(["recording", "info", path])
        #expect(info.output.contains("restart points"), "\(info.output)")
    }

    @Test func aPieceFromTheMiddleStartsAtTheRestartPointBeforeIt() throws {
        mkdir(Self.folder, 0o700)
        let path = Self.folder + "/long.rec"
        unlink(path)
        let run = try lodestone([
            "run", "--record", path, "--scenario", "walk", "--speed", "100", "--trip-duration", "700", "--duration", "300",
            "--display", "none", "--socket", Self.folder + "/long.sock", "--data-dir", Self.folder + "/long-data"
        ])
        #expect(run.status == 0, "\(run.output)")
        let piece = Self.folder + "/piece.rec"
        unlink(piece)
        let cut = try lodestone(["recording", "cut", path, "--from", "640", "--to", "680", "--out", piece])
        #expect(cut.status == 0, "\(cut.output)")
        let whole = try #require(readFileBytes(path)).count
        let part = try #require(readFileBytes(piece)).count
        // The prelude and the 80 s from the restart point at 600 s: far less than the whole.
        #expect(part * 4 < whole, "\(part) of \(whole) bytes")
        let reports = Self.folder + "/piece.jsonl"
        let replay = try lodestone(["replay", piece, "--speed", "max", "--reports", reports])
        #expect(replay.status == 0, "\(replay.output)")
        let text = String(decoding: try #require(readFileBytes(reports)), as: UTF8.self)
        // Judged from 640 s: the first report is from then, not from the prelude's first second.
        let first = text.split(separator: "\n").first.map(String.init) ?? ""
        #expect(first.contains("T08:10:") || first.contains("T08:11:"), "\(first)")
    }
}
