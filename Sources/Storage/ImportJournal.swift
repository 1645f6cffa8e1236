import Glibc
import LodestoneCore

/// How `import-all --replace` switches a whole archive in, all or nothing. Each store is first
/// written whole into `<dataDir>/.import-staging` (the same file system, so a rename moves it
/// in one step); then the journal `<dataDir>/.import-journal` lists the stores to switch, and
/// is written and flushed before the first rename; then each store here is renamed aside into
/// `.import-replaced` and the staged one renamed into its place; last the journal is removed.
/// A process stopped at any instant (kill -9, a power cut) leaves either staging without a
/// journal (nothing switched yet: the staging is removed, the import rolled back) or the
/// journal (the switch decided: every rename it lists is made again where it is missing, the
/// import finished). `recover` does that, under the data directory's lock, before anything
/// else opens a store.
public enum ImportJournal {
    static let staging = ".import-staging"
    static let replaced = ".import-replaced"
    static let journal = ".import-journal"
    private static let heading = "lodestone import-all --replace journal 1"

    /// A store to switch: its path, and whether the archive has it (a store it lacks goes).
    struct Entry: Equatable {
        var path: String
        var present: Bool
    }

    /// Writes the journal (flushed, with its folder), then makes the switch.
    static func switchIn(_ entries: [Entry], dataDirectory: String) throws(StorageError) {
        let text = ([heading] + entries.map { ($0.present ? "+ " : "- ") + $0.path }).joined(separator: "\n") + "\n"
        do { try replaceFile(dataDirectory + "/" + journal, with: Array(text.utf8)) } catch { throw StorageError(error.description) }
        try finish(entries, dataDirectory: dataDirectory)
    }

    /// Finishes or rolls back an import-all --replace that was stopped; the line that says
    /// which, or nil when there was none.
    public static func recover(dataDirectory: String) -> String? {
        let journalPath = dataDirectory + "/" + journal
        for name in directoryEntries(dataDirectory) where name.hasPrefix(journal + ".tmp.") { unlink(dataDirectory + "/" + name) }
        guard exists(journalPath) else {
            let staged = exists(dataDirectory + "/" + staging)
            removeTree(dataDirectory + "/" + staging)
            removeTree(dataDirectory + "/" + replaced)
            return staged ? "an interrupted import-all --replace was rolled back (nothing had been switched in; the data directory is as before it)" : nil
        }
        guard let text = try? readStoreText(journalPath, limit: 64 << 10), let entries = parse(text) else {
            return
                "\(journalPath) cannot be read: an interrupted import-all --replace is left as it stopped; move the journal away to use the data directory as it is"
        }
        do { try finish(entries, dataDirectory: dataDirectory) } catch {
            return "an interrupted import-all --replace could not be finished: \(error.description); it is tried again at the next start"
        }
        return "an interrupted import-all --replace was finished (\(entries.count) stores switched in)"
    }

    /// The stores a journal lists; nil unless every line is one this program writes, naming a
    /// store a backup holds (a journal never moves anything else).
    static func parse(_ text: String) -> [Entry]? {
        var lines = text.split(separator: "\n")
        guard lines.first == Substring(heading) else { return nil }
        lines.removeFirst()
        var entries: [Entry] = []
        for line in lines {
            let path = String(line.dropFirst(2))
            guard line.hasPrefix("+ ") || line.hasPrefix("- "), BackupStores.all.contains(where: { $0.path == path }) else { return nil }
            entries.append(Entry(path: path, present: line.hasPrefix("+ ")))
        }
        return entries
    }

    /// The renames, each made only where it is still missing, so running it again after a
    /// stop anywhere in it ends in the same place; then the journal goes, then what was
    /// replaced.
    private static func finish(_ entries: [Entry], dataDirectory: String) throws(StorageError) {
        let stagingFolder = dataDirectory + "/" + staging, aside = dataDirectory + "/" + replaced
        guard makeDirectories(aside) else { throw StorageError("cannot create \(aside): \(String(cString: strerror(errno)))") }
        for entry in entries {
            let target = dataDirectory + "/" + entry.path, staged = stagingFolder + "/" + entry.path
            let old = aside + "/" + entry.path
            if exists(staged) {
                // A folder cannot be renamed over a folder with files: the one here goes aside
                // first. A file is renamed over the one here in one step.
                if isFolder(target) {
                    removeTree(old)
                    try move(target, to: old)
                }
                try move(staged, to: target)
            } else if !entry.present && exists(target) {
                removeTree(old)
                try move(target, to: old)
            }
        }
        for folder in [dataDirectory, stagingFolder, aside] { sync(folder) }
        // The staging goes before the journal: staging without a journal always means an
        // import that never began to switch (rolled back), never one that finished.
        removeTree(stagingFolder)
        CrashPoint.step("unlink")
        guard unlink(dataDirectory + "/" + journal) == 0 || errno == ENOENT else {
            throw StorageError("cannot remove \(dataDirectory)/\(journal): \(String(cString: strerror(errno)))")
        }
        sync(dataDirectory)
        removeTree(aside)
    }

    private static func move(_ from: String, to: String) throws(StorageError) {
        CrashPoint.step("rename")
        guard rename(from, to) == 0 else { throw StorageError("cannot move \(from) to \(to): \(String(cString: strerror(errno)))") }
    }

    static func sync(_ folder: String) {
        let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        CrashPoint.step("fsync")
        _ = fsync(fd)
        close(fd)
    }

    private static func exists(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0
    }

    private static func isFolder(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }
}
