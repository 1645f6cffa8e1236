import Glibc
import LodestoneCore
import Testing

/// The Signal K output of a running device, read as signalk-server's two connections read it:
/// "Signal K over TCP" splits the stream at newlines, "Signal K over UDP" parses each datagram
/// whole. Both streams are then checked by scripts/signalk-check.py against the
/// specification's schemas (../shared/vectors/signalk-schemas) with python3-jsonschema:
/// every delta valid, and applied to a full model, every path and unit valid.
@Suite(.serialized) struct SignalKTests {
    static let root: String = {
        var path = #filePath
        for _ in 0..<3 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
        return path
    }()
    static var schemas: String { root + "/../shared/vectors/signalk-schemas" }

    static func save(_ bytes: [UInt8], to path: String) -> Bool {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) } == bytes.count
    }

    @Test func deltasOverTCPAndUDPAreValidSignalK() throws {
        let (udp, udpPort) = try #require(EndToEndTests.udpReceiver())
        defer { close(udp) }
        let tcpPort = EndToEndTests.freePort()

        let runner = EndToEndTests()
        let data = "/tmp/lodestone-signalk-\(getpid())"
        // The walk's figure-8 at four times real speed: calibrated within the run, so the
        // heading appears once it can be trusted.
        let child = try runner.spawn([
            "run", "--scenario", "walk", "--speed", "4", "--duration", "12", "--display", "none",
            "--signalk-listen", "127.0.0.1:\(tcpPort)", "--signalk-udp", "127.0.0.1:\(udpPort)",
            "--socket", data + ".sock", "--data-dir", data
        ])
        guard runner.connect(data + ".sock", to: child) != nil else { return }
        // The gpsd socket answers a moment before the Signal K port is open: a client retries.
        let tcp = try #require(EndToEndTests.connectTCP(port: tcpPort), "nothing listened on the Signal K port \(tcpPort)")
        defer { close(tcp) }

        var stream: [UInt8] = [], datagrams: [[UInt8]] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let clock = SystemMonotonicClock()
        let start = clock.now()
        while Double(clock.now() - start) / 1e9 < 15 {
            var polled = [pollfd(fd: tcp, events: Int16(POLLIN), revents: 0), pollfd(fd: udp, events: Int16(POLLIN), revents: 0)]
            guard poll(&polled, 2, 500) > 0 else { continue }
            if polled.first?.revents ?? 0 != 0 {
                let n = buffer.withUnsafeMutableBytes { recv(tcp, $0.baseAddress, $0.count, 0) }
                if n <= 0 { break }
                stream += buffer.prefix(n)
            }
            if polled.last?.revents ?? 0 != 0 {
                let n = buffer.withUnsafeMutableBytes { recv(udp, $0.baseAddress, $0.count, 0) }
                if n > 0 { datagrams.append(Array(buffer.prefix(n))) }
            }
        }
        let (status, output) = runner.finish(child)
        #expect(status == 0, "\(output)")
        #expect(output.contains("serving Signal K deltas on TCP 127.0.0.1:\(tcpPort)"))
        let lines = String(decoding: stream, as: UTF8.self).split(separator: "\n")
        #expect(lines.count > 50 && datagrams.count > 50, "\(lines.count) lines, \(datagrams.count) datagrams")
        // One delta per datagram, whole: a datagram is one object ending in a newline.
        for datagram in datagrams.prefix(400) {
            let text = String(decoding: datagram, as: UTF8.self)
            #expect(text.hasPrefix("{") && text.hasSuffix("}\n") && text.filter { $0 == "\n" }.count == 1, "\(text)")
        }
        #expect(lines.contains { $0.contains("navigation.headingMagnetic") }, "the heading, once calibrated")
        #expect(lines.contains { $0.contains("\"meta\"") }, "the meta delta greets a TCP client")

        guard access("/usr/bin/python3", X_OK) == 0, access(Self.schemas + "/delta.json", R_OK) == 0,
            TerminalDisplayTests.output("/usr/bin/python3 -c 'import jsonschema' && echo ok").contains("ok")
        else {
            print("skipped: the schema check needs ../shared/vectors/signalk-schemas and python3-jsonschema (scripts/install-deps --test)")
            return
        }
        let tcpFile = data + "-tcp.txt", udpFile = data + "-udp.bin"
        defer { unlink(tcpFile); unlink(udpFile) }
        try #require(Self.save(stream, to: tcpFile) && Self.save(Array(datagrams.joined(separator: [0])), to: udpFile))
        let check = Self.root + "/scripts/signalk-check.py"
        for (file, flag) in [(tcpFile, ""), (udpFile, " --udp")] {
            let result = TerminalDisplayTests.output("/usr/bin/python3 \(check) \(Self.schemas) \(file)\(flag); echo exit=$?")
            #expect(result.contains("exit=0") && result.contains("\"problems\": []"), "\(result.prefix(3000))")
            for path in [
                "navigation.attitude", "navigation.headingMagnetic", "navigation.position", "navigation.speedOverGround",
                "environment.outside.pressure", "environment.outside.temperature", "navigation.gnss.satellites"
            ] {
                #expect(result.contains("\"\(path)\""), "\(path) in \(file)")
            }
        }
    }
}
