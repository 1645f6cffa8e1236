import Glibc
import LodestoneCore
import LodestoneDomain
import LodestoneOutputs
import Testing
@testable import LodestoneEncoding
@testable import LodestoneServices
@testable import LodestoneStorage

/// What the device keeps on disk: history across restarts within its size budget, log
/// sessions that survive a power cut at any byte, exports a spreadsheet opens, and snapshots in
/// the contract's JSON shape.
@Suite struct ChronicleStorageTests {
    static func directory(_ name: String) -> String {
        "/tmp/lodestone-chronicle-\(getpid())-\(name)-\(UInt32.random(in: 0...UInt32.max))"
    }

    @Test func aWeekOfHistoryFitsTheBudgetAndComesBack() throws {
        let data = Self.directory("history")
        let service = HistoryService(dataDirectory: data)
        let start = 1_782_028_800.0
        // Seven days of every stream once a second: every bucket of every range filled.
        for second in stride(from: 0, to: 7 * 86_400, by: 1) {
            let t = start + Double(second)
            for (index, stream) in HistoryStreams.names.enumerated() { service.add(stream, 1000 + Double(index) + Double(second % 600) / 600, time: t) }
        }
        service.save(time: start + 7 * 86_400, force: true)
        let bytes = try #require(readFileBytes(data + "/history.bin"))
        let memory = HistoryStreams.names.count * History.Range.allCases.reduce(0) { $0 + $1.buckets } * MemoryLayout<History.Bucket>.stride
        print("history: 7 days of \(HistoryStreams.names.count) streams take \(bytes.count) bytes on disk and \(memory) bytes of buckets in memory")
        #expect(bytes.count < 5 << 20 && memory < 5 << 20)
        let reloaded = HistoryService(dataDirectory: data)
        let now = start + 7 * 86_400 - 1
        for range in History.Range.allCases {
            let before = try #require(service.histories["pressure"]).summary(range, now: now)
            let after = try #require(reloaded.histories["pressure"]).summary(range, now: now)
            #expect(before.samples == after.samples && before.minimum == after.minimum && before.maximum == after.maximum, "\(range)")
            #expect(abs(after.mean - 1000.5) < 0.01)
        }
        let week = try #require(HistoryStreams.summary(dataDirectory: data, stream: "temperature", range: .week))
        #expect(week.samples == 7 * 86_400 && week.points.count == 336)
        // A damaged file: the streams read whole before the damage are kept, the one it falls
        // in is not half read, and the damage is said; the damaged file is set aside, not
        // replaced unawares.
        var damaged = bytes
        damaged.removeLast(7)
        #expect(writeFileAtomically(data + "/history.bin", damaged))
        #expect(HistoryFile.load(data + "/history.bin") == nil)
        let read = try #require(HistoryFile.read(data + "/history.bin"))
        #expect(read.damaged)
        #expect(read.histories.count == HistoryStreams.names.count - 1, "\(read.histories.keys.sorted())")
        #expect(HistoryStreams.damage(dataDirectory: data)?.contains("damaged") == true)
        let survivor = HistoryService(dataDirectory: data)
        #expect(survivor.histories.count == HistoryStreams.names.count)
        #expect(!fileExists(data + "/history.bin"), "the damaged file was set aside")
    }

    @Test func aLogSessionSurvivesACutAtEveryByteAndExports() throws {
        let data = Self.directory("log")
        let store = LogStore(dataDirectory: data)
        let session = try LogSession(
            id: "20260621-080000", logsDirectory: store.directory, fields: ["pressure", "temperature"],
            interval: 1, started: 1_782_028_800, duration: nil, limitBytes: 100 << 20)
        for second in 0..<20 {
            #expect(
                session.write(
                    ["pressure": 1013 + Double(second) / 10, "temperature": second == 5 ? .nan : 18.5],
                    time: 1_782_028_800 + Double(second)) == nil)
        }
        session.close(now: 1_782_028_820)
        let whole = try #require(store.load(id: "20260621-080000"))
        #expect(whole.rows.count == 20 && whole.cutBytes == 0 && whole.fields == ["pressure", "temperature"])
        let csv = LogStore.csv(whole).split(separator: "\n").map(String.init)
        #expect(csv.first == "time,pressure,temperature")
        #expect(csv.dropFirst().first == "2026-06-21T08:00:00.000Z,1013,18.5")
        #expect(csv.dropFirst(6).first == "2026-06-21T08:00:05.000Z,1013.5,", "an unknown value is an empty cell")
        let json = try JSONValue.parse(LogStore.json(whole))
        #expect(json["records"]?.arrayValue?.count == 20 && json["records"]?.arrayValue?.dropFirst(5).first?["temperature"] == .null)
        // The power goes at every byte of the segment in turn.
        let segment = store.directory + "/20260621-080000/0001.rec"
        let bytes = try #require(readFileBytes(segment))
        var previous = -1
        for end in stride(from: 0, through: bytes.count, by: 1) {
            // Written without a flush: a flushed write per cut made this test minutes long on a
            // busy disk, and what is read back is the same.
            #expect(Self.writeUnflushed(segment, bytes.prefix(end)))
            let rows = store.load(id: "20260621-080000")?.rows.count ?? 0
            #expect(rows >= max(previous, 0) && rows <= 20, "cut at \(end)")
            previous = rows
        }
        #expect(previous == 20)
    }

    /// `bytes` as the whole of `path`, without the flushes `replaceFile` makes.
    static func writeUnflushed(_ path: String, _ bytes: ArraySlice<UInt8>) -> Bool {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) } == bytes.count
    }

    @Test func aSessionStopsAfterItsDuration() throws {
        let data = Self.directory("duration")
        let session = try LogSession(
            id: "d", logsDirectory: LogStore(dataDirectory: data).directory, fields: ["pressure"], interval: 60,
            started: 0, duration: 3600, limitBytes: 100 << 20)
        var stopped: String?
        var written = 0
        for minute in 0...70 where stopped == nil {
            let t = Double(minute) * 60
            guard session.isDue(t) else { continue }
            stopped = session.write(["pressure": 1000], time: t)
            if stopped == nil { written += 1 }
        }
        #expect(written == 60 && stopped == "its duration is over")
        #expect(session.estimatedBytesPerHour > 60 * 10 && session.estimatedBytesPerHour < 60 * 40)
    }

    @Test func snapshotsKeepTheContractShapeAndCompare() throws {
        let store = SnapshotStore(dataDirectory: Self.directory("snapshots"))
        var first = Snapshot(id: store.newID(time: 1_782_028_800), timestamp: 1_782_028_800, name: "Hut, north side", notes: "said \"hello\"")
        (first.latitude, first.longitude, first.altitude, first.accuracy) = (46.0, 7.0, 2000, 4)
        (first.pressure, first.seaLevelPressure, first.temperature) = (795.2, 1015.1, 4.5)
        first.accelerometer = Vector3(0, 0, 9.81)
        try store.save(first)
        var second = first
        second.id = store.newID(time: 1_782_028_800)
        #expect(second.id == first.id + "-2", "two in one second get distinct ids")
        (second.timestamp, second.latitude, second.seaLevelPressure) = (1_782_032_400, 46.01, 1012.1)
        try store.save(second)
        let json = try JSONValue.parse(SnapshotJSON.object(try #require(store.load(id: first.id))))
        for path in [
            "id", "timestamp", "location.latitude", "location.longitude", "location.altitude", "location.accuracy",
            "barometer.pressure", "barometer.seaLevelPressure", "barometer.attitude.roll", "barometer.attitude.pitch",
            "barometer.attitude.yaw", "weather.temperature", "weather.humidity", "weather.conditions",
            "motion.accelerometer.x", "motion.gyroscope.y", "motion.magnetometer.z", "photoCount"
        ] {
            var value: JSONValue? = json
            for key in path.split(separator: ".") { value = value?[String(key)] }
            #expect(value != nil, "\(path) is in the shape")
        }
        #expect(json["barometer"]?["attitude"]?["roll"] == .null, "an unknown value is null")
        #expect(json["timestamp"]?.stringValue == "2026-06-21T08:00:00.000Z")
        #expect(store.list().map(\.id) == [first.id, second.id])
        let csv = SnapshotStore.csv(store.list()).split(separator: "\n")
        #expect(csv.count == 3 && csv[0].hasPrefix("id,timestamp,name,notes,weather.conditions,location.latitude"))
        #expect(csv[1].contains("\"Hut, north side\",\"said \"\"hello\"\"\""))
        let comparison = first.comparison(to: second)
        #expect(abs((comparison.distance ?? 0) - 1111.9) < 5 && abs(comparison.bearing ?? 99) < 0.1 && comparison.seconds == 3600)
        #expect(comparison.deltas.first { $0.path == "barometer.seaLevelPressure" }.map { abs($0.delta + 3) < 1e-9 } == true)
        #expect(store.delete(id: second.id) && store.list().count == 1)
    }
}
