import Glibc
import LodestoneCore
import LodestoneDevices
import Testing

/// NMEA 0183 over UDP: every sentence of the NMEA output as a datagram of its own, ending in CR
/// LF, with a good checksum: the heading and the receiver's RMC among them.
@Suite(.serialized) struct NMEAUDPTests {
    @Test func sentencesArriveAsDatagrams() throws {
        let (fd, port) = try #require(EndToEndTests.udpReceiver())
        defer { close(fd) }

        let runner = EndToEndTests()
        // Long enough for the walk's figure-8 to calibrate the compass: HDM only comes then.
        let child = try runner.spawn([
            "run", "--duration", "30", "--display", "none", "--no-adaptive", "--nmea-udp", "127.0.0.1:\(port)",
            "--socket", "/tmp/lodestone-udp-\(getpid()).sock", "--data-dir", "/tmp/lodestone-udp-data"
        ])
        var datagrams: [[UInt8]] = []
        var buffer = [UInt8](repeating: 0, count: 2048)
        let clock = SystemMonotonicClock()
        let start = clock.now()
        var headings = 0
        while Double(clock.now() - start) / 1e9 < 35, headings < 20, datagrams.count < 20_000 {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 500) > 0 else { continue }
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n > 0 { datagrams.append(Array(buffer[0..<n])) }
            if n > 6, buffer[3] == UInt8(ascii: "H"), buffer[4] == UInt8(ascii: "D"), buffer[5] == UInt8(ascii: "M") { headings += 1 }
        }
        kill(child.pid, SIGTERM)
        let (status, output) = runner.finish(child)
        #expect(status == 0, "\(output)")
        #expect(output.contains("sending NMEA 0183 over UDP to 127.0.0.1:\(port)"))
        #expect(datagrams.count > 20, "\(datagrams.count) datagrams")
        var kinds = Set<String>()
        for datagram in datagrams {
            #expect(datagram.suffix(2) == [13, 10], "one sentence per datagram, ending in CR LF")
            let sentence = Array(datagram.dropLast(2))
            sentence.withUnsafeBufferPointer { #expect(NMEAFields($0) != nil, "\(String(decoding: sentence, as: UTF8.self))") }
            kinds.insert(String(decoding: sentence.dropFirst(3).prefix(3), as: UTF8.self))
        }
        #expect(kinds.contains("HDM") && kinds.contains("XDR") && kinds.contains("RMC"), "\(kinds)")
    }
}
