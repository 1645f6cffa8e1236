import Glibc
import LodestoneCore
import Testing
@testable import LodestoneStorage

/// What a killed write leaves (`NAME.tmp.PID`, `import-PID-N.track`) is removed when
/// `lodestone run` takes the data directory, unless its writer still runs.
@Suite struct StaleTemporariesTests {
    /// A process id no process has: beyond the kernel's largest (4194304 at most).
    static let gone: Int32 = 4_194_305

    @Test func theNamesOfTemporariesAndTheirWriters() {
        #expect(StaleTemporaries.writer(of: "waypoints.json.tmp.1234") == 1234)
        #expect(StaleTemporaries.writer(of: "import-77-0.track") == 77)
        for other in ["waypoints.json", "notes.tmp", "a.tmp.", "a.tmp.12x", "a.tmp.-3", "a.tmp.99999999999", "import-77.track", "import-x-0.track", "b.tmp.0"] {
            #expect(StaleTemporaries.writer(of: other) == nil, "\(other)")
        }
    }

    @Test func aRunRemovesWhatAKilledWriteLeft() throws {
        let directory = "/tmp/lodestone-stale-\(getpid())"
        removeTree(directory)
        try #require(makeDirectories(directory + "/tracks"))
        defer { removeTree(directory) }
        let stale = ["waypoints.json.tmp.\(Self.gone)", "tracks/import-\(Self.gone)-0.track", "tracks/20260621-080000.json.tmp.\(Self.gone)"]
        // This test's process runs: what it is writing is kept; so is anything else.
        let kept = ["alerts.json.tmp.\(getpid())", "notes.tmp.draft"]
        for name in stale + kept { try replaceFile(directory + "/" + name, with: Array("half\n".utf8)) }
        let end = EndToEndTests()
        let (status, output) = end.finish(
            try end.spawn(["run", "--duration", "1", "--display", "none", "--data-dir", directory, "--socket", directory + "/run.sock"]))
        #expect(status == 0, "\(output)")
        #expect(output.contains("removed 3 temporary files an interrupted write left in \(directory)"), "\(output)")
        for name in stale { #expect(!fileExists(directory + "/" + name), "\(name) is still there") }
        for name in kept { #expect(fileExists(directory + "/" + name), "\(name) was removed") }
    }
}
