import Glibc
import LodestoneCore
import LodestoneOutputs
import LodestoneRuntime
import Testing
@testable import LodestoneEncoding

/// The built `lodestone` executable, run as a user would.
@Suite(.serialized) struct EndToEndTests {
    /// This suite's data directory: its own, since a running device holds its data directory's
    /// lock and another suite's device (or another test process) in the same one would be refused.
    static let dataDirectory = "/tmp/lodestone-e2e-data-\(getpid())"

    /// The repository's boards/ folder (the board files), found from this file.
    static let boardsDirectory: String = {
        var path = #filePath
        for _ in 0..<3 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
        return path + "/boards"
    }()

    /// .build/debug/lodestone (or whichever configuration built these tests).
    static var executable: String {
        var path = #filePath
        for _ in 0..<3 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
        for configuration in ["debug", "release"] {
            let candidate = path + "/.build/\(configuration)/lodestone"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return path + "/.build/debug/lodestone"
    }

    struct Child {
        let pid: pid_t
        let stdout: Int32
    }

    func spawn(_ arguments: [String]) throws -> Child { try spawnProgram(Self.executable, arguments) }

    /// `environment`: the child's whole environment (nil: this process's).
    func spawnProgram(_ program: String, _ arguments: [String], environment: [String]? = nil, output: [Int32]? = nil) throws -> Child {
        var fds: [Int32] = output ?? [-1, -1]
        if output == nil { try #require(pipe(&fds) == 0) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
        posix_spawn_file_actions_adddup2(&actions, fds[1], 2)
        posix_spawn_file_actions_addclose(&actions, fds[0])
        let all = [program] + arguments
        var cArguments: [UnsafeMutablePointer<CChar>?] = all.map { strdup($0) } + [nil]
        defer { for p in cArguments { free(p) } }
        var cEnvironment: [UnsafeMutablePointer<CChar>?] = (environment ?? []).map { strdup($0) } + [nil]
        defer { for p in cEnvironment { free(p) } }
        // A test thread that ran the runtime in this process has the stop signals blocked
        // (`StopSignal`), and a child inherits the mask: it starts as from a shell instead,
        // nothing blocked and SIGINT, SIGTERM and SIGHUP at their default actions.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        var stops = sigset_t()
        sigemptyset(&stops)
        for signal in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&stops, signal) }
        posix_spawnattr_setsigdefault(&attributes, &stops)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let spawned =
            environment == nil
            ? posix_spawn(&pid, program, &actions, &attributes, &cArguments, environ)
            : posix_spawn(&pid, program, &actions, &attributes, &cArguments, &cEnvironment)
        try #require(spawned == 0)
        close(fds[1])
        return Child(pid: pid, stdout: fds[0])
    }

    func finish(_ child: Child) -> (status: Int32, output: String) {
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(child.stdout, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            output += buffer[0..<n]
        }
        close(child.stdout)
        var status: Int32 = 0
        waitpid(child.pid, &status, 0)
        return ((status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F), String(decoding: output, as: UTF8.self))
    }

    func connect(_ path: String) -> ReportClient? {
        for _ in 0..<300 {
            if let client = try? ReportClient(path: path) { return client }
            usleep(20_000)
        }
        return nil
    }

    /// Connects to a device just spawned; when it never serves, stops it and records what it
    /// said (a port taken, a bad option), so the failure explains itself.
    func connect(_ path: String, to child: Child) -> ReportClient? {
        for _ in 0..<750 {
            if let client = try? ReportClient(path: path) { return client }
            var status: Int32 = 0
            if waitpid(child.pid, &status, WNOHANG) == child.pid {
                Issue.record("the device stopped before it served \(path): \(finish(child).output)")
                return nil
            }
            usleep(20_000)
        }
        kill(child.pid, SIGTERM)
        Issue.record("the device did not serve \(path) within 15 s: \(finish(child).output)")
        return nil
    }

    /// `count` different TCP ports on loopback that nothing listens on now: drawn at random
    /// below the kernel's ephemeral range (where no outgoing connection of another test takes
    /// one between this check and the device's listen), each checked free by binding it.
    static func freePorts(_ count: Int) -> [Int] {
        var held: [Int32] = []
        defer { for fd in held { close(fd) } }
        var ports: [Int] = []
        var tries = 0
        while ports.count < count && tries < 1000 {
            tries += 1
            let port = Int.random(in: 20_000..<32_000)
            guard !ports.contains(port) else { continue }
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { continue }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
            }
            if bound { held.append(fd); ports.append(port) } else { close(fd) }
        }
        return ports + [Int](repeating: 0, count: count - ports.count)
    }

    static func freePort() -> Int { freePorts(1).first ?? 0 }

    /// A TCP connection to a loopback port, tried again for up to `seconds` while nothing
    /// listens there yet (a device opens its ports one after another); nil when none answers.
    static func connectTCP(port: Int, seconds: Double = 5) -> Int32? {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(clamping: port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        for _ in 0..<max(1, Int(seconds * 50)) {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { return nil }
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            if connected == 0 { return fd }
            close(fd)
            usleep(20_000)
        }
        return nil
    }

    /// A UDP socket bound to a free loopback port, and the port (nil when none can be had).
    static func udpReceiver() -> (fd: Int32, port: UInt16)? {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { close(fd); return nil }
        return (fd, UInt16(bigEndian: address.sin_port))
    }

    /// Five seconds on the simulated board: every class arrives with plausible values.
    @Test func runProducesEveryClassOnTheSocket() throws {
        let socket = "/tmp/lodestone-e2e-\(getpid()).sock"
        let child = try spawn([
            "run", "--duration", "5", "--socket", socket, "--display", "none", "--scenario", "still",
            "--data-dir", Self.dataDirectory, "--stats"
        ])
        let client = try #require(connect(socket))
        client.send(#"?WATCH={"enable":true,"json":true};"#)
        var seen: [String: JSONValue] = [:]
        while let line = client.readLine(timeoutMilliseconds: 8000) {
            guard let report = try? JSONValue.parse(line), let name = report["class"]?.stringValue else {
                Issue.record("not JSON: \(line)")
                continue
            }
            seen[name] = report
        }
        let (status, output) = finish(child)
        #expect(status == 0, "\(output)")
        #expect(access(socket, F_OK) != 0, "socket file left behind")
        for name in ["VERSION", "DEVICES", "WATCH", "TPV", "SKY", "ATT", "IMU", "ENV", "MOTION"] {
            #expect(seen[name] != nil, "no \(name) report")
        }
        // Lying level and still, pointing north, at 408 m in Zurich.
        let tpv = try #require(seen["TPV"])
        #expect(tpv["mode"] == .number(3))
        #expect(abs((tpv["lat"]?.numberValue ?? 0) - 47.3769) < 0.001)
        #expect(abs((tpv["lon"]?.numberValue ?? 0) - 8.5417) < 0.001)
        #expect(abs((tpv["altMSL"]?.numberValue ?? 0) - 408) < 30)
        let att = try #require(seen["ATT"])
        #expect(abs(att["pitch"]?.numberValue ?? 99) < 2)
        #expect(abs(att["roll"]?.numberValue ?? 99) < 2)
        // Pointing true north is 356.6 magnetic here; the simulated magnetometer carries
        // uncorrected hard and soft iron (calibration comes later), worth up to about 10 degrees.
        let heading = att["mheading"]?.numberValue ?? -1
        #expect(abs(Angle.signed(heading - 356.6)) < 15, "heading \(heading)")
        #expect(abs((att["acc_z"]?.numberValue ?? 0) + 9.81) < 0.5)
        let env = try #require(seen["ENV"])
        #expect(abs((env["pressure"]?.numberValue ?? 0) - 964.7) < 5)
        #expect(abs((env["altBaro"]?.numberValue ?? 0) - 408) < 40)
        #expect(output.contains("imu"), "no --stats table in: \(output)")
    }

    @Test func sigtermStopsCleanly() throws {
        let socket = "/tmp/lodestone-e2e-term-\(getpid()).sock"
        let child = try spawn(["run", "--socket", socket, "--display", "none", "--data-dir", Self.dataDirectory])
        _ = try #require(connect(socket))
        kill(child.pid, SIGTERM)
        let (status, output) = finish(child)
        #expect(status == 0, "\(output)")
        #expect(output.contains("stopped (SIGTERM)"))
        #expect(access(socket, F_OK) != 0)
    }

    @Test(arguments: [
        (["run", "--bogus"], 2), (["run", "--duration", "abc"], 2), (["frobnicate"], 2),
        (["run", "--board", "/nonexistent.json", "--display", "none"], 1), (["help"], 0), (["run", "--help"], 0)
    ])
    func exitStatusesFollowTheContract(arguments: [String], expected: Int) throws {
        let (status, output) = finish(try spawn(arguments))
        #expect(Int(status) == expected, "\(output)")
        if expected != 0 {
            #expect(output.split(separator: "\n").count == 1, "errors are one line: \(output)")
        }
    }

    @Test func watchAndStatusReadARunningInstance() throws {
        let socket = "/tmp/lodestone-e2e-watch-\(getpid()).sock"
        let runner = try spawn(["run", "--duration", "4", "--socket", socket, "--display", "none", "--data-dir", Self.dataDirectory])
        _ = try #require(connect(socket))
        let (watchStatus, watched) = finish(try spawn(["watch", "--socket", socket, "--count", "20"]))
        #expect(watchStatus == 0)
        #expect(watched.split(separator: "\n").count == 20)
        #expect(watched.hasPrefix(#"{"class":"VERSION""#))
        let (statusStatus, table) = finish(try spawn(["status", "--socket", socket]))
        #expect(statusStatus == 0)
        for task in ["imu", "mag", "baro", "process", "gps"] { #expect(table.contains(task)) }
        #expect(table.contains("imu ok"))
        _ = finish(runner)
    }

    /// Every chip driver runs end to end against its emulator, selected by a board file alone,
    /// including breakouts mounted turned and upside down.
    @Test(arguments: ["sim-mpu9250", "sim-lsm6dsox", "sim-turned", "sim-bmp390"])
    func everyChipRunsEndToEndFromABoardFile(board: String) throws {
        let boards = String(Self.executable.dropLast("/.build/debug/lodestone".count)) + "/boards/"
        let socket = "/tmp/lodestone-e2e-\(board)-\(getpid()).sock"
        // Fixed rates: this is about the chips (adaptive sampling has its own test).
        let child = try spawn([
            "run", "--board", boards + board + ".json", "--duration", "4", "--socket", socket,
            "--display", "none", "--scenario", "still", "--data-dir", Self.dataDirectory,
            "--no-adaptive"
        ])
        let client = try #require(connect(socket))
        client.send(#"?WATCH={"enable":true,"json":true};"#)
        var seen: [String: JSONValue] = [:]
        var environmentReports = 0
        var fixes = 0
        while let line = client.readLine(timeoutMilliseconds: 8000) {
            guard let report = try? JSONValue.parse(line), let name = report["class"]?.stringValue else { continue }
            seen[name] = report
            // The DEVICES sent on WATCH predates the first samples; ask again once all are
            // running (a barometer reading twice, and a fix from the GPS).
            if name == "ENV" { environmentReports += 1 }
            if name == "TPV" { fixes += 1 }
            // The state is published by the processing task a moment after a fix is parsed:
            // ask again at each ENV after that, and judge the last answer.
            if name == "ENV" && environmentReports >= 2 && fixes >= 2 {
                client.send("?DEVICES;")
            }
        }
        let (status, output) = finish(child)
        #expect(status == 0, "\(output)")
        if case .array(let devices)? = seen["DEVICES"]?["devices"] {
            #expect(devices.count == 4)
            for device in devices { #expect(device["health"]?.stringValue == "ok", "\(board): \(device)") }
        } else {
            Issue.record("\(board): no DEVICES report")
        }
        let att = try #require(seen["ATT"], "\(board)")
        #expect(abs(att["pitch"]?.numberValue ?? 99) < 2, "\(board)")
        #expect(abs(att["roll"]?.numberValue ?? 99) < 2, "\(board)")
        #expect(abs((att["acc_z"]?.numberValue ?? 0) + 9.81) < 0.3, "\(board)")
        // Uncalibrated hard iron (a few microtesla, turned with the chip) moves the heading by up to ~20 degrees.
        let heading = att["mheading"]?.numberValue ?? -1
        #expect(abs(Angle.signed(heading - 356.6)) < 25, "\(board): heading \(heading)")
        let env = try #require(seen["ENV"], "\(board)")
        #expect(abs((env["pressure"]?.numberValue ?? 0) - 964.7) < 3, "\(board)")
        #expect(abs((env["temp"]?.numberValue ?? -99) - 15) < 10, "\(board)")
    }

    /// The framebuffer display, drawn into a file-backed framebuffer with a PPM screenshot.
    @Test func framebufferDisplayDrawsTheFieldScreen() throws {
        let screen = "/tmp/lodestone-e2e-screen-\(getpid()).raw"
        defer { unlink(screen); unlink(screen + ".ppm") }
        let child = try spawn([
            "run", "--duration", "4", "--display", "fb:" + screen, "--scenario", "still",
            "--socket", "/tmp/lodestone-e2e-fb-\(getpid()).sock", "--data-dir", Self.dataDirectory
        ])
        // While it runs: the heading in amber at the top left.
        var live: [UInt8] = []
        for _ in 0..<60 where Self.amberPixels(live) <= 200 {
            usleep(100_000)
            live = Self.readFile(screen + ".ppm")
        }
        let (status, output) = finish(child)
        #expect(status == 0, "\(output)")
        #expect(live.starts(with: Array("P6\n320 240\n255\n".utf8)))
        #expect(live.count == 15 + 3 * 320 * 240)
        #expect(Self.amberPixels(live) > 200, "amber heading pixels: \(Self.amberPixels(live))")
        // Once stopped: no stale heading, the panel says it stopped (in the warning red).
        let stopped = Self.readFile(screen + ".ppm")
        #expect(stopped.count == live.count && Self.amberPixels(stopped) == 0)
        var red = 0
        for i in stride(from: 15, to: stopped.count - 2, by: 3) where stopped[i] > 150 && stopped[i + 1] < 80 && stopped[i + 2] < 80 { red += 1 }
        #expect(red > 50, "the stopped screen's warning pixels: \(red)")
    }

    /// Pixels of the amber heading in the top 40 lines of a 320 x 240 screenshot.
    static func amberPixels(_ bytes: [UInt8]) -> Int {
        var amber = 0
        let start = "P6\n320 240\n255\n".utf8.count
        for y in 0..<40 {
            for x in 0..<320 {
                let i = start + 3 * (y * 320 + x)
                if i + 2 < bytes.count && bytes[i] > 200 && bytes[i + 1] > 150 && bytes[i + 1] < 220 && bytes[i + 2] < 40 { amber += 1 }
            }
        }
        return amber
    }

    static func readFile(_ path: String) -> [UInt8] {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return [] }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            bytes += chunk[0..<n]
        }
        return bytes
    }

    /// `--version` (and `version`) print the version and the source revision, and exit 0.
    @Test(arguments: ["--version", "version"])
    func theVersionNamesTheRevision(argument: String) throws {
        let (status, output) = finish(try spawn([argument]))
        #expect(status == 0)
        let line = output.split(separator: "\n").first.map(String.init) ?? ""
        let parts = line.split(separator: " ")
        #expect(parts.count == 3 && parts.first == "lodestone", "\(line)")
        #expect(parts.dropFirst().first?.split(separator: ".").count == 3, "\(line)")
        let revision = parts.last.map { String($0.dropFirst().dropLast()) } ?? ""
        let commit = revision.hasSuffix("+changes") ? String(revision.dropLast(8)) : revision
        #expect(revision == "unknown" || (commit.count == 12 && commit.allSatisfy { $0.isHexDigit }), "\(line)")
    }

    /// A board whose I2C bus is not there (i2c-dev not loaded yet) still starts: the sensors on
    /// it are reported with the reason, and the rest runs.
    @Test func aMissingBusDoesNotStopTheStart() throws {
        let board = "/tmp/lodestone-e2e-nobus-\(getpid()).json"
        defer { unlink(board) }
        let text =
            #"{"name":"no bus yet","i2c":"/dev/i2c-lodestone-absent","imu":{"chip":"mpu6050","address":"0x68"},"barometer":{"chip":"bmp280","address":"0x76"}}"#
        let fd = open(board, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        try #require(fd >= 0)
        let written = text.withCString { write(fd, $0, strlen($0)) }
        close(fd)
        try #require(written == text.utf8.count)
        let (status, output) = finish(
            try spawn([
                "run", "--board", board, "--duration", "1.5", "--display", "none",
                "--socket", "/tmp/lodestone-e2e-nobus-\(getpid()).sock", "--data-dir", Self.dataDirectory
            ]))
        #expect(status == 0, "\(output)")
        #expect(output.contains("/dev/i2c-lodestone-absent does not exist") && output.contains("start when it can be opened"), "\(output)")
        #expect(output.contains("barometer: /dev/i2c-lodestone-absent does not exist"), "the sensor says why, once: \(output)")
    }

    /// A display or socket path that names nothing is an error, and nothing is made there.
    @Test func pathsThatNameNothingAreErrorsThatLeaveNothing() throws {
        let missing = "/dev/fb-lodestone-\(getpid())"
        let (status, output) = finish(
            try spawn([
                "run", "--duration", "1", "--display", "fb:" + missing, "--data-dir", Self.dataDirectory,
                "--socket", "/tmp/lodestone-e2e-nofb-\(getpid()).sock"
            ]))
        #expect(status == 1 && output.contains("does not exist"), "\(output)")
        #expect(access(missing, F_OK) != 0 && access(missing + ".ppm", F_OK) != 0, "nothing made in /dev")
        let directory = "/tmp/lodestone-e2e-absent-\(getpid())"
        let (socketStatus, socketOutput) = finish(
            try spawn([
                "run", "--duration", "1", "--display", "none", "--data-dir", Self.dataDirectory,
                "--socket", directory + "/sub/s.sock"
            ]))
        #expect(socketStatus == 1, "\(socketOutput)")
        #expect(access(directory, F_OK) != 0, "the socket's directory was not made")
    }
}
