/// What a backup (`lodestone export-all`) carries: every store the device keeps under its data
/// directory, one row each, with how its files form items and how `import-all --merge` joins
/// an archive's items to those already there. A store added later is one more row.
///
/// Left out on purpose: `mqtt-outbox.rec` (messages this device owes its broker; sent from
/// another device, or after a restore, they would arrive late and twice), the run's lock, the
/// temporary files of an atomic write, and the `*.damaged-*` copies a repair set aside.
public struct BackupStore: Sendable, Equatable {
    /// How the store's files make items.
    public enum Shape: Sendable, Equatable {
        /// One file at `path`.
        case file
        /// Files in the folder `path`, an item being every file of one id (`<id>.track` with
        /// `<id>.json`): the id is the name up to the first of `suffixes` it ends with.
        case items(suffixes: [String])
        /// Folders in the folder `path`, each one item (a logging session's segments).
        case folders
        /// The folder `path` as one whole (a timetable is complete or it is not).
        case whole
    }

    /// What `--merge` does with an archive's item whose id is taken by a different one.
    public enum Merge: Sendable, Equatable {
        /// Kept under a new id (`-2`, `-3`...); `idField` names the member of a JSON file that
        /// repeats the id and is rewritten with it.
        case newID(idField: String?)
        /// The device's own is kept (a setting, a calibration, a rolling history: there is one).
        case keepPresent
        /// Joined record by record (`alerts.rec`): records not already there are appended.
        case records
        /// Joined waypoint by waypoint (by name; a different place under a taken name is renamed).
        case waypoints
        /// Not restored: a copy for other programs (GPX), checked but never written.
        case readableCopy
    }

    /// The path under the data directory (and in the archive).
    public var path: String
    public var shape: Shape
    public var merge: Merge
    /// The largest file of this store an import takes (bytes), checked before reading it.
    public var largestFile: Int
    /// Carried only when asked for (`--with-timetable`).
    public var optional = false
}

public enum BackupStores {
    /// Every store, in the order an archive carries them.
    public static let all: [BackupStore] = [
        BackupStore(path: "tracks", shape: .items(suffixes: [".track", ".json"]), merge: .newID(idField: "id"), largestFile: 256 << 20),
        BackupStore(path: "waypoints.json", shape: .file, merge: .waypoints, largestFile: 16 << 20),
        BackupStore(path: "logs", shape: .folders, merge: .newID(idField: nil), largestFile: 64 << 20),
        BackupStore(path: "snapshots", shape: .items(suffixes: [".json"]), merge: .newID(idField: "id"), largestFile: 1 << 20),
        // Photos are named by their time and a track's records name them: one already here is kept.
        BackupStore(path: "photos", shape: .items(suffixes: [".jpg"]), merge: .keepPresent, largestFile: 64 << 20),
        BackupStore(path: "alerts.json", shape: .file, merge: .keepPresent, largestFile: 1 << 20),
        BackupStore(path: "alerts.rec", shape: .file, merge: .records, largestFile: 256 << 20),
        BackupStore(path: "history.bin", shape: .file, merge: .keepPresent, largestFile: 64 << 20),
        BackupStore(path: "calibration", shape: .items(suffixes: [".json"]), merge: .keepPresent, largestFile: 64 << 10),
        BackupStore(path: "activity.json", shape: .file, merge: .keepPresent, largestFile: 64 << 10),
        BackupStore(path: "display.json", shape: .file, merge: .keepPresent, largestFile: 4 << 10),
        BackupStore(path: "last-position.json", shape: .file, merge: .keepPresent, largestFile: 4 << 10),
        BackupStore(path: "private-places", shape: .file, merge: .keepPresent, largestFile: 1 << 20),
        BackupStore(path: "timetable-favourites.json", shape: .file, merge: .keepPresent, largestFile: 1 << 20),
        BackupStore(path: "timetable-marks.csv", shape: .file, merge: .keepPresent, largestFile: 1 << 20),
        BackupStore(path: "timetable", shape: .whole, merge: .keepPresent, largestFile: 256 << 20, optional: true),
        BackupStore(path: "gpx", shape: .items(suffixes: [".gpx"]), merge: .readableCopy, largestFile: 512 << 20)
    ]

    /// The file names a backup may hold: letters, digits, '-', '_' and '.', not leading, at most
    /// 64 bytes; nothing that could climb out of its folder or hide.
    public static func isSafeName(_ name: Substring) -> Bool {
        guard !name.isEmpty, name.utf8.count <= 64, name.first != "." else { return false }
        return name.utf8.allSatisfy { c in
            (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || (c >= 0x30 && c <= 0x39) || c == 0x2D || c == 0x5F || c == 0x2E
        }
    }

    /// Where an archive path belongs: its store, its item's id (the store's path for a single
    /// file or a whole folder) and its file name; nil for a path no store holds, an unsafe name
    /// (`../x`, `/etc/x`, `.hidden`), one too deep, or one longer than a tar header's 100 bytes.
    public static func locate(_ path: String) -> (store: BackupStore, item: String, name: String)? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard path.utf8.count <= 100, !path.hasPrefix("/"), parts.allSatisfy(isSafeName), let top = parts.first,
            let store = all.first(where: { $0.path == top })
        else { return nil }
        switch store.shape {
        case .file:
            return parts.count == 1 ? (store, store.path, store.path) : nil
        case .whole:
            return parts.count == 2 ? (store, store.path, String(parts[1])) : nil
        case .folders:
            return parts.count == 3 ? (store, String(parts[1]), String(parts[2])) : nil
        case .items(let suffixes):
            guard parts.count == 2, let suffix = suffixes.first(where: { parts[1].hasSuffix($0) && parts[1].count > $0.count }) else { return nil }
            return (store, String(parts[1].dropLast(suffix.count)), String(parts[1]))
        }
    }
}
