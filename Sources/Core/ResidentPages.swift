import Glibc

/// The program's pages that start-up (or any one-off work since) made resident and that it no
/// longer uses, given back.
///
/// A file's pages come into a process 64 kB at a time around each one touched (the kernel maps
/// what its page cache holds nearby), so the start-up alone (the options, the configuration,
/// the tables built once, the dynamic loader reading its relocations and symbols) leaves most
/// of the program's code mapped, and with the memory locked, locked: on the simulated board
/// 11 MB of a 15 MB program. Once the device runs, those mappings are emptied (the pages stay
/// in the page cache, shared and reclaimable) and locked again as they are touched from then
/// on: what stays is what the device runs. The output loop does this 10 s after the start, a
/// minute after it and then every hour (`OutputLoop.releaseSeconds`).
///
/// Only mappings of a file that are not writable and hold no page of the process's own (a
/// relocated read-only section does: it was written at start-up and must stay) are emptied,
/// so nothing the process computed is ever lost: an emptied page is the file's, read again
/// from the page cache when it is next needed, as when the program started.
public enum ResidentPages {
    /// Empties those mappings and, when memory is locked, locks again as pages are touched.
    /// Returns the kilobytes that were resident in them.
    @discardableResult
    public static func releaseUnused(relock: Bool) -> Int {
        guard let text = try? readTextFile("/proc/self/smaps", limit: 16 << 20) else { return 0 }
        var released = 0
        for mapping in mappings(smaps: text) where mapping.releasable {
            guard let start = UnsafeMutableRawPointer(bitPattern: mapping.start) else { continue }
            let length = Int(mapping.end - mapping.start)
            _ = munlock(start, length)
            if madvise(start, length, MADV_DONTNEED) == 0 { released += mapping.residentKB }
        }
        if relock {
            let onFault: Int32 = 4  // MCL_ONFAULT: mark the mappings locked, make nothing resident
            _ = mlockall(MCL_CURRENT | MCL_FUTURE | onFault)
        }
        return released
    }

    /// One mapping of /proc/self/smaps, as far as releasing it goes.
    struct Mapping: Equatable {
        var start: UInt, end: UInt
        /// Readable, not writable, and a file's.
        var fileReadOnly: Bool
        var residentKB = 0
        /// Pages the process wrote (a relocated section made read-only again).
        var anonymousKB = 0
        var releasable: Bool { fileReadOnly && anonymousKB == 0 && end > start }
    }

    /// The mappings in smaps' text: each header line ("start-end perms offset dev inode
    /// path") and its "Rss:" and "Anonymous:" lines. Lines that do not parse are skipped.
    static func mappings(smaps text: String) -> [Mapping] {
        var found: [Mapping] = []
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard let first = fields.first else { continue }
            if first.hasSuffix(":") {
                guard !found.isEmpty, fields.count >= 2, let kilobytes = Int(fields[1]), kilobytes >= 0 else { continue }
                if first == "Rss:" { found[found.count - 1].residentKB = kilobytes }
                if first == "Anonymous:" { found[found.count - 1].anonymousKB = kilobytes }
                continue
            }
            let range = first.split(separator: "-")
            guard fields.count >= 2, range.count == 2, let start = UInt(range[0], radix: 16), let end = UInt(range[1], radix: 16) else { continue }
            let permissions = Array(fields[1].utf8)
            let path = fields.count >= 6 ? fields[5] : ""
            let fileReadOnly =
                permissions.count == 4 && permissions[0] == UInt8(ascii: "r") && permissions[1] == UInt8(ascii: "-") && path.hasPrefix("/")
            found.append(Mapping(start: start, end: end, fileReadOnly: fileReadOnly))
        }
        return found
    }
}
