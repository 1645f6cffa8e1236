import Glibc

/// Location is personal data: what the device keeps is its owner's alone, folders 0700 and
/// files 0600. New files get that from the process's umask (set at start); files left looser by
/// an earlier version, a copy or a hand edit are tightened here at the start of a run.
public enum PrivateFolder {
    /// Tightens `directory` and everything under it that the running user owns (symbolic links
    /// are neither followed nor changed); returns how many entries were changed.
    @discardableResult
    public static func tighten(_ directory: String) -> Int {
        var status = stat()
        guard lstat(directory, &status) == 0, status.st_uid == geteuid() else { return 0 }
        let kind = status.st_mode & S_IFMT
        var changed = 0
        if kind == S_IFDIR {
            if status.st_mode & 0o077 != 0 && chmod(directory, status.st_mode & 0o700) == 0 { changed += 1 }
            for name in directoryEntries(directory) { changed += tighten(directory + "/" + name) }
        } else if kind == S_IFREG {
            if status.st_mode & 0o077 != 0 && chmod(directory, status.st_mode & 0o600) == 0 { changed += 1 }
        }
        return changed
    }

    /// Whether others than the owner may read `path` (a configuration holding a password).
    public static func othersMayRead(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & 0o044 != 0
    }
}
