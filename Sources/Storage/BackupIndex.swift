import LodestoneCore

/// One archive file of an item: its name in the store and where it is in the archive.
struct ArchivedFile {
    var name: String
    var entry: TarReader.Entry
    var file: BackupManifest.File
}

/// An item of a store in an archive: its id and its files, in archive order.
typealias ArchivedItem = (id: String, files: [ArchivedFile])

/// The archive's files grouped by store and item, made in one pass over the archive, so an
/// import of N files looks each up once rather than scanning the archive per store or item.
struct BackupIndex {
    /// By store path: the store's items in archive order.
    private var byStore: [String: [ArchivedItem]] = [:]

    init(_ backup: CheckedBackup) {
        var position: [String: [String: Int]] = [:]
        for (entry, file) in backup.files {
            guard let located = BackupStores.locate(entry.name) else { continue }
            let archived = ArchivedFile(name: located.name, entry: entry, file: file)
            if let index = position[located.store.path]?[located.item] {
                byStore[located.store.path]?[index].files.append(archived)
            } else {
                position[located.store.path, default: [:]][located.item] = byStore[located.store.path, default: []].count
                byStore[located.store.path, default: []].append((located.item, [archived]))
            }
        }
    }

    func items(of store: BackupStore) -> [ArchivedItem] { byStore[store.path] ?? [] }
}

/// The files of one store already in the data directory, by item id, listed once per store
/// (one directory read for a store of files, one per folder for a store of folders).
struct LocalIndex {
    private(set) var byID: [String: [String]] = [:]

    init() {}

    init(_ store: BackupStore, in directory: String) {
        let folder = directory + "/" + store.path
        switch store.shape {
        case .file:
            if PersonalData.isRegularFile(folder) { byID[store.path] = [store.path] }
        case .whole:
            let names = directoryEntries(folder).filter { PersonalData.isRegularFile(folder + "/" + $0) }
            if !names.isEmpty { byID[store.path] = names.sorted() }
        case .folders:
            for id in directoryEntries(folder) where BackupStores.isSafeName(Substring(id)) {
                let names = directoryEntries(folder + "/" + id).filter { PersonalData.isRegularFile(folder + "/" + id + "/" + $0) }
                if !names.isEmpty { byID[id] = names.sorted() }
            }
        case .items:
            for name in directoryEntries(folder) {
                guard let located = BackupStores.locate(store.path + "/" + name) else { continue }
                byID[located.item, default: []].append(name)
            }
            for id in byID.keys { byID[id]?.sort() }
        }
    }

    /// The item's files here, by name, sorted; empty when it is not here.
    func files(_ id: String) -> [String] { byID[id] ?? [] }

    /// Records an item just written, so a later item of the same import sees it taken.
    mutating func wrote(_ id: String, _ names: [String]) {
        byID[id] = Array(Set(files(id) + names)).sorted()
    }
}
