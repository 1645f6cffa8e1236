import CLinux
import Glibc
import LodestoneCore
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
        #expect(throws: SerialError.self) { _ = try port.read(into: buffer) }   // back-off not yet over
        clock.advance(by: 600_000_000)
        #expect(try port.read(into: buffer) == 0)   // reopened (raw mode set), nothing sent yet
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
        #expect(opens == 1)   // no retry storm inside the back-off
        clock.advance(by: 500_000_000)
        _ = try? port.read(into: buffer)
        #expect(opens == 2)
        clock.advance(by: 500_000_000)
        _ = try? port.read(into: buffer)
        #expect(opens == 2)   // back-off doubled to 1 s
        clock.advance(by: 500_000_000)
        _ = try? port.read(into: buffer)
        #expect(opens == 3)
        #expect(port.lastError == .notFound(path: "/dev/ttyUSB-missing"))
    }
}
