import Glibc

/// Why a file was not opened: the path, and either what was found in its place (a link, a
/// pipe, someone else's file) or the system call's errno.
public struct OpenRefusal: Error, Equatable, CustomStringConvertible {
    public var path: String
    /// What stands at `path` instead of a file the device may use; nil when the open itself failed.
    public var found: String?
    /// The failed call's errno (0 when refused for what was found).
    public var errno: Int32

    public init(path: String, found: String? = nil, errno: Int32 = 0) {
        self.path = path
        self.found = found
        self.errno = errno
    }

    public var description: String {
        if let found { return "refusing \(path): it is \(found); move it away and try again" }
        return "cannot open \(path): \(String(cString: strerror(errno)))"
    }
}

/// The two ways the device opens a file, so that nobody who can write into its folders can
/// turn a file of its against it.
public enum GuardedOpen {
    /// Opens a file the device keeps (a store: logs, tracks, outbox, calibrations, the lock).
    /// Never through a symbolic link, never blocking on a pipe or a device, and only a regular
    /// file owned by the running user: a link planted in the data directory could otherwise make
    /// a root run truncate /etc/passwd, and a hard link or a foreign file write into someone
    /// else's. `flags` are the access and creation flags (O_RDONLY, O_WRONLY | O_CREAT | O_APPEND...).
    public static func store(_ path: String, _ flags: Int32, mode: mode_t = 0o600) throws(OpenRefusal) -> Int32 {
        let fd = open(path, flags | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, mode)
        guard fd >= 0 else { throw refusal(path, errno: errno) }
        return try checked(fd, path: path, requireOwner: true)
    }

    /// Opens a file the device only reads (configuration, board files, element sets, w1 and
    /// sysfs files, timetables, files a user names): links are followed, but a pipe or a device
    /// node is refused before any read, so a FIFO at the configuration path never blocks a thread.
    public static func input(_ path: String) throws(OpenRefusal) -> Int32 {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw OpenRefusal(path: path, errno: errno) }
        return try checked(fd, path: path, requireOwner: false)
    }

    /// `fd` when what it opened is a file the device may use; else it is closed and refused.
    private static func checked(_ fd: Int32, path: String, requireOwner: Bool) throws(OpenRefusal) -> Int32 {
        var status = stat()
        guard fstat(fd, &status) == 0 else {
            let code = errno
            close(fd)
            throw OpenRefusal(path: path, errno: code)
        }
        if let found = misfit(status, requireOwner: requireOwner) {
            close(fd)
            throw OpenRefusal(path: path, found: found)
        }
        return fd
    }

    /// What makes `status` not a file the device may use, in words; nil when it is one.
    static func misfit(_ status: stat, requireOwner: Bool) -> String? {
        let kind = status.st_mode & S_IFMT
        guard kind == S_IFREG else { return kindName(kind) + ", not a regular file" }
        if requireOwner && status.st_uid != geteuid() {
            return "owned by user \(status.st_uid), not by the user running lodestone (\(geteuid()))"
        }
        return nil
    }

    /// The refusal for a failed open: when the call failed because of what stands at the
    /// path (a link under O_NOFOLLOW, a directory, a FIFO with no reader), say what it is.
    private static func refusal(_ path: String, errno code: Int32) -> OpenRefusal {
        guard code == ELOOP || code == EISDIR || code == ENXIO || code == ENODEV || code == ETXTBSY else {
            return OpenRefusal(path: path, errno: code)
        }
        var status = stat()
        guard lstat(path, &status) == 0 else { return OpenRefusal(path: path, errno: code) }
        let kind = status.st_mode & S_IFMT
        return OpenRefusal(path: path, found: kindName(kind) + ", not a regular file")
    }

    /// A file type in words.
    public static func kindName(_ kind: mode_t) -> String {
        switch kind {
        case S_IFREG: return "a regular file"
        case S_IFDIR: return "a directory"
        case S_IFLNK: return "a symbolic link"
        case S_IFCHR, S_IFBLK: return "a device"
        case S_IFIFO: return "a pipe"
        case S_IFSOCK: return "a socket"
        default: return "not a regular file"
        }
    }
}
