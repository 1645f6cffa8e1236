import Glibc
import Synchronization

/// Writes a whole buffer to a file the program keeps (a track, a log, a stored JSON file),
/// riding out interrupted calls. Returns 0, or the errno of the write that failed (EIO for a
/// write that took nothing). Every writer of the program's own files goes through here, so a
/// simulated full disk (`SimulatedDiskFull`) fails them exactly where a real one would.
public func writeWhole(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, path: String) -> Int32 {
    let refusal = SimulatedDiskFull.refusal(for: path)
    if refusal != 0 { return refusal }
    guard let base = bytes.baseAddress else { return 0 }
    CrashPoint.step("write")
    var done = 0
    while done < bytes.count {
        let count = write(fd, base + done, bytes.count - done)
        if count < 0 && errno == EINTR { continue }
        if count <= 0 { return count < 0 ? errno : EIO }
        done += count
    }
    return 0
}

/// A disk that fills, for the simulated board (`--fault disk-full@SECONDS`): while the fault
/// installed for a directory is active, every write of the program's files under it fails
/// with ENOSPC, as on a full card. Installed per directory, so trips running side by side in
/// one process (the tests) never fill each other's disks.
public enum SimulatedDiskFull {
    private struct Installed {
        var id: Int
        var directory: String
        var isFull: @Sendable () -> Bool
    }

    private static let installed = Mutex<(next: Int, list: [Installed])>((1, []))
    /// How many are installed: writes on a device with none skip the lock.
    private static let count = Atomic<Int>(0)

    /// Fills the disk under `directory` whenever `isFull` says so; returns the id to remove it with.
    public static func install(directory: String, isFull: @escaping @Sendable () -> Bool) -> Int {
        let prefix = directory.hasSuffix("/") ? directory : directory + "/"
        return installed.withLock { state in
            let id = state.next
            state.next += 1
            state.list.append(Installed(id: id, directory: prefix, isFull: isFull))
            count.store(state.list.count, ordering: .releasing)
            return id
        }
    }

    public static func remove(_ id: Int) {
        installed.withLock { state in
            state.list.removeAll { $0.id == id }
            count.store(state.list.count, ordering: .releasing)
        }
    }

    /// ENOSPC while `path` lies under a directory whose disk is full now, else 0.
    public static func refusal(for path: String) -> Int32 {
        guard count.load(ordering: .acquiring) > 0 else { return 0 }
        let full = installed.withLock { state in
            state.list.filter { path.hasPrefix($0.directory) }.map(\.isFull)
        }
        return full.contains { $0() } ? ENOSPC : 0
    }
}
