import Glibc
import LodestoneCore

/// Everything the device stores about where its person has been, as one archive to take away
/// (`lodestone export-all`) or to be forgotten (`lodestone forget-all`).
public enum PersonalData {
    /// What an archive holds, counted.
    public struct Contents: Sendable, Equatable {
        public var tracks = 0, waypoints = 0, logs = 0, snapshots = 0
        public var logSessions = 0, alerts = 0, files = 0, photos = 0
    }

    /// A tar archive of everything the device keeps (every store of `BackupStores.all`, the
    /// timetable only when asked), each file as stored, so that `import-all` restores it; a GPX
    /// copy of every track and of the waypoints for other programs; and first of all
    /// `manifest.json` with each file's path, size and SHA-256.
    /// Private tracks are left out (and said) unless `withPrivate`.
    /// `progress`: the store being read, and how many of the stores are done.
    public static func archive(
        dataDirectory: String, now: Double, withTimetable: Bool = false, withPrivate: Bool = false,
        progress: ((_ store: String, _ done: Int, _ total: Int) -> Void)? = nil
    )
        -> (bytes: [UInt8], contents: Contents, warnings: [String])
    {
        var files: [(path: String, bytes: [UInt8])] = []
        var warnings: [String] = []
        let trackStore = TrackStore(dataDirectory: dataDirectory)
        let privateTracks = withPrivate ? [] : Set(trackStore.list().filter(\.isPrivate).map(\.id))
        // A private track's photos stay with it.
        let privatePhotos = Set(privateTracks.flatMap { trackStore.photos(id: $0).map(\.file) })
        if !privateTracks.isEmpty {
            warnings.append("\(privateTracks.count) private track\(privateTracks.count == 1 ? " is" : "s are") left out (--with-private carries them)")
        }
        let carried = BackupStores.all.filter { $0.merge != .readableCopy && (!$0.optional || withTimetable) }
        for (index, store) in carried.enumerated() {
            progress?(store.path, index, carried.count)
            for path in storedFiles(store, dataDirectory: dataDirectory, warnings: &warnings) {
                if store.path == "tracks", let located = BackupStores.locate(path), privateTracks.contains(located.item) { continue }
                if store.path == "photos", let located = BackupStores.locate(path), privatePhotos.contains(located.name) { continue }
                let full = dataDirectory + "/" + path
                guard let size = regularFileSize(full) else { continue }
                guard size <= store.largestFile else {
                    warnings.append("\(full) is larger (\(size) bytes) than a backup carries for \(store.path) (\(store.largestFile)): left out")
                    continue
                }
                guard let bytes = try? readStoreBytes(full) else {
                    warnings.append("\(full) cannot be read: left out")
                    continue
                }
                files.append((path, bytes))
            }
        }
        var contents = Contents()
        for (path, bytes) in files {
            guard let located = BackupStores.locate(path) else { continue }
            switch located.store.path {
            case "tracks" where located.name.hasSuffix(".track") && located.name != "recording.track": contents.tracks += 1
            case "logs": contents.logs += 1
            case "snapshots": contents.snapshots += 1
            case "photos": contents.photos += 1
            case "alerts.rec": contents.alerts = RecordLog.parse(bytes).records.count
            default: break
            }
        }
        contents.logSessions = Set(files.compactMap { BackupStores.locate($0.path).flatMap { $0.store.path == "logs" ? $0.item : nil } }).count
        // Readable copies for other programs, beside the stored files.
        let tracks = TrackStore(dataDirectory: dataDirectory)
        let (summaries, trackWarnings) = tracks.listReporting()
        warnings += trackWarnings
        for summary in summaries.sorted(by: { $0.id < $1.id }) where BackupStores.locate("gpx/\(summary.id).gpx") != nil && !privateTracks.contains(summary.id)
        {
            if let gpx = tracks.export(id: summary.id, format: "gpx", summary: summary) { files.append(("gpx/\(summary.id).gpx", Array(gpx.utf8))) }
        }
        let waypoints = WaypointStore(dataDirectory: dataDirectory).loadLogging()
        if !waypoints.isEmpty { files.append(("gpx/waypoints.gpx", Array(WaypointStore.gpx(waypoints).utf8))) }
        contents.waypoints = waypoints.count
        contents.files = files.count

        let manifest = BackupManifest(
            created: CivilTime(unixSeconds: now).iso8601, by: Version.line, withTimetable: withTimetable,
            counts: [
                ("tracks", contents.tracks), ("waypoints", contents.waypoints), ("logSessions", contents.logSessions),
                ("logFiles", contents.logs), ("snapshotFiles", contents.snapshots), ("alerts", contents.alerts)
            ],
            files: files.map { BackupManifest.File(path: $0.path, size: $0.bytes.count, sha256: SHA256.hex($0.bytes)) })
        var tar = TarArchive()
        tar.add(BackupManifest.name, Array(manifest.json.utf8), modified: now)
        for (path, bytes) in files { tar.add(path, bytes, modified: now) }
        return (tar.finished, contents, warnings)
    }

    /// The paths (under the data directory) of a store's files, in a stable order; a file whose
    /// name a backup cannot carry is said and left out.
    static func storedFiles(_ store: BackupStore, dataDirectory: String, warnings: inout [String]) -> [String] {
        func files(in folder: String) -> [String] {
            directoryEntries(dataDirectory + "/" + folder).sorted().compactMap { name in
                let path = folder + "/" + name
                guard isRegularFile(dataDirectory + "/" + path) else { return nil }
                guard BackupStores.locate(path) != nil else {
                    warnings.append("\(dataDirectory)/\(path) is not a file a backup carries: left out")
                    return nil
                }
                return path
            }
        }
        switch store.shape {
        case .file: return isRegularFile(dataDirectory + "/" + store.path) ? [store.path] : []
        case .items, .whole: return files(in: store.path)
        case .folders:
            return directoryEntries(dataDirectory + "/" + store.path).sorted().flatMap { name -> [String] in
                var status = stat()
                guard lstat(dataDirectory + "/" + store.path + "/" + name, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else { return [] }
                guard BackupStores.isSafeName(Substring(name)) else {
                    warnings.append("\(dataDirectory)/\(store.path)/\(name) is not a name a backup carries: left out")
                    return []
                }
                return files(in: store.path + "/" + name)
            }
        }
    }

    static func regularFileSize(_ path: String) -> Int? {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return Int(info.st_size)
    }

    /// The records `forget-all` deletes: where the person has been and what they did there.
    /// The calibrations and the settings (alert rules, display choice) are kept.
    public static let recordPaths = [
        "tracks", "photos", "waypoints.json", "logs", "snapshots", "history.bin", "alerts.rec",
        "activity.json", "last-position.json", "mqtt-outbox.rec"
    ]

    /// Deletes every stored record; returns what was there and is gone.
    public static func forget(dataDirectory: String) -> [String] {
        var removed: [String] = []
        for name in recordPaths {
            let path = dataDirectory + "/" + name
            var info = stat()
            guard lstat(path, &info) == 0 else { continue }
            if info.st_mode & S_IFMT == S_IFDIR { removeTree(path) } else { unlink(path) }
            removed.append(name)
        }
        return removed
    }

    static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }
}
