import Glibc
import LodestoneCore
import LodestoneEncoding
import LodestoneHAL
import LodestoneOutputs
import LodestoneSim
import Testing

/// The GPS time for the whole board: chrony's SOCK refclock samples, their arithmetic, their
/// bytes as chrony reads them, and Debian's own chronyd taking them.
@Suite(.serialized) struct ChronyTests {
    @Test func theBurstBeganWhenItsBytesHadNotYetArrived() throws {
        // 480 bytes at 9600 baud (10 bits a byte) took 0.5 s: the burst began 0.5 s before
        // its last sentence was read.
        let sample = try #require(ChronyFeed.sample(utc: 1_800_000_000, receivedAt: 1_800_000_000.62, burstBytes: 480, baud: 9600))
        #expect(abs(sample.time - 1_800_000_000.12) < 1e-6)
        #expect(abs(sample.offset - -0.12) < 1e-6)
        // At 115200 baud the same burst is 41.7 ms long.
        let fast = try #require(ChronyFeed.sample(utc: 100, receivedAt: 100.05, burstBytes: 480, baud: 115_200))
        #expect(abs(fast.offset - (100 - (100.05 - 480.0 * 10 / 115_200))) < 1e-9)
        // A line without a pace (a pseudo-terminal) takes the read time as it is.
        #expect(abs((ChronyFeed.sample(utc: 100, receivedAt: 99.7, burstBytes: 0, baud: nil)?.offset ?? 0) - 0.3) < 1e-9)
        // With a pace but no length, no sample.
        #expect(ChronyFeed.sample(utc: 100, receivedAt: 100.5, burstBytes: 0, baud: 9600) == nil)
        #expect(ChronyFeed.sample(utc: .nan, receivedAt: 100.5, burstBytes: 10, baud: 9600) == nil)
    }

    @Test func aPulseGivesTheEdgeAndTheSecondTheSentencesName() throws {
        // The receiver is 0.4 s ahead: its second 1001 began at 1000.6 on the system's clock,
        // where the pulse's edge was stamped. Its sentences began 0.15 s later (its latency),
        // so they alone say 0.25 s; the edge says 0.4 s, whatever the latency.
        for latency in [0.0, 0.15, 0.5, 0.7] {
            let began = 1000.6 + latency
            let sample = try #require(ChronyFeed.sample(utc: 1001, receivedAt: began + 0.05, burstBytes: 48, baud: 9600, pulseAt: 1000.6))
            #expect(sample.source == .pulse && sample.time == 1000.6)
            #expect(abs(sample.offset - 0.4) < 1e-9, "latency \(latency): offset \(sample.offset)")
        }
        // A 10 Hz receiver's fix at x.3 carries the pulse of x.0.
        let tenth = try #require(ChronyFeed.sample(utc: 2000.3, receivedAt: 1999.94, burstBytes: 0, baud: nil, pulseAt: 1999.6))
        #expect(abs(tenth.offset - 0.4) < 1e-9 && tenth.source == .pulse)
        // A clock hours off: the same arithmetic.
        let far = try #require(ChronyFeed.sample(utc: 1_800_000_000, receivedAt: 1_799_992_800.2, burstBytes: 0, baud: nil, pulseAt: 1_799_992_800.1))
        #expect(abs(far.offset - 7199.9) < 1e-6)
        // An edge after the sentences were read is no pulse of theirs.
        #expect(ChronyFeed.sample(utc: 1001, receivedAt: 1000.9, burstBytes: 0, baud: nil, pulseAt: 1001.6)?.source == .sentences)
    }

    @Test func theSimulatedPulseRisesAtTheReceiversWholeSeconds() throws {
        let clock = ManualClock(start: 5_000_000_000)
        let scenario = Scenario(.still, startUTC: 1_800_000_000.3)
        let world = SimulatedWorld(scenario: scenario, clock: clock)
        let pulse = SimulatedPulse(world: world)
        var edges: [EdgeEvent] = []
        clock.advance(by: 2_500_000_000)  // receiver time 1_800_000_002.8
        try pulse.takeEvents { edges.append($0) }
        // Seconds ...001 and ...002 began 0.7 s and 1.7 s after the start; each edge falls 0.1 s later.
        let expected: [(Bool, MonotonicNanoseconds)] = [
            (true, 5_700_000_000), (false, 5_800_000_000), (true, 6_700_000_000), (false, 6_800_000_000)
        ]
        #expect(edges.count == expected.count, "\(edges)")
        for (edge, want) in zip(edges, expected) {
            #expect(edge.rising == want.0)
            #expect(edge.time > want.1 ? edge.time - want.1 < 1000 : want.1 - edge.time < 1000, "\(edge.time) against \(want.1)")
        }
        // Nothing twice; the next second's edge when its time comes.
        #expect(try pulse.takeEvents { _ in } == 0)
        clock.advance(by: 250_000_000)  // 3.05: the rising edge at 3.0, not yet the falling one
        #expect(try pulse.takeEvents { _ in } == 1)
    }

    @Test func aSampleHasChronysLayout() throws {
        // chrony's refclock_sock.c: struct timeval tv; double offset; int pulse, leap, _pad;
        // int magic = 0x534f434b. On this 64-bit machine: 16 + 8 + 16 = 40 bytes.
        let path = "/tmp/lodestone-chrony-layout-\(getpid()).sock"
        unlink(path)
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        try #require(fd >= 0)
        defer { close(fd); unlink(path) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() where index < raw.count - 1 { raw[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        try #require(bound == 0)
        let feed = ChronyFeed(path: path, baud: nil)
        feed.send(utc: 1_800_000_000.25, receivedAt: 1_800_000_000.0, burstBytes: 0)
        #expect(feed.samples == 1 && feed.problem == nil)
        var bytes = [UInt8](repeating: 0, count: 64)
        let count = bytes.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        try #require(count == 40)
        func integer(_ at: Int, _ size: Int) -> Int64 {
            (0..<size).reduce(Int64(0)) { $0 | Int64(bytes[at + $1]) << (8 * Int64($1)) }
        }
        #expect(integer(0, 8) == 1_800_000_000, "tv_sec")
        #expect(integer(8, 8) == 0, "tv_usec")
        let offset = Double(bitPattern: UInt64(bitPattern: integer(16, 8)))
        #expect(abs(offset - 0.25) < 1e-6)
        #expect(integer(24, 4) == 0 && integer(28, 4) == 0, "pulse and leap")
        #expect(integer(36, 4) == 0x534f_434b, "magic")
    }

    @Test func aMissingChronydIsSaidNotFatal() {
        let feed = ChronyFeed(path: "/tmp/lodestone-no-chronyd-\(getpid()).sock", baud: 9600)
        feed.send(utc: 100, receivedAt: 100.5, burstBytes: 100)
        #expect(feed.samples == 0)
        #expect(feed.problem?.contains("is chronyd running") == true, "\(feed.problem ?? "no problem said")")
    }

    /// Debian's chronyd, not allowed to touch the clock (-x), takes the simulated receiver's
    /// time: `chronyc sources` lists the source as reachable, at the offset the receiver was
    /// given (its clock set ahead of the system's with --sim-start now+S). The port is read
    /// every 50 ms, so the sentences' sample is late by up to that much.
    @Test func chronydTakesTheReceiversTime() throws {
        guard let run = try chronydOffset(ahead: 0.4, board: nil) else { return }
        print("chrony: the sentences' offset \(run.offset) s against the receiver's -0.4 s")
        #expect(abs(run.offset + 0.4) < 0.07, "offset \(run.offset) s against the receiver's 0.4 s ahead: \(run.sources)")
        #expect(run.source == "nmea", "HEALTH's chrony source")
    }

    /// With a pulse line in the board file, chrony is given the pulse's edges: the offset is
    /// the receiver's to within milliseconds.
    @Test func chronydTakesThePulse() throws {
        let folder = "/tmp/lodestone-pps-board-\(getpid())"
        try #require(makeDirectories(folder, mode: 0o700))
        defer { removeTree(folder) }
        let board = """
            {"name": "simulated board with a PPS line", "simulated": true, "i2c": "sim:i2c-1",
             "imu": {"chip": "mpu6050", "address": "0x68"}, "magnetometer": {"chip": "qmc5883l", "address": "0x0d"},
             "gps": {"port": "sim:pty", "baud": 9600, "pps": 18}}
            """
        try #require(writeFileAtomically(folder + "/board.json", Array(board.utf8)))
        guard let run = try chronydOffset(ahead: -0.35, board: folder + "/board.json") else { return }
        print("chrony: the pulse's offset \(run.offset) s against the receiver's 0.35 s")
        #expect(abs(run.offset - 0.35) < 0.005, "offset \(run.offset) s against the receiver's 0.35 s behind: \(run.sources)")
        #expect(run.source == "pps", "HEALTH's chrony source")
    }

    /// Runs chronyd (never setting the clock) and the simulated board with its receiver `ahead`
    /// of the system's clock; gives chrony's measured offset of the local clock against the
    /// source, chronyc's CSV, and the source HEALTH named. Nil when chrony is not installed.
    func chronydOffset(ahead: Double, board: String?) throws -> (offset: Double, sources: String, source: String?)? {
        guard fileExists("/usr/sbin/chronyd"), fileExists("/usr/bin/chronyc") else {
            Issue.record("chrony is not installed (scripts/install-deps --test installs it): chronyd was not tried")
            return nil
        }
        let folder = "/tmp/lodestone-chrony-\(getpid())"
        removeTree(folder)
        try #require(makeDirectories(folder, mode: 0o700))
        defer { removeTree(folder) }
        let configuration = """
            refclock SOCK \(folder)/gps.sock refid GPS poll 0 delay 0.1
            pidfile \(folder)/chronyd.pid
            bindcmdaddress \(folder)/chronyd.sock
            """
        try #require(writeFileAtomically(folder + "/chrony.conf", Array(configuration.utf8)))
        let binary = EndToEndTests()
        let chronyd = try binary.spawnProgram("/usr/sbin/chronyd", ["-x", "-d", "-u", "root", "-f", folder + "/chrony.conf"])
        defer { kill(chronyd.pid, SIGTERM); _ = binary.finish(chronyd) }
        for _ in 0..<100 where !fileExists(folder + "/gps.sock") { usleep(50_000) }
        try #require(fileExists(folder + "/gps.sock"), "chronyd made its refclock socket")
        let socket = folder + "/lodestone.sock"
        let run = try binary.spawn(
            [
                "run", "--sim-start", ahead < 0 ? "now\(ahead)" : "now+\(ahead)", "--chrony-socket", folder + "/gps.sock", "--duration", "9",
                "--display", "none", "--no-adaptive", "--socket", socket, "--data-dir", folder + "/data",
                // Only the GPS matters here: a slow loop leaves the cores to the suite's other devices.
                "--loop-rate", "50", "--imu-rate", "25", "--mag-rate", "10", "--baro-rate", "5"
            ] + (board.map { ["--board", $0] } ?? []))
        // HEALTH says where the samples come from, once some have gone.
        var source: String?
        if let client = binary.connect(socket, to: run) {
            for _ in 0..<16 where source == nil {
                usleep(500_000)
                client.send("?STATUS;")
                while let line = client.readLine(timeoutMilliseconds: 1000) {
                    guard line.contains(#""class":"HEALTH""#) else { continue }
                    source = (try? JSONValue.parse(line))?["chrony"]?["source"]?.stringValue
                    break
                }
            }
        }
        let (status, said) = binary.finish(run)
        #expect(status == 0, "\(said)")
        let (_, sources) = binary.finish(try binary.spawnProgram("/usr/bin/chronyc", ["-h", folder + "/chronyd.sock", "-n", "-c", "sources"]))
        // CSV: mode, state, name, stratum, poll, reach, last rx, adjusted offset, measured offset, error.
        let gps = try #require(
            sources.split(separator: "\n").map { $0.split(separator: ",") }.first { $0.count >= 9 && $0[2] == "GPS" },
            "chronyc sources lists GPS: \(sources)")
        let reach = Int(gps[5], radix: 8) ?? 0
        #expect(reach != 0, "the source is reachable: \(sources)")
        // chronyc gives the local clock against the source: the receiver 0.4 s ahead is the
        // local clock 0.4 s behind.
        return (Double(gps[8]) ?? .nan, sources, source)
    }
}
