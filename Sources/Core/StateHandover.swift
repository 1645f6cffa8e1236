import Glibc

/// Hands a state folder left by root's runs (`sudo lodestone run` before the package was
/// installed) to the service's account, so the service can write its stores. Walked through
/// descriptors, never by path: a folder is opened with O_NOFOLLOW and its entries are changed
/// relative to it, so a link put in its place meanwhile is never followed. Only what root owns
/// changes hands: folders, and files with no other name (a hard link to a file elsewhere would
/// hand that file over too); links, devices and anything on another file system are left.
public enum StateHandover {
    public struct Outcome: Equatable, Sendable {
        public var changed = 0
        public var leftAlone: [String] = []
    }

    public static func give(_ directory: String, to uid: uid_t, group gid: gid_t) -> Outcome {
        var outcome = Outcome()
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else {
            outcome.leftAlone.append(directory + ": " + String(cString: strerror(errno)))
            return outcome
        }
        var top = stat()
        guard fstat(fd, &top) == 0 else {
            close(fd)
            return outcome
        }
        if top.st_uid == 0, fchown(fd, uid, gid) == 0 { outcome.changed += 1 }
        walk(fd, path: directory, device: top.st_dev, uid: uid, gid: gid, depth: 0, into: &outcome)  // closes fd
        return outcome
    }

    /// The entries of the open folder `fd` (closed here), folders first handed over then walked.
    private static func walk(_ fd: Int32, path: String, device: dev_t, uid: uid_t, gid: gid_t, depth: Int, into outcome: inout Outcome) {
        guard depth < 32, let stream = fdopendir(fd) else {
            close(fd)
            return
        }
        defer { closedir(stream) }
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name == "." || name == ".." { continue }
            var status = stat()
            guard fstatat(fd, name, &status, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
            let kind = status.st_mode & S_IFMT
            let full = path + "/" + name
            if status.st_dev != device {
                outcome.leftAlone.append(full + ": on another file system")
            } else if kind == S_IFDIR {
                let child = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                guard child >= 0 else { continue }
                var opened = stat()
                if fstat(child, &opened) == 0, opened.st_uid == 0, fchown(child, uid, gid) == 0 { outcome.changed += 1 }
                walk(child, path: full, device: device, uid: uid, gid: gid, depth: depth + 1, into: &outcome)
            } else if kind == S_IFREG {
                guard status.st_uid == 0 else { continue }
                if status.st_nlink > 1 {
                    outcome.leftAlone.append(full + ": it has other names (a hard link)")
                } else if fchownat(fd, name, uid, gid, AT_SYMLINK_NOFOLLOW) == 0 {
                    outcome.changed += 1
                }
            } else if status.st_uid == 0, kind != S_IFLNK {
                outcome.leftAlone.append(full + ": not a file or a folder")
            }
        }
    }
}
