import Glibc
import Testing

/// Stored files with numbers no program wrote, and inputs without end (a damaged card, a hand edit): every command
/// that reads them answers, none traps (a Swift runtime trap ends with SIGILL, status 132).
@Suite(.serialized) struct HostileStoredFilesTests {
    static func write(_ text: String, to path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        try #require(fd >= 0, "cannot write \(path)")
        defer { close(fd) }
        _ = text.withCString { Glibc.write(fd, $0, strlen($0)) }
    }

    @Test func hugeNumbersInStoredFilesAreNotACrash() throws {
        let directory = "/tmp/lodestone-hostile-\(getpid())"
        _ = mkdir(directory, 0o755)
        _ = mkdir(directory + "/tracks", 0o755)
        _ = mkdir(directory + "/snapshots", 0o755)
        try Self.write(
            #"{"id":"20260101-000000","name":"x","started":1e308,"statistics":{"points":1e19,"distance":1}}"#,
            to: directory + "/tracks/20260101-000000.json")
        try Self.write("# lodestone track 1 name=x started=1767225600\n", to: directory + "/tracks/20260101-000000.track")
        try Self.write(#"{"id":"s1","timestamp":"2026-06-21T08:00:00Z","photoCount":1e308}"#, to: directory + "/snapshots/s1.json")
        try Self.write(#"[{"name":"a","lat":1,"lon":2,"created":1e308}]"#, to: directory + "/waypoints.json")
        let runner = EndToEndTests()
        for command in [
            ["track", "list"], ["track", "list", "--json"], ["snapshot", "list"], ["snapshot", "show", "s1"],
            ["waypoint", "list"], ["waypoint", "export"]
        ] {
            let (status, output) = runner.finish(try runner.spawn(command + ["--data-dir", directory]))
            #expect(status == 0, "\(command.joined(separator: " ")): \(output)")
        }
        let (_, listed) = runner.finish(try runner.spawn(["track", "list", "--data-dir", directory]))
        #expect(listed.contains("20260101-000000"), "the track is still listed: \(listed)")
    }

    /// An endless input (a device, a FIFO left open) is refused before any read, with what it
    /// is said, instead of growing without end or blocking.
    @Test(arguments: [
        ["calibrate", "mag", "--from", "/dev/zero"], ["calibrate", "accel", "--from", "/dev/zero"],
        ["run", "--board", "/dev/zero", "--display", "none", "--duration", "1"]
    ])
    func anEndlessInputIsRefused(command: [String]) throws {
        let runner = EndToEndTests()
        let (status, output) = runner.finish(try runner.spawn(command))
        #expect(status == 1, "\(output)")
        #expect(output.contains("/dev/zero: it is a device, not a regular file"), "\(output)")
    }

    /// A regular file larger than its reader takes is refused as too large, not cut into a
    /// syntax error.
    @Test func aBoardFileTooLargeIsSaidToBeTooLarge() throws {
        let path = "/tmp/lodestone-large-board-\(getpid()).json"
        defer { unlink(path) }
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        try #require(fd >= 0)
        try #require(ftruncate(fd, 2 << 20) == 0)
        close(fd)
        let runner = EndToEndTests()
        let (status, output) = runner.finish(try runner.spawn(["run", "--board", path, "--display", "none", "--duration", "1"]))
        #expect(status == 1, "\(output)")
        #expect(output.contains("larger than"), "\(output)")
    }

    @Test(arguments: ["1e19", "-1e19", "9223372036854775808", "1.797e308", "9600.5"])
    func aBoardFileBaudBeyondAnyIntegerIsAnError(baud: String) throws {
        let path = "/tmp/lodestone-hostile-board-\(getpid()).json"
        try Self.write(#"{"gps":{"port":"/dev/null","baud":"# + baud + "}}", to: path)
        let runner = EndToEndTests()
        let (status, output) = runner.finish(try runner.spawn(["run", "--board", path, "--display", "none", "--duration", "1"]))
        #expect(status == 1, "\(output)")
        #expect(output.contains("gps.baud") && output.contains(path), "\(output)")
    }
}
