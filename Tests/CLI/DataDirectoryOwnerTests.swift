import Glibc
import LodestoneCore
import LodestoneOutputs
@testable import LodestoneRuntime
import Testing
@testable import LodestoneSettings
@testable import LodestoneStorage
@testable import LodestoneBoard

/// One owner per data directory, and what it keeps is private: a second run is refused with the
/// first one's process id, a change while an instance runs goes through its socket, and every
/// folder and file is the owner's alone.
@Suite(.serialized) struct DataDirectoryOwnerTests {
    let end = EndToEndTests()

    static func scratch(_ name: String) -> String {
        let directory = "/tmp/lodestone-owner-\(getpid())-\(name)"
        removeTree(directory)
        return directory
    }

    static func mode(_ path: String) -> mode_t {
        var status = stat()
        return lstat(path, &status) == 0 ? status.st_mode & 0o7777 : 0
    }

    @Test func aSecondRunOnTheSameDataDirectoryIsRefusedWithTheFirstOnesProcessId() throws {
        let directory = Self.scratch("second"), socket = directory + "-a.sock"
        defer { removeTree(directory); unlink(socket) }
        let first = try end.spawn(["run", "--duration", "30", "--socket", socket, "--display", "none", "--data-dir", directory])
        defer { kill(first.pid, SIGTERM); _ = end.finish(first) }
        guard end.connect(socket, to: first) != nil else { return }
        let second = try end.spawn([
            "run", "--duration", "5", "--socket", directory + "-b.sock", "--display", "none",
            "--data-dir", directory
        ])
        let (status, output) = end.finish(second)
        #expect(status == 1, "\(output)")
        #expect(output.contains("\(directory) is in use by lodestone run (process \(first.pid))"), "\(output)")
        #expect(access(directory + "-b.sock", F_OK) != 0, "the second run served a socket")
    }

    @Test func aChangeWhileAnInstanceRunsGoesThroughItsSocket() throws {
        let directory = Self.scratch("through"), socket = directory + ".sock"
        defer { removeTree(directory); unlink(socket) }
        let run = try end.spawn(["run", "--duration", "30", "--socket", socket, "--display", "none", "--data-dir", directory])
        guard end.connect(socket, to: run) != nil else {
            kill(run.pid, SIGTERM)
            _ = end.finish(run)
            return
        }
        // Through the socket: saved by the instance, into its own data directory.
        let added = end.finish(try end.spawn(["waypoint", "add", "Boathouse", "--lat", "47.2", "--lon", "8.8", "--socket", socket]))
        #expect(added.status == 0, "\(added.output)")
        // Beside it, into the same folder: refused, with the way through.
        let beside = end.finish(try end.spawn(["waypoint", "add", "Jetty", "--lat", "47.1", "--lon", "8.7", "--data-dir", directory]))
        #expect(beside.status == 1, "\(beside.output)")
        #expect(beside.output.contains("--socket"), "\(beside.output)")
        kill(run.pid, SIGTERM)
        _ = end.finish(run)
        let names = WaypointStore(dataDirectory: directory).load().map(\.name)
        #expect(names.contains("Boathouse"), "\(names)")
        #expect(!names.contains("Jetty"), "\(names)")
        // Once the instance is gone the folder is free for a change of its own.
        let after = end.finish(try end.spawn(["waypoint", "add", "Jetty", "--lat", "47.1", "--lon", "8.7", "--data-dir", directory]))
        #expect(after.status == 0, "\(after.output)")
    }

    @Test func whatTheDeviceKeepsIsItsOwnersAlone() throws {
        let directory = Self.scratch("private")
        defer { removeTree(directory) }
        // Left looser by an earlier version: a folder 0755 and a file 0644.
        try #require(mkdir(directory, 0o755) == 0 && chmod(directory, 0o755) == 0)
        try #require(mkdir(directory + "/tracks", 0o755) == 0 && chmod(directory + "/tracks", 0o755) == 0)
        let fd = open(directory + "/waypoints.json", O_WRONLY | O_CREAT, 0o644)
        try #require(fd >= 0)
        _ = write(fd, "[]\n", 3)
        close(fd)
        try #require(chmod(directory + "/waypoints.json", 0o644) == 0)
        let run = try end.spawn([
            "run", "--duration", "3", "--socket", directory + ".sock", "--display", "none",
            "--data-dir", directory
        ])
        let (status, output) = end.finish(run)
        #expect(status == 0, "\(output)")
        #expect(output.contains("private to their owner"), "\(output)")
        #expect(Self.mode(directory) == 0o700)
        #expect(Self.mode(directory + "/tracks") == 0o700)
        #expect(Self.mode(directory + "/waypoints.json") == 0o600)
        // What the run wrote itself.
        for name in directoryEntries(directory) {
            let mode = Self.mode(directory + "/" + name)
            #expect(mode & 0o077 == 0, "\(name) is \(String(mode, radix: 8))")
        }
    }

    @Test func theMQTTPasswordCanComeFromAFileOfItsOwn() throws {
        let directory = Self.scratch("password")
        defer { removeTree(directory) }
        try #require(makeDirectories(directory))
        try replaceFile(directory + "/mqtt-password", with: Array("s3cret\n".utf8))
        func read(_ mqtt: String) throws(ConfigurationError) -> Configuration {
            var configuration = Configuration()
            // As read from a configuration file in that folder, where a password file may be.
            configuration.configurationFolder = directory
            try configuration.load(text: #"{"mqtt": "# + mqtt + "}", file: "test.json")
            try configuration.validate(file: "test.json")
            return configuration
        }
        #expect(try read(#"{"broker": "127.0.0.1:1883", "username": "boat", "passwordFile": "\#(directory)/mqtt-password"}"#).mqtt?.password == "s3cret")
        // Both at once is a contradiction, said with the key, whatever their order.
        for both in [
            #"{"broker": "127.0.0.1:1883", "password": "a", "passwordFile": "\#(directory)/mqtt-password"}"#,
            #"{"broker": "127.0.0.1:1883", "passwordFile": "\#(directory)/mqtt-password", "password": "a"}"#
        ] {
            do {
                _ = try read(both)
                Issue.record("a password and a password file were both taken")
            } catch {
                #expect(error.description.contains("mqtt.password"), "\(error)")
            }
        }
        // A missing file is said, with its path.
        do {
            _ = try read(#"{"broker": "127.0.0.1:1883", "passwordFile": "\#(directory)/none"}"#)
            Issue.record("a missing password file was accepted")
        } catch {
            #expect(error.description.contains(directory + "/none"), "\(error)")
        }
        // The other settings without a broker are no MQTT output.
        do {
            _ = try read(#"{"qos": 0}"#)
            Issue.record("MQTT settings without a broker were accepted")
        } catch {
            #expect(error.description.contains("mqtt.broker"), "\(error)")
        }
    }

    @Test func aPasswordInAConfigurationOthersCanReadIsWarnedAbout() throws {
        let directory = Self.scratch("readable")
        defer { removeTree(directory) }
        try #require(makeDirectories(directory))
        let file = directory + "/lodestone.json"
        try replaceFile(file, with: Array(#"{"mqtt": {"broker": "127.0.0.1:9", "username": "boat", "password": "s3cret"}}"#.utf8))
        try #require(chmod(file, 0o644) == 0)
        let run = end.finish(
            try end.spawn([
                "run", "--config", file, "--duration", "1", "--socket", directory + "/s.sock",
                "--display", "none", "--data-dir", directory + "/data"
            ]))
        #expect(run.output.contains("holds the MQTT password and other users can read it"), "\(run.output)")
        try #require(chmod(file, 0o600) == 0)
        let quiet = end.finish(
            try end.spawn([
                "run", "--config", file, "--duration", "1", "--socket", directory + "/s.sock",
                "--display", "none", "--data-dir", directory + "/data"
            ]))
        #expect(!quiet.output.contains("other users can read it"), "\(quiet.output)")
    }
}
