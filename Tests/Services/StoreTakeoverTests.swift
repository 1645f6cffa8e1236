import Glibc
import LodestoneCore
import LodestoneDomain
import Testing
@testable import LodestoneServices
@testable import LodestoneStorage

/// Nobody who can write into the data directory can turn a store against its owner: with a
/// symbolic link to another file, a FIFO or a directory put in a store's place, every store
/// refuses it, leaves it as it was, and never blocks.
@Suite(.serialized) struct StoreTakeoverTests {
    /// One store: the file it keeps (under the data directory) and a use of it (a change that
    /// writes it, or for what is only read back, a read).
    struct Store: CustomStringConvertible {
        var name: String
        var file: String
        var write: @Sendable (String) -> Void
        var description: String { name }
    }

    static let stores: [Store] = [
        Store(name: "alert history", file: "alerts.rec") { directory in
            _ = AlertStore(dataDirectory: directory, now: 0)
        },
        Store(name: "MQTT outbox", file: "mqtt-outbox.rec") { directory in
            let outbox = MQTTOutbox(path: directory + "/mqtt-outbox.rec", limit: 10, now: 0)
            outbox.add(topic: "lodestone/test/heading", payload: Array("123".utf8), retain: false, now: 1)
            outbox.flush(now: 2)
        },
        Store(name: "logging session", file: "logs/take/0000.rec") { directory in
            let session = try? LogSession(
                id: "take", logsDirectory: directory + "/logs", fields: ["pressure"], interval: 1,
                started: 0, duration: nil, limitBytes: 1 << 20)
            _ = session?.write(["pressure": 1013], time: 1)
            session?.close(now: 2)
        },
        Store(name: "track", file: "tracks/20260101-000000.track") { directory in
            let file = TrackRecording(path: directory + "/tracks/20260101-000000.track", name: "walk", started: 0)
            file?.append(TrackPoint(time: 1, latitude: 46, longitude: 8, gpsAltitude: 400), now: 1)
            _ = file?.flush()
            _ = TrackRecording(recovering: directory + "/tracks/20260101-000000.track")
        },
        Store(name: "rolling history", file: "history.bin") { directory in
            HistoryService(dataDirectory: directory).save(time: 100, force: true)
        },
        Store(name: "calibration", file: "calibration/magnetometer.json") { directory in
            try? CalibrationStore(dataDirectory: directory).save(.identity, sensor: "magnetometer")
        },
        Store(name: "waypoints", file: "waypoints.json") { directory in
            try? WaypointStore(dataDirectory: directory).add(
                Waypoint(
                    name: "Hut", latitude: 46, longitude: 8, elevation: .nan,
                    symbol: "Flag", notes: "", created: 0))
        },
        Store(name: "device memory", file: "last-position.json") { directory in
            DeviceMemoryFile(dataDirectory: directory).save(DeviceMemoryFile.LastPosition(latitude: 46, longitude: 8, time: 0))
        },
        Store(name: "level offset", file: "calibration/level.json") { directory in
            LevelOffsetFile(dataDirectory: directory).save(roll: 1, pitch: 1)
        },
        Store(name: "daily activity", file: "activity.json") { directory in
            DailyActivityFile(dataDirectory: directory).save(DailyActivityFile.Day(date: "2026-11-26", steps: 10, floorsUp: 0, floorsDown: 0))
        },
        Store(name: "favourite stops", file: "timetable-favourites.json") { directory in
            _ = TransitPreferences(dataDirectory: directory).saveFavourites(["8503000"])
        },
        Store(name: "timetable index", file: "timetable/index.bin") { directory in
            _ = try? TimetableStore(dataDirectory: directory).load()
        },
        Store(name: "timetable marks", file: "timetable-marks.csv") { directory in
            _ = TransitPreferences(dataDirectory: directory).marks()
        },
        Store(name: "data directory lock", file: ".lock") { directory in
            _ = DataDirectoryLock.take(dataDirectory: directory)
        }
    ]

    static func scratch(_ name: String) -> String { StoredFileSafetyTests.scratch("takeover-" + name) }

    static func kind(_ path: String) -> mode_t { StoredFileSafetyTests.kind(path) }

    static func parent(_ path: String) -> String {
        String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
    }

    @Test(arguments: stores) func aLinkInAStoresPlaceIsNeverWrittenThrough(store: Store) throws {
        let directory = Self.scratch("link")
        defer { removeTree(directory) }
        // The victim: a copy of a system file that a root run must never truncate.
        let victim = directory + "-passwd"
        let original = Array("root:x:0:0:root:/root:/bin/bash\n".utf8)
        try replaceFile(victim, with: original)
        defer { unlink(victim) }
        let path = directory + "/" + store.file
        try #require(makeDirectories(Self.parent(path)))
        try #require(symlink(victim, path) == 0)
        store.write(directory)
        #expect(Self.kind(path) == S_IFLNK, "the link was replaced")
        #expect((try? readStoreBytes(victim)) == original, "\(store.name) wrote through a link")
    }

    @Test(arguments: stores) func aFIFOInAStoresPlaceNeitherBlocksNorIsReplaced(store: Store) throws {
        let directory = Self.scratch("fifo")
        defer { removeTree(directory) }
        let path = directory + "/" + store.file
        try #require(makeDirectories(Self.parent(path)))
        try #require(mkfifo(path, 0o600) == 0)
        // A store that opened the FIFO for reading or writing would block here for ever.
        store.write(directory)
        #expect(Self.kind(path) == S_IFIFO, "\(store.name) replaced the FIFO")
    }

    @Test(arguments: stores) func aDirectoryInAStoresPlaceIsLeftAlone(store: Store) throws {
        let directory = Self.scratch("directory")
        defer { removeTree(directory) }
        let path = directory + "/" + store.file
        try #require(makeDirectories(path))
        try replaceFile(path + "/inside", with: [1, 2, 3])
        store.write(directory)
        #expect(Self.kind(path) == S_IFDIR)
        #expect((try? readStoreBytes(path + "/inside")) == [1, 2, 3])
    }

    @Test func theRefusalNamesThePathAndWhatWasFound() throws {
        let directory = Self.scratch("message")
        defer { removeTree(directory) }
        let path = directory + "/alerts.rec"
        try #require(symlink("/etc/passwd", path) == 0)
        do {
            _ = try RecordLog(path: path, now: 0)
            Issue.record("a record log opened through a link")
        } catch {
            #expect(error.description.contains(path), "\(error)")
            #expect(error.description.contains("symbolic link"), "\(error)")
        }
        try #require(unlink(path) == 0 && mkfifo(path, 0o600) == 0)
        do {
            _ = try readStoreBytes(path)
            Issue.record("a FIFO was read as a store")
        } catch {
            #expect(error.description.contains("pipe"), "\(error)")
        }
    }

    @Test func aFileTheDeviceOnlyReadsIsRefusedWhenItIsAPipeOrADevice() throws {
        let directory = Self.scratch("inputs")
        defer { removeTree(directory) }
        let fifo = directory + "/lodestone.json"
        try #require(mkfifo(fifo, 0o600) == 0)
        // Before, reading a FIFO blocked until something wrote to it (a reload hung the socket).
        do {
            _ = try readTextFile(fifo)
            Issue.record("a FIFO was read as a configuration")
        } catch {
            #expect(error.found?.contains("pipe") == true, "\(error)")
        }
        #expect(throws: FileError.self) { _ = try readTextFile("/dev/zero") }
        #expect(readFileBytes(fifo) == nil)
        // A link to a regular file is fine for what is only read.
        try replaceFile(directory + "/real.json", with: Array("{}".utf8))
        try #require(symlink(directory + "/real.json", directory + "/linked.json") == 0)
        #expect((try? readTextFile(directory + "/linked.json")) == "{}")
    }
}
