import CLinux
import Glibc
import LodestoneCore
import LodestoneDevices
import LodestoneHAL
import Testing

/// Unplugging and replugging a receiver, played with pseudo-terminals behind a stable
/// symlink, as udev gives a USB receiver a stable /dev/serial/by-id name.
@Suite struct ReconnectingSerialPortTests {
    final class Receiver {
        var controller: Int32 = -1
        var peripheral: Int32 = -1
        var name = ""
        init?() {
            var buffer = [CChar](repeating: 0, count: 128)
            guard lodestone_openpty(&controller, &peripheral, &buffer, buffer.count) == 0 else { return nil }
            name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        func say(_ text: String) { _ = text.withCString { write(controller, $0, strlen($0)) } }
        func unplug() { close(peripheral); close(controller) }
    }

    func readAll(_ port: ReconnectingSerialPort, attempts: Int = 50) -> String {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 256, alignment: 1)
        defer { buffer.deallocate() }
        var text: [UInt8] = []
        for _ in 0..<attempts {
            guard let count = try? port.read(into: buffer) else { break }
            text += buffer[0..<count]
            if count == 0 && !text.isEmpty { break }
            if count == 0 { usleep(2000) }
        }
        return String(decoding: text, as: UTF8.self)
    }

    @Test func reopensAfterTheReceiverComesBack() throws {
        let link = "/tmp/lodestone-gps-\(getpid())"
        let clock = ManualClock()
        let first = try #require(Receiver())
        unlink(link)
        symlink(first.name, link)
        defer { unlink(link) }
        let port = ReconnectingSerialPort(path: link, baudRate: 9600, clock: clock)
        #expect(port.isOpen)
        first.say("$GPGGA,first\r\n")
        #expect(readAll(port) == "$GPGGA,first\r\n")

        first.unplug()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64, alignment: 1)
        defer { buffer.deallocate() }
        #expect(throws: SerialError.self) { _ = try port.read(into: buffer) }
        #expect(!port.isOpen && port.disconnections == 1)

        // Plugged back in under a new device node; the stable name points at it.
        let second = try #require(Receiver())
        defer { second.unplug() }
        unlink(link)
        symlink(second.name, link)
        #expect(throws: SerialError.self) { _ = try port.read(into: buffer) }  // back-off not yet over
        clock.advance(by: 600_000_000)
        #expect(try port.read(into: buffer) == 0)  // reopened (raw mode set), nothing sent yet
        #expect(port.isOpen)
        second.say("$GPRMC,second\r\n")
        #expect(readAll(port) == "$GPRMC,second\r\n")
        #expect(port.reconnections == 1)
    }

    @Test func aPortMissingAtStartIsRetriedWithBackoff() {
        let clock = ManualClock()
        var opens = 0
        let port = ReconnectingSerialPort(path: "/dev/ttyUSB-missing", baudRate: 9600, clock: clock) { (path, _) throws(SerialError) in
            opens += 1
            throw .notFound(path: path)
        }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 8, alignment: 1)
        defer { buffer.deallocate() }
        for _ in 0..<10 { _ = try? port.read(into: buffer) }
        #expect(opens == 1)  // no retry storm inside the back-off
        clock.advance(by: 500_000_000)
        _ = try? port.read(into: buffer)
        #expect(opens == 2)
        clock.advance(by: 500_000_000)
        _ = try? port.read(into: buffer)
        #expect(opens == 2)  // back-off doubled to 1 s
        clock.advance(by: 500_000_000)
        _ = try? port.read(into: buffer)
        #expect(opens == 3)
        #expect(port.lastError == .notFound(path: "/dev/ttyUSB-missing"))
    }

    /// Line noise on a real tty: binary garbage, a cut sentence and an overlong line between
    /// good sentences, read through termios in raw mode and framed with a bounded buffer.
    @Test func framesSentencesOutOfGarbageOnATty() throws {
        let receiver = try #require(Receiver())
        defer { receiver.unplug() }
        let port = try LinuxSerialPort(path: receiver.name, baudRate: 115200)
        let good = "$GPGGA,120000.00,4722.6140,N,00832.5020,E,1,08,1.0,408.0,M,47.0,M,,*5B\r\n"
        var bytes: [UInt8] = Array(good.utf8)
        bytes += [0x00, 0xFF, 0x13, 0x80, 0x0D, 0x0A]  // binary noise
        bytes += Array("$GPRMC,12000".utf8)  // cut off by the next start
        bytes += Array("$GPVTG,".utf8) + [UInt8](repeating: 0x41, count: 300) + [0x0D, 0x0A]  // overlong
        bytes += Array(good.utf8)
        _ = bytes.withUnsafeBytes { write(receiver.controller, $0.baseAddress, $0.count) }
        var framer = NMEAFramer()
        var sentences: [String] = []
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64, alignment: 1)
        defer { buffer.deallocate() }
        for _ in 0..<100 where sentences.count < 2 {
            let count = try port.read(into: buffer)
            if count == 0 { usleep(1000); continue }
            framer.feed(UnsafeRawBufferPointer(rebasing: buffer[0..<count])) { sentences.append(String(decoding: $0, as: UTF8.self)) }
        }
        #expect(sentences.count == 2)
        #expect(sentences.allSatisfy { $0.hasPrefix("$GPGGA,120000.00") })
        #expect(framer.overlong == 1)
        #expect(framer.garbled >= 1)
    }
}
