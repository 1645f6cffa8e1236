import Glibc
import LodestoneCore
import LodestoneOutputs
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
    /// given (its clock set ahead of the system's with --sim-start now+S).
    @Test func chronydTakesTheReceiversTime() throws {
        guard fileExists("/usr/sbin/chronyd"), fileExists("/usr/bin/chronyc") else {
            Issue.record("chrony is not installed (scripts/install-deps --test installs it): chronyd was not tried")
            return
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
        let ahead = 0.4
        let run = try binary.spawn([
            "run", "--sim-start", "now+\(ahead)", "--chrony-socket", folder + "/gps.sock", "--duration", "9",
            "--display", "none", "--no-adaptive", "--socket", folder + "/lodestone.sock", "--data-dir", folder + "/data",
            // Only the GPS matters here: a slow loop leaves the cores to the suite's other devices.
            "--loop-rate", "50", "--imu-rate", "25", "--mag-rate", "10", "--baro-rate", "5"
        ])
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
        // local clock 0.4 s behind. The port is read every 50 ms, so the sample is late by up
        // to that much.
        let offset = Double(gps[8]) ?? .nan
        #expect(abs(offset + ahead) < 0.07, "offset \(offset) s against the receiver's \(ahead) s ahead: \(sources)")
    }
}
