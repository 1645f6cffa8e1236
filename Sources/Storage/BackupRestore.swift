import Glibc
import LodestoneCore
import LodestoneEncoding

/// Puts a checked backup (`CheckedBackup`) into a data directory, store by store as
/// `BackupStores.all` says, every file written through `replaceFile` (whole, then renamed into
/// place). `merge` never overwrites: an item already there is skipped, a different item under
/// a taken id is kept under a new one. `replace` makes each store the archive's.
public enum BackupRestore {
    public enum Mode: String, Sendable { case merge, replace }

    /// What an import did, item by item ("tracks/20260621-080000", "calibration/level",
    /// "waypoints/Hut", "history.bin").
    public struct Summary: Sendable, Equatable {
        public var imported: [String] = []
        public var renamed: [Renamed] = []
        public var skipped: [Skipped] = []
        public var removed: [String] = []
        public init() {}

        public struct Renamed: Sendable, Equatable { public var from: String, to: String }
        public struct Skipped: Sendable, Equatable { public var item: String, reason: String }
    }

    /// A failure half-way (a full disk): what was done before it is in `summary`; or a
    /// refusal before anything was written (`nothingChanged`: a file this device cannot read,
    /// a replace whose staging failed).
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
        public var summary: Summary
        public var nothingChanged = false
    }

    /// `progress`: the store being restored, and how many of the stores are done.
    public static func restore(
        _ backup: CheckedBackup, into dataDirectory: String, mode: Mode,
        progress: ((_ store: String, _ done: Int, _ total: Int) -> Void)? = nil
    ) throws(Failure) -> Summary {
        var restorer = Restorer(backup: backup, directory: dataDirectory, mode: mode)
        let carried = BackupStores.all.filter { $0.merge != .readableCopy && (!$0.optional || backup.manifest.withTimetable) }
        if mode == .merge {
            do { try restorer.check(carried) } catch {
                throw Failure(description: error.description, summary: BackupRestore.Summary(), nothingChanged: true)
            }
        }
        do {
            if mode == .replace {
                // Each file is checked as it is staged: nothing is switched in before all are.
                try restorer.replaceAll(carried, progress: progress)
            } else {
                for (index, store) in carried.enumerated() {
                    progress?(store.path, index, carried.count)
                    try restorer.restore(store)
                }
            }
        } catch {
            throw Failure(description: error.description, summary: restorer.summary, nothingChanged: mode == .replace && !restorer.switching)
        }
        return restorer.summary
    }
}

typealias Loader = (name: String, bytes: () throws(StorageError) -> [UInt8])

struct Restorer {
    let backup: CheckedBackup
    let directory: String
    let mode: BackupRestore.Mode
    let index: BackupIndex
    var summary = BackupRestore.Summary()
    /// The store being restored: its files here, and its item ids in the archive.
    var local = LocalIndex()
    var archiveIDs = Set<String>()
    /// A replace has begun to switch its stores in (the journal is being written).
    var switching = false

    init(backup: CheckedBackup, directory: String, mode: BackupRestore.Mode) {
        (self.backup, self.directory, self.mode) = (backup, directory, mode)
        index = BackupIndex(backup)
    }

    /// Every file of the stores carried, read as its store's reader reads it, before anything
    /// is written: one this device could not read refuses the whole archive.
    func check(_ stores: [BackupStore]) throws(StorageError) {
        for store in stores {
            for item in index.items(of: store) {
                for file in item.files { _ = try checkedContents(store, file) }
            }
        }
    }

    /// A file's bytes, once its store's reader has read them; a file it refuses refuses the
    /// whole archive.
    func checkedContents(_ store: BackupStore, _ file: ArchivedFile) throws(StorageError) -> [UInt8] {
        let bytes = try contents(file)
        if let problem = BackupCheck.problem(path: file.entry.name, store: store, name: file.name, bytes: bytes) {
            throw StorageError("the archive is refused: \(problem)")
        }
        return bytes
    }

    /// The folder holding an item's files in the data directory.
    func folder(_ store: BackupStore, _ id: String) -> String {
        switch store.shape {
        case .file: return directory
        case .items, .whole: return directory + "/" + store.path
        case .folders: return directory + "/" + store.path + "/" + id
        }
    }

    func label(_ store: BackupStore, _ id: String) -> String {
        store.shape == .file || store.shape == .whole ? store.path : store.path + "/" + id
    }

    func contents(_ file: ArchivedFile) throws(StorageError) -> [UInt8] {
        try Self.contents(backup, file)
    }

    static func contents(_ backup: CheckedBackup, _ file: ArchivedFile) throws(StorageError) -> [UInt8] {
        do { return try backup.contents(file.entry, file.file) } catch { throw StorageError(error.description) }
    }

    /// An item's files, each read from the archive only when wanted (one at a time).
    func loaders(_ files: [ArchivedFile]) -> [Loader] {
        let backup = backup
        return files.map { file in (name: file.name, bytes: { () throws(StorageError) -> [UInt8] in try Self.contents(backup, file) }) }
    }

    /// The same, under a new id: names and the id member of JSON files changed to it.
    func loaders(_ files: [ArchivedFile], from id: String, to candidate: String, idField: String?) -> [Loader] {
        let backup = backup
        return files.map { file in
            (
                name: candidate + file.name.dropFirst(id.count),
                bytes: { () throws(StorageError) -> [UInt8] in Self.renamingID(try Self.contents(backup, file), to: candidate, field: idField, name: file.name)
                }
            )
        }
    }

    /// Whether the item in the data directory is this one, file for file (read one at a time).
    func same(_ store: BackupStore, _ id: String, as files: [Loader]) throws(StorageError) -> Bool {
        guard local.files(id) == files.map(\.name).sorted() else { return false }
        for file in files {
            guard let present = try? readStoreBytes(folder(store, id) + "/" + file.name), try file.bytes() == present else { return false }
        }
        return true
    }

    func write(_ path: String, _ bytes: [UInt8]) throws(StorageError) {
        let parent = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        guard parent.isEmpty || makeDirectories(parent) else { throw StorageError("cannot create \(parent): \(String(cString: strerror(errno)))") }
        do { try replaceFile(path, with: bytes) } catch { throw StorageError(error.description) }
    }

    mutating func restore(_ store: BackupStore) throws(StorageError) {
        let items = index.items(of: store)
        local = LocalIndex(store, in: directory)
        archiveIDs = Set(items.map(\.id))
        switch store.merge {
        case .readableCopy: return
        case .newID(let idField): for item in items { try mergeNewID(store, item, idField: idField) }
        case .keepPresent: for item in items { try mergeKeeping(store, item) }
        case .records: for item in items { try mergeRecords(store, item) }
        case .waypoints: for item in items { try mergeWaypoints(store, item) }
        }
    }

    // MARK: merge

    mutating func mergeNewID(_ store: BackupStore, _ item: (id: String, files: [ArchivedFile]), idField: String?) throws(StorageError) {
        let archived = loaders(item.files)
        if local.files(item.id).isEmpty {
            try writeItem(store, item.id, archived)
            summary.imported.append(label(store, item.id))
            return
        }
        if try same(store, item.id, as: archived) {
            summary.skipped.append(.init(item: label(store, item.id), reason: "already there"))
            return
        }
        if store.path == "tracks" && item.id == "recording" {
            try fileRecording(item.files)
            return
        }
        for number in 2...1000 {
            let candidate = item.id + "-\(number)"
            guard !archiveIDs.contains(candidate) else { continue }
            let renamed = loaders(item.files, from: item.id, to: candidate, idField: idField)
            if local.files(candidate).isEmpty {
                try writeItem(store, candidate, renamed)
                summary.renamed.append(.init(from: label(store, item.id), to: label(store, candidate)))
                return
            }
            if try same(store, candidate, as: renamed) {
                summary.skipped.append(.init(item: label(store, item.id), reason: "already there as \(label(store, candidate))"))
                return
            }
        }
        summary.skipped.append(.init(item: label(store, item.id), reason: "no free id under \(item.id)-1000"))
    }

    /// A recording in the archive beside a different one in progress here: filed as a stopped
    /// track under its own id (the one here goes on recording), unless that track is here.
    mutating func fileRecording(_ files: [ArchivedFile]) throws(StorageError) {
        guard let file = files.first(where: { $0.name == "recording.track" }) else { return }
        let bytes = try contents(file)
        let tracks = TrackStore(dataDirectory: directory)
        for name in directoryEntries(tracks.directory) where name.hasSuffix(".track") && name != "recording.track" {
            if PersonalData.regularFileSize(tracks.directory + "/" + name) == bytes.count, (try? readStoreBytes(tracks.directory + "/" + name)) == bytes {
                summary.skipped.append(.init(item: "tracks/recording", reason: "already there as tracks/\(name.dropLast(6))"))
                return
            }
        }
        let temporary = tracks.directory + "/recording.import-\(getpid()).track"
        try write(temporary, bytes)
        defer { unlink(temporary) }
        guard let recording = TrackRecording(recovering: temporary), let filed = tracks.file(recording) else {
            throw StorageError("cannot file the archive's recording in \(tracks.directory)")
        }
        summary.renamed.append(.init(from: "tracks/recording", to: "tracks/" + filed.id))
    }

    mutating func mergeKeeping(_ store: BackupStore, _ item: (id: String, files: [ArchivedFile])) throws(StorageError) {
        let archived = loaders(item.files)
        if local.files(item.id).isEmpty {
            try writeItem(store, item.id, archived)
            summary.imported.append(label(store, item.id))
        } else if try same(store, item.id, as: archived) {
            summary.skipped.append(.init(item: label(store, item.id), reason: "already there"))
        } else {
            summary.skipped.append(.init(item: label(store, item.id), reason: "this device's own is kept (--replace takes the archive's)"))
        }
    }

    mutating func mergeRecords(_ store: BackupStore, _ item: (id: String, files: [ArchivedFile])) throws(StorageError) {
        guard let file = item.files.first else { return }
        let path = directory + "/" + store.path
        let incoming = try contents(file)
        guard let present = try? readStoreBytes(path) else {
            try write(path, incoming)
            summary.imported.append(store.path)
            return
        }
        let here = RecordLog.parse(present).records
        let known = Set(here.map { SHA256.hex($0) })
        let added = RecordLog.parse(incoming).records.filter { !known.contains(SHA256.hex($0)) }
        guard !added.isEmpty else {
            summary.skipped.append(.init(item: store.path, reason: "already there"))
            return
        }
        try write(path, (here + added).flatMap(RecordLog.framed))
        summary.imported.append(store.path + " (\(added.count) records added)")
    }

    mutating func mergeWaypoints(_ store: BackupStore, _ item: (id: String, files: [ArchivedFile])) throws(StorageError) {
        guard let file = item.files.first else { return }
        let waypoints = WaypointStore(dataDirectory: directory)
        let incoming = try contents(file)
        guard fileExists(waypoints.path) else {
            try write(waypoints.path, incoming)
            summary.imported.append(store.path)
            return
        }
        guard let json = try? JSONValue.parse(String(decoding: incoming, as: UTF8.self)), let list = json.arrayValue else {
            summary.skipped.append(.init(item: store.path, reason: "the archive's waypoints cannot be read"))
            return
        }
        let before = waypoints.load()
        let result: WaypointStore.ImportSummary
        do { result = try waypoints.importing(list.compactMap(WaypointStore.waypoint)) } catch { throw StorageError(error.description) }
        // The import appends: what is new is after what was there, under its name or a new one.
        let names = Set(list.compactMap { $0["name"]?.stringValue })
        for waypoint in waypoints.load().dropFirst(before.count) {
            if names.contains(waypoint.name) {
                summary.imported.append("waypoints/" + waypoint.name)
            } else if let open = waypoint.name.lastIndex(of: "("), open > waypoint.name.startIndex {
                summary.renamed.append(.init(from: "waypoints/" + waypoint.name[..<waypoint.name.index(before: open)], to: "waypoints/" + waypoint.name))
            }
        }
        if result.unchanged > 0 { summary.skipped.append(.init(item: "waypoints", reason: "\(result.unchanged) already there")) }
    }

    // MARK: writing

    mutating func writeItem(_ store: BackupStore, _ id: String, _ files: [Loader]) throws(StorageError) {
        local.wrote(id, files.map(\.name))
        if store.shape == .whole {
            try writeWhole(store, files)
            return
        }
        // A track's summary goes last: a track without its summary is still listed (rebuilt),
        // a summary without its track is not.
        for file in files.sorted(by: { ($0.name.hasSuffix(".json") ? 1 : 0) < ($1.name.hasSuffix(".json") ? 1 : 0) }) {
            try write(folder(store, id) + "/" + file.name, try file.bytes())
        }
    }

    func writeWhole(_ store: BackupStore, _ files: [Loader]) throws(StorageError) {
        let target = directory + "/" + store.path
        let fresh = target + ".import-\(getpid())"
        let old = target + ".replaced-\(getpid())"
        removeTree(fresh)
        do {
            for file in files { try write(fresh + "/" + file.name, try file.bytes()) }
        } catch {
            removeTree(fresh)
            throw error
        }
        let hadOne = fileExists(target)
        guard !hadOne || rename(target, old) == 0 else {
            removeTree(fresh)
            throw StorageError("cannot move \(target) aside: \(String(cString: strerror(errno)))")
        }
        guard rename(fresh, target) == 0 else {
            let reason = String(cString: strerror(errno))
            if hadOne { _ = rename(old, target) }
            removeTree(fresh)
            throw StorageError("cannot move the archive's \(store.path) into place: \(reason)")
        }
        if hadOne { removeTree(old) }
    }

    /// A renamed item's JSON file with its id member changed to the new id; other files as they are.
    static func renamingID(_ bytes: [UInt8], to id: String, field: String?, name: String) -> [UInt8] {
        guard let field, name.hasSuffix(".json"), let json = try? JSONValue.parse(String(decoding: bytes, as: UTF8.self)),
            case .object(var members) = json, let index = members.firstIndex(where: { $0.0 == field })
        else { return bytes }
        members[index].1 = .string(id)
        return Array((JSONValue.object(members).serialized + "\n").utf8)
    }
}
