import Glibc
import LodestoneCore
import Testing

/// A write past the file-size limit (`ulimit -f`, a service's LimitFSIZE=) is an error said
/// like a full disk, never the kernel's SIGXFSZ ending the process, and leaves no temporary.
@Suite struct FileSizeLimitTests {
    @Test func aWritePastTheLimitFailsClearlyAndLeavesNothing() throws {
        let directory = "/tmp/lodestone-fsize-\(getpid())"
        removeTree(directory)
        try #require(makeDirectories(directory))
        defer { removeTree(directory) }
        let end = EndToEndTests()
        let added = end.finish(
            try end.spawn(["waypoint", "add", "Hut", "--lat", "47", "--lon", "8", "--data-dir", directory, "--socket", directory + "/none.sock"]))
        try #require(added.status == 0, "\(added.output)")
        // An archive is at least three 512-byte blocks: past a limit of one.
        let out = directory + "/backup.tar"
        let (status, output) = end.finish(
            try end.spawnProgram(
                "/bin/sh", ["-c", "ulimit -f 1; exec \"$0\" export-all --out \"$1\" --data-dir \"$2\"", EndToEndTests.executable, out, directory]))
        #expect(status == 1, "exit \(status) (153 is SIGXFSZ): \(output)")
        #expect(output.contains("cannot write \(out): File too large") && output.contains("ulimit -f"), "\(output)")
        let left = directoryEntries(directory).filter { $0.contains(".tmp") || $0.hasPrefix("backup.tar") }
        #expect(left.isEmpty, "left behind: \(left)")
    }
}
