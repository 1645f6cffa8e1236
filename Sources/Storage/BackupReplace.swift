import CLinux
import Glibc
import LodestoneCore

/// `import-all --replace`, all or nothing: every store that changes is written whole into
/// the staging folder, then the journal switches them in (see `ImportJournal`). Until the
/// journal is written the data directory is untouched; a failure before it (a full disk)
/// removes the staging and leaves the data directory as it was.
extension Restorer {
    var stagingFolder: String { directory + "/" + ImportJournal.staging }

    mutating func replaceAll(_ stores: [BackupStore], progress: ((_ store: String, _ done: Int, _ total: Int) -> Void)?) throws(StorageError) {
        removeTree(stagingFolder)
        removeTree(directory + "/" + ImportJournal.replaced)
        var stager = Stager(root: stagingFolder)
        var entries: [ImportJournal.Entry] = []
        do throws(StorageError) {
            guard makeDirectories(stagingFolder) else { throw StorageError("cannot create \(stagingFolder): \(String(cString: strerror(errno)))") }
            for (index, store) in stores.enumerated() {
                progress?(store.path, index, stores.count)
                if let entry = try stage(store, into: &stager) { entries.append(entry) }
            }
            try stager.flush()
        } catch {
            removeTree(stagingFolder)
            summary = BackupRestore.Summary()
            throw error
        }
        guard !entries.isEmpty else {
            removeTree(stagingFolder)
            return
        }
        switching = true
        try ImportJournal.switchIn(entries, dataDirectory: directory)
    }

    /// Stages a store that differs from the one here; nil when it is the same (left as it is).
    private mutating func stage(_ store: BackupStore, into stager: inout Stager) throws(StorageError) -> ImportJournal.Entry? {
        let items = index.items(of: store)
        local = LocalIndex(store, in: directory)
        let target = directory + "/" + store.path, staged = stagingFolder + "/" + store.path
        var changed = false
        for item in items {
            if try same(store, item.id, as: loaders(item.files)) {
                summary.skipped.append(.init(item: label(store, item.id), reason: "already there"))
            } else {
                summary.imported.append(label(store, item.id))
                changed = true
            }
        }
        // What the archive does not hold goes: the store becomes the archive's.
        let kept = Set(items.map(\.id))
        let gone = local.byID.keys.filter { !kept.contains($0) }.sorted()
        summary.removed += gone.map { label(store, $0) }
        changed = changed || !gone.isEmpty
        if store.shape == .whole && items.isEmpty && fileExists(target) && local.byID.isEmpty {
            summary.removed.append(store.path)
            changed = true
        }
        guard changed else {
            // Left as it is, but its files are read as a changed store's are: an archive is
            // refused for the same files whatever the data directory holds.
            for item in items { for file in item.files { _ = try checkedContents(store, file) } }
            return nil
        }
        switch store.shape {
        case .file:
            guard let file = items.first?.files.first else { return ImportJournal.Entry(path: store.path, present: false) }
            try stager.file(staged, try checkedContents(store, file))
            return ImportJournal.Entry(path: store.path, present: true)
        case .whole:
            guard !items.isEmpty else { return ImportJournal.Entry(path: store.path, present: false) }
            try stager.folder(staged)
            for item in items { for file in item.files { try stager.file(staged + "/" + file.name, try checkedContents(store, file)) } }
        case .items:
            try stager.folder(staged)
            // Another item's summary is written after its track, as a save writes them.
            for item in items {
                for file in item.files.sorted(by: { ($0.name.hasSuffix(".json") ? 1 : 0) < ($1.name.hasSuffix(".json") ? 1 : 0) }) {
                    try stager.file(staged + "/" + file.name, try checkedContents(store, file))
                }
            }
            try keepOthers(store, from: target, into: staged, stager: &stager)
        case .folders:
            try stager.folder(staged)
            for item in items {
                try stager.folder(staged + "/" + item.id)
                for file in item.files { try stager.file(staged + "/" + item.id + "/" + file.name, try checkedContents(store, file)) }
            }
            try keepOthers(store, from: target, into: staged, stager: &stager)
        }
        return ImportJournal.Entry(path: store.path, present: true)
    }

    /// Files in a store's folder that are no item of it (a damaged copy set aside for the
    /// person, `NAME.damaged-STAMP`) stay: linked into the staged folder, or copied where the
    /// file system has no links.
    private func keepOthers(_ store: BackupStore, from folder: String, into staged: String, stager: inout Stager) throws(StorageError) {
        for name in directoryEntries(folder) where PersonalData.isRegularFile(folder + "/" + name) {
            // A store of folders has no items among its files; a store of files names its own.
            if store.shape != .folders && BackupStores.locate(store.path + "/" + name) != nil { continue }
            guard link(folder + "/" + name, staged + "/" + name) != 0 else { continue }
            let bytes: [UInt8]
            do { bytes = try readStoreBytes(folder + "/" + name) } catch { throw StorageError(error.description) }
            try stager.file(staged + "/" + name, bytes)
        }
    }
}

/// Writes the staging folder: each file created new (never through a link, never over
/// another) and written; then the whole file system flushed once (`syncfs`), which costs
/// less than a flush per file and folder and leaves every staged file and folder on the disk
/// before the journal that names them is written.
struct Stager {
    let root: String
    private(set) var folders: Set<String> = []

    init(root: String) {
        self.root = root
        folders.insert(root)
    }

    mutating func folder(_ path: String) throws(StorageError) {
        guard !folders.contains(path) else { return }
        guard mkdir(path, 0o700) == 0 || errno == EEXIST else { throw StorageError("cannot create \(path): \(String(cString: strerror(errno)))") }
        folders.insert(path)
    }

    /// Flushes everything staged to the disk.
    func flush() throws(StorageError) {
        let fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw StorageError("cannot open \(root): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        CrashPoint.step("fsync")
        guard lodestone_syncfs(fd) == 0 else { throw StorageError("cannot flush \(root) to the disk: \(String(cString: strerror(errno)))") }
    }

    func file(_ path: String, _ bytes: [UInt8]) throws(StorageError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw StorageError(WriteFailure(path: path, errno: errno).description) }
        let failure = bytes.withUnsafeBytes { writeWhole(fd, $0, path: path) }
        close(fd)
        guard failure == 0 else { throw StorageError(WriteFailure(path: path, errno: failure).description) }
    }
}
