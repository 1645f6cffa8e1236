import Glibc
import LodestoneCore
import LodestoneDomain
import LodestoneEncoding
import LodestoneOutputs
import LodestoneStorage

/// What `lodestone import-all --replace` costs on a full device: an archive of 10,000 stored
/// files (3,000 tracks with their summaries, 4,000 snapshots; `export-all` adds a GPX copy
/// of each track, checked and not restored) imported into an empty data directory, checked
/// whole and switched in, measured in seconds of CPU (user and system) of this process.
public enum BackupBench {
    public struct Result: Sendable {
        public var files: Int
        public var archiveEntries: Int
        public var importSeconds: Double
        /// Of which in the kernel (creating, renaming and flushing files), which varies most
        /// with the file system's state and with what else it is writing; not in the JSON
        /// (its keys are the bench table's contract).
        public var systemSeconds: Double = 0
        public var json: String {
            var w = JSONObjectWriter()
            w.number("importSecondsPer10k", importSeconds * 10_000 / Double(max(files, 1)), decimals: 3)
            w.integer("files", files)
            w.integer("archiveEntries", archiveEntries)
            return w.finished
        }
    }

    public static func run(tracks: Int = 3000, snapshots: Int = 4000) -> Result? {
        let base = "/tmp/lodestone-backup-bench-\(getpid())"
        defer { removeTree(base) }
        removeTree(base)
        let source = base + "/source", target = base + "/target"
        guard fill(source, tracks: tracks, snapshots: snapshots) else { return nil }
        let archive = PersonalData.archive(dataDirectory: source, now: 1_782_028_800).bytes
        guard makeDirectories(target) else { return nil }
        let before = cpuSeconds()
        guard let backup = try? CheckedBackup(ArchiveBytes(archive)),
            (try? BackupRestore.restore(backup, into: target, mode: .replace)) != nil
        else { return nil }
        let after = cpuSeconds()
        return Result(
            files: 2 * tracks + snapshots, archiveEntries: backup.files.count, importSeconds: after.total - before.total,
            systemSeconds: after.system - before.system)
    }

    /// A data directory of `tracks` tracks (one real one, filed as a recording is, copied
    /// under other ids) and `snapshots` snapshots.
    static func fill(_ directory: String, tracks count: Int, snapshots: Int) -> Bool {
        let store = TrackStore(dataDirectory: directory)
        guard makeDirectories(store.directory) else { return false }
        let started = 1_750_000_000.0
        guard let recording = TrackRecording(path: store.recordingPath, name: "Ridge walk", started: started, tags: ["hike"]) else { return false }
        for second in 0..<20 {
            recording.append(
                TrackPoint(time: started + Double(second) * 5, latitude: 47 + Double(second) * 1e-4, longitude: 8, gpsAltitude: 400, speed: 1.4),
                now: 0)
        }
        guard let filed = store.file(recording), let track = try? readStoreBytes(store.directory + "/" + filed.id + ".track"),
            let summaryText = try? readStoreText(store.directory + "/" + filed.id + ".json"),
            case .object(let members)? = try? JSONValue.parse(summaryText)
        else { return false }
        for index in 1..<max(count, 1) {
            let id = TrackStore.id(started: started + Double(index) * 86_400)
            var renamed = members
            if let at = renamed.firstIndex(where: { $0.0 == "id" }) { renamed[at].1 = .string(id) }
            guard writeFileAtomically(store.directory + "/" + id + ".track", track),
                writeFileAtomically(store.directory + "/" + id + ".json", Array((JSONValue.object(renamed).serialized + "\n").utf8))
            else { return false }
        }
        let snapshotStore = SnapshotStore(dataDirectory: directory)
        for index in 0..<snapshots {
            let time = started + Double(index) * 60
            var snapshot = Snapshot(id: snapshotStore.newID(time: time), timestamp: time, name: "Col \(index)", notes: "")
            (snapshot.latitude, snapshot.longitude, snapshot.pressure) = (46.0, 7.0, 795.2)
            guard (try? snapshotStore.save(snapshot)) != nil else { return false }
        }
        return true
    }

    /// This process's CPU time so far: user and system together, and system alone.
    static func cpuSeconds() -> (total: Double, system: Double) {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let system = Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
        return (Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + system, system)
    }
}
