import Glibc
import LodestoneCore
import LodestoneHAL
import LodestoneSim
import Testing

/// The termios serial code against the simulated GPS's pseudo-terminal.
@Suite struct LinuxSerialPortTests {
    @Test func readsWhatTheSimulatedReceiverWrites() throws {
        let world = SimulatedWorld(scenario: Scenario(.still), clock: ManualClock())
        let gps = try SimulatedGPS(world: world, rateHz: 1)
        let port = try LinuxSerialPort(path: gps.devicePath, baudRate: 9600)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 1)
        defer { buffer.deallocate() }
        #expect(try port.read(into: buffer) == 0)  // nothing yet, and no blocking
        let sentences = gps.epoch(world.state(at: 1)).joined()
        let controllerWrite = sentences
        gps.sendForTesting(controllerWrite)
        var received: [UInt8] = []
        for _ in 0..<100 where received.count < controllerWrite.utf8.count {
            let count = try port.read(into: buffer)
            received += buffer[0..<count]
            if count == 0 { usleep(1000) }
        }
        #expect(String(decoding: received, as: UTF8.self) == controllerWrite)
    }

    @Test func explainsAMissingPort() {
        #expect(throws: SerialError.notFound(path: "/dev/does-not-exist")) {
            try LinuxSerialPort(path: "/dev/does-not-exist")
        }
        #expect(throws: SerialError.unsupportedBaudRate(1234)) {
            try LinuxSerialPort(path: "/dev/null", baudRate: 1234)
        }
    }

    @Test func explainsAMissingI2CBus() {
        #expect(throws: I2CError.noSuchBus(path: "/dev/i2c-99")) {
            try LinuxI2CBus(path: "/dev/i2c-99")
        }
    }
}
