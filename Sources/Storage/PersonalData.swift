import Glibc
import LodestoneCore
import LodestoneOutputs

/// Everything the device stores about where its person has been, as one archive to take away
/// (`lodestone export-all`) or to be forgotten (`lodestone forget-all`).
public enum PersonalData {
    /// What an archive holds, counted.
    public struct Contents: Sendable, Equatable {
        public var tracks = 0, waypoints = 0, logs = 0, snapshots = 0
    }

    /// A tar archive of every track (GPX, and its summary), the waypoints (GPX), every log
    /// session and snapshot (their files as stored), and a manifest.
    public static func archive(dataDirectory: String, now: Double) -> (bytes: [UInt8], contents: Contents, warnings: [String]) {
        var tar = TarArchive()
        var contents = Contents()
        var warnings: [String] = []
        let tracks = TrackStore(dataDirectory: dataDirectory)
        let (summaries, trackWarnings) = tracks.listReporting()
        warnings += trackWarnings
        for summary in summaries.sorted(by: { $0.id < $1.id }) {
            guard let gpx = tracks.export(id: summary.id, format: "gpx") else { continue }
            tar.add("tracks/\(summary.id).gpx", Array(gpx.utf8), modified: summary.started)
            if let json = readFileBytes(tracks.directory + "/" + summary.id + ".json") {
                tar.add("tracks/\(summary.id).json", json, modified: summary.started)
            }
            contents.tracks += 1
        }
        let waypoints = WaypointStore(dataDirectory: dataDirectory).loadLogging()
        if !waypoints.isEmpty {
            tar.add("waypoints.gpx", Array(WaypointStore.gpx(waypoints).utf8), modified: now)
            contents.waypoints = waypoints.count
        }
        for (folder, count) in [("logs", \Contents.logs), ("snapshots", \Contents.snapshots)] {
            let directory = dataDirectory + "/" + folder
            for name in directoryEntries(directory).sorted() where isRegularFile(directory + "/" + name) {
                guard let bytes = readFileBytes(directory + "/" + name) else {
                    warnings.append("\(directory)/\(name) cannot be read: left out")
                    continue
                }
                tar.add("\(folder)/\(name)", bytes, modified: now)
                contents[keyPath: count] += 1
            }
        }
        var manifest = JSONObjectWriter()
        manifest.string("created", CivilTime(unixSeconds: now).iso8601)
        manifest.string("by", Version.line)
        manifest.integer("tracks", contents.tracks)
        manifest.integer("waypoints", contents.waypoints)
        manifest.integer("logFiles", contents.logs)
        manifest.integer("snapshotFiles", contents.snapshots)
        tar.add("manifest.json", Array((manifest.finished + "\n").utf8), modified: now)
        return (tar.finished, contents, warnings)
    }

    /// The records `forget-all` deletes: where the person has been and what they did there.
    /// The calibrations and the settings (alert rules, display choice) are kept.
    public static let recordPaths = ["tracks", "waypoints.json", "logs", "snapshots", "history.bin", "alerts.rec",
                                     "activity.json", "last-position.json", "mqtt-outbox.rec"]

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
