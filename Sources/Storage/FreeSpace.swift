import Glibc

/// The room left on the file system that holds a directory, as an unprivileged writer sees it
/// (what is reserved for root is not the device's to use).
public enum FreeSpace {
    /// Bytes free for the device's files under `directory`; nil when the kernel cannot say.
    public static func bytes(at directory: String) -> UInt64? {
        var stats = statvfs()
        guard statvfs(directory, &stats) == 0 else { return nil }
        return UInt64(stats.f_bavail) * UInt64(stats.f_frsize)
    }
}
