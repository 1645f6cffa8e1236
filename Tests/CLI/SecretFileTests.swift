import Glibc
import LodestoneCore
import Testing
@testable import LodestoneSettings

/// The MQTT password file is read only from where secrets belong (the configuration's folder,
/// $CREDENTIALS_DIRECTORY, /etc/lodestone), only from a regular file of the service's user or
/// root that nobody else may read; everything else is refused at `config check` and at start.
@Suite(.serialized) struct SecretFileTests {
    /// A fresh folder holding `lodestone.json` that names `passwordFile`, and `mqtt-password`.
    static func folder(_ name: String, passwordFile: String, mode: mode_t = 0o600) throws -> (folder: String, config: String) {
        let folder = "/tmp/lodestone-secret-\(getpid())-\(name)"
        removeTree(folder)
        try #require(makeDirectories(folder))
        try replaceFile(folder + "/mqtt-password", with: Array("s3cret\n".utf8))
        try #require(chmod(folder + "/mqtt-password", mode) == 0)
        let config = folder + "/lodestone.json"
        try replaceFile(config, with: Array(#"{"mqtt": {"broker": "127.0.0.1:1883", "passwordFile": "\#(passwordFile)"}}"#.utf8))
        return (folder, config)
    }

    /// The refusal `Configuration.read` gives, or nil when it took the file.
    static func refusal(_ config: String) -> String? {
        do {
            _ = try Configuration.read(file: config)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func aPrivateFileBesideTheConfigurationIsRead() throws {
        for (name, given) in [("relative", "mqtt-password"), ("absolute", "/tmp/lodestone-secret-\(getpid())-absolute/mqtt-password")] {
            let made = try Self.folder(name, passwordFile: given)
            defer { removeTree(made.folder) }
            #expect(try Configuration.read(file: made.config).mqtt?.password == "s3cret", "\(given)")
        }
        let readOnly = try Self.folder("read-only", passwordFile: "mqtt-password", mode: 0o400)
        defer { removeTree(readOnly.folder) }
        #expect(try Configuration.read(file: readOnly.config).mqtt?.password == "s3cret")
    }

    @Test func aPathOutOfThePlacesIsRefused() throws {
        for (name, given) in [("climb", "../../../../etc/passwd"), ("shadow", "/etc/shadow"), ("tmp", "/tmp")] {
            let made = try Self.folder(name, passwordFile: given)
            defer { removeTree(made.folder) }
            let refusal = Self.refusal(made.config)
            #expect(refusal?.contains("outside those folders") == true, "\(given): \(refusal ?? "accepted")")
            #expect(refusal?.contains("a secret is read only from a regular file in \(made.folder)") == true, "\(refusal ?? "")")
            #expect(refusal?.contains("/etc/lodestone, owned by this user") == true, "\(refusal ?? "")")
            #expect(refusal?.contains("\n") == false, "one line: \(refusal ?? "")")
        }
    }

    @Test func aLinkOutOfTheFolderIsRefused() throws {
        let made = try Self.folder("link", passwordFile: "linked")
        defer { removeTree(made.folder) }
        try #require(symlink("/etc/passwd", made.folder + "/linked") == 0)
        let refusal = Self.refusal(made.config)
        #expect(refusal?.contains("it leads to /etc/passwd, outside those folders") == true, "\(refusal ?? "accepted")")
        // A link that stays inside the folder is only a name.
        let inside = try Self.folder("link-inside", passwordFile: "linked")
        defer { removeTree(inside.folder) }
        try #require(symlink(inside.folder + "/mqtt-password", inside.folder + "/linked") == 0)
        #expect(Self.refusal(inside.config) == nil)
    }

    @Test func aPipeIsRefusedWithoutWaitingOnIt() throws {
        let made = try Self.folder("fifo", passwordFile: "pipe")
        defer { removeTree(made.folder) }
        try #require(mkfifo(made.folder + "/pipe", 0o600) == 0)
        let refusal = Self.refusal(made.config)
        #expect(refusal?.contains("it is a pipe, not a regular file") == true, "\(refusal ?? "accepted")")
    }

    @Test func aFileOthersMayReadIsRefused() throws {
        for mode: mode_t in [0o644, 0o640, 0o604, 0o700] {
            let made = try Self.folder("mode-\(String(mode, radix: 8))", passwordFile: "mqtt-password", mode: mode)
            defer { removeTree(made.folder) }
            let refusal = Self.refusal(made.config)
            #expect(refusal?.contains("its mode is 0\(String(mode, radix: 8))") == true, "\(refusal ?? "accepted")")
        }
    }

    @Test func someoneElsesFileIsRefused() throws {
        let made = try Self.folder("owner", passwordFile: "mqtt-password")
        defer { removeTree(made.folder) }
        // Only root can give a file away; run as another user, this case is the file of root
        // itself, which is allowed.
        guard geteuid() == 0 else { return }
        try #require(chown(made.folder + "/mqtt-password", 4242, 4242) == 0)
        let refusal = Self.refusal(made.config)
        #expect(refusal?.contains("it is owned by user 4242") == true, "\(refusal ?? "accepted")")
    }

    @Test func configCheckSaysItAndCredentialsAreAPlace() throws {
        let made = try Self.folder("check", passwordFile: "/etc/passwd")
        defer { removeTree(made.folder) }
        let end = EndToEndTests()
        let (status, output) = end.finish(try end.spawn(["config", "check", made.config, "--socket", made.folder + "/none.sock"]))
        #expect(status == 1 && output.contains("refusing /etc/passwd: it is outside those folders"), "exit \(status): \(output)")
        // The run refuses to start with it, the same way.
        let run = end.finish(
            try end.spawn([
                "run", "--config", made.config, "--duration", "1", "--display", "none", "--data-dir", made.folder + "/data", "--socket",
                made.folder + "/run.sock"
            ]))
        #expect(run.status == 1 && run.output.contains("refusing /etc/passwd: it is outside those folders"), "exit \(run.status): \(run.output)")
        // A bare name is read from systemd's credentials folder, which is a place of its own.
        let credentials = "/tmp/lodestone-secret-\(getpid())-credentials"
        removeTree(credentials)
        try #require(makeDirectories(credentials))
        defer { removeTree(credentials) }
        try replaceFile(credentials + "/mqtt", with: Array("fromsystemd\n".utf8))
        try replaceFile(made.config, with: Array(#"{"mqtt": {"broker": "127.0.0.1:1883", "passwordFile": "mqtt"}}"#.utf8))
        let environment = ["CREDENTIALS_DIRECTORY=\(credentials)", "PATH=/usr/bin:/bin", "HOME=\(made.folder)"]
        let taken = end.finish(
            try end.spawnProgram(EndToEndTests.executable, ["config", "check", made.config, "--socket", made.folder + "/none.sock"], environment: environment))
        #expect(taken.status == 0, "exit \(taken.status): \(taken.output)")
    }
}
