import Glibc
import LodestoneCore

/// What a write killed half-way (a power cut, a kill, a full card, a file-size limit) leaves
/// beside a store's file: `NAME.tmp.PID` of `replaceFile` and `import-PID-N.track` of a track
/// import. Each is named by its writer's process id; `lodestone run`, holding the data
/// directory's lock, removes at its start those whose writer is no longer running, so they
/// never pile up on the card. One whose writer still runs (a command mid-write) is left alone.
public enum StaleTemporaries {
    /// The writer's process id in a temporary's name; nil for any other name.
    public static func writer(of name: String) -> Int32? {
        if let mark = name.utf8.lastIndex(of: UInt8(ascii: ".")), name[..<mark].hasSuffix(".tmp") {
            return processID(name[name.index(after: mark)...])
        }
        if name.hasPrefix("import-"), name.hasSuffix(".track") {
            let middle = name.dropFirst("import-".count).dropLast(".track".count)
            let parts = middle.split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[1].isEmpty, parts[1].utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
            return processID(parts[0])
        }
        return nil
    }

    /// Removes the stale temporaries under `directory` (symbolic links neither followed nor
    /// removed, `depth` folders down); returns the paths removed.
    @discardableResult
    public static func remove(under directory: String, depth: Int = 6) -> [String] {
        var removed: [String] = []
        for name in directoryEntries(directory) {
            let path = directory + "/" + name
            var status = stat()
            guard lstat(path, &status) == 0 else { continue }
            let kind = status.st_mode & S_IFMT
            if kind == S_IFDIR {
                if depth > 0 { removed += remove(under: path, depth: depth - 1) }
            } else if kind == S_IFREG, let pid = writer(of: name), !isRunning(pid), unlink(path) == 0 {
                removed.append(path)
            }
        }
        return removed
    }

    /// Whether a process with that id runs (this one counts: its own writes are in progress).
    static func isRunning(_ pid: Int32) -> Bool {
        pid == getpid() || kill(pid, 0) == 0 || errno == EPERM
    }

    /// A process id written in decimal, nothing else; nil for anything else.
    static func processID(_ digits: Substring) -> Int32? {
        guard !digits.isEmpty, digits.utf8.count <= 10, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
            let pid = Int32(digits), pid > 0
        else { return nil }
        return pid
    }
}
