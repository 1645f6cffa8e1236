import Glibc
import LodestoneCore
import LodestoneOutputs
import Testing

/// `lodestone run` as a systemd notify service: a test listener stands in for the service
/// manager's socket. READY=1 comes once the socket serves, WATCHDOG=1 at half of
/// WATCHDOG_USEC, the pings stop while the sampling thread is stuck on a hung bus and come back
/// after it, STOPPING=1 at the end; with JOURNAL_STREAM naming its stderr, each log line
/// starts with its syslog priority.
@Suite(.serialized) struct ServiceManagerTests {
    struct Message { let text: String; let seconds: Double }

    @Test func readyWatchdogAndStoppingFollowTheDevice() throws {
        let listener = "/tmp/lodestone-notify-\(getpid()).sock"
        let socket = "/tmp/lodestone-notify-run-\(getpid()).sock"
        unlink(listener)
        defer { unlink(listener) }
        let fd = Glibc.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        try #require(fd >= 0)
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in for (i, b) in listener.utf8.enumerated() { raw[i] = b } }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        try #require(bound == 0)

        var pipeFDs: [Int32] = [-1, -1]
        try #require(pipe(&pipeFDs) == 0)
        var status = stat()
        try #require(fstat(pipeFDs[1], &status) == 0)
        let environment = [
            "NOTIFY_SOCKET=" + listener, "WATCHDOG_USEC=400000",
            "JOURNAL_STREAM=\(status.st_dev):\(status.st_ino)", "PATH=/usr/bin:/bin"
        ]
        let arguments = [
            "run", "--duration", "9", "--display", "none", "--scenario", "still", "--fault", "bus-hang@3+3",
            "--socket", socket, "--data-dir", "/tmp/lodestone-notify-data"
        ]
        let pid = try EndToEndTests().spawnProgram(EndToEndTests.executable, arguments, environment: environment, output: pipeFDs).pid

        let clock = SystemMonotonicClock()
        let start = clock.now()
        var messages: [Message] = []
        var servedAtReady: Bool?
        var buffer = [UInt8](repeating: 0, count: 4096)
        while Double(clock.now() - start) / 1e9 < 25, messages.last?.text.contains("STOPPING=1") != true {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 500) > 0 else { continue }
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { continue }
            let text = String(decoding: buffer[0..<n], as: UTF8.self)
            messages.append(Message(text: text, seconds: Double(clock.now() - start) / 1e9))
            if text.contains("READY=1") { servedAtReady = (try? ReportClient(path: socket)) != nil }
        }
        var output: [UInt8] = []
        while true {
            let n = buffer.withUnsafeMutableBytes { read(pipeFDs[0], $0.baseAddress, $0.count) }
            if n <= 0 { break }
            output += buffer[0..<n]
        }
        close(pipeFDs[0])
        var exitStatus: Int32 = 0
        waitpid(pid, &exitStatus, 0)

        #expect(messages.first?.text.hasPrefix("READY=1") == true, "\(messages.map(\.text))")
        #expect(servedAtReady == true, "the socket serves when READY=1 is sent")
        #expect(messages.last?.text == "STOPPING=1")
        let pings = messages.filter { $0.text == "WATCHDOG=1" }.map(\.seconds)
        let gaps = zip(pings.dropFirst(), pings).map { $0 - $1 }
        let sorted = gaps.sorted()
        let median = sorted.isEmpty ? 0 : sorted[sorted.count / 2]
        #expect(pings.count > 15 && median > 0.15 && median < 0.35, "pings every 0.2 s: \(pings.count), median \(median)")
        // The bus hangs for 3 s from the trip's third second: no ping then, pings again after.
        let longest = sorted.last ?? 0
        #expect(longest > 2.5 && longest < 4.5, "the longest gap between pings: \(longest)")
        if let hang = zip(pings.dropFirst(), pings).first(where: { $0 - $1 == longest }) {
            #expect(pings.contains { $0 > hang.0 + 0.5 }, "pings come back after the hang")
        }
        #expect(messages.contains { $0.text.hasPrefix("STATUS=") && $0.text.contains("imu ok") }, "\(messages.map(\.text))")
        let lines = String(decoding: output, as: UTF8.self).split(separator: "\n")
        #expect(
            !lines.isEmpty
                && lines.allSatisfy { $0.hasPrefix("<6>lodestone:") || $0.hasPrefix("<4>lodestone: warning:") || $0.hasPrefix("<3>lodestone: error:") },
            "\(lines.prefix(5))")
    }
}
