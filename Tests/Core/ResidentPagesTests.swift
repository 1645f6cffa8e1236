import Glibc
import Testing

@testable import LodestoneCore

/// Start-up's pages given back: only a file's read-only pages that the process never wrote,
/// and the process goes on as before.
struct ResidentPagesTests {
    @Test func onlyAFilesUnwrittenReadOnlyPagesAreReleasable() {
        let smaps = """
            55d0c0000000-55d0c0100000 r--p 00000000 fe:00 12 /usr/bin/lodestone
            Rss:                 800 kB
            Anonymous:             0 kB
            55d0c0100000-55d0c0900000 r-xp 00100000 fe:00 12 /usr/bin/lodestone
            Rss:                7000 kB
            Anonymous:             0 kB
            55d0c0900000-55d0c0940000 r--p 00900000 fe:00 12 /usr/bin/lodestone
            Rss:                 256 kB
            Anonymous:           256 kB
            55d0c0940000-55d0c0980000 rw-p 00940000 fe:00 12 /usr/bin/lodestone
            Rss:                 200 kB
            Anonymous:           120 kB
            7f0000000000-7f0000100000 rw-p 00000000 00:00 0 [heap]
            Rss:                 900 kB
            Anonymous:           900 kB
            7fff00000000-7fff00002000 r-xp 00000000 00:00 0 [vdso]
            Rss:                   8 kB
            Anonymous:             0 kB
            7f1000000000-7f1000001000 ---p 00000000 fe:00 13 /usr/lib/libc.so.6
            Rss:                   0 kB
            garbage line
            """
        let mappings = ResidentPages.mappings(smaps: smaps)
        #expect(mappings.count == 7)
        #expect(mappings.map(\.releasable) == [true, true, false, false, false, false, false])
        #expect(mappings.first?.residentKB == 800 && mappings.dropFirst(2).first?.anonymousKB == 256)
    }

    @Test func theProcessGoesOnAfterItsStartUpPagesAreGivenBack() {
        func residentKB() -> Int {
            guard let status = try? readTextFile("/proc/self/status") else { return -1 }
            let line = status.split(separator: "\n").first { $0.hasPrefix("RssFile:") }
            return line.flatMap { Int($0.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") } ?? -1
        }
        let before = residentKB()
        let released = ResidentPages.releaseUnused(relock: false)
        let after = residentKB()
        #expect(released > 0, "nothing was released")
        #expect(after < before, "file-backed resident \(before) kB before, \(after) kB after")
        // Code and constants come back from the page cache as they are used.
        #expect(String(describing: [1, 2, 3].map { $0 * 2 }) == "[2, 4, 6]")
    }
}
