import Glibc
import LodestoneCore
import LodestoneDevices
import LodestoneHAL
import LodestoneSim
import Synchronization

/// A folder shaped like the kernel's /sys/bus/w1/devices for the simulated board: each probe's
/// `w1_slave` written as an old kernel writes it (the scratchpad's nine bytes, the CRC
/// verdict, t=), with the world's water temperature at the DS18B20's 1/16 °C, so the
/// simulated board's probes go through the same reading and CRC check as a real board's.
final class SimulatedOneWire: Sendable {
    let directory: OneWireDirectory
    private let world: SimulatedWorld
    private static let made = Atomic<Int>(0)

    init(world: SimulatedWorld) {
        self.world = world
        let number = Self.made.add(1, ordering: .relaxed).newValue
        directory = OneWireDirectory(basePath: "/tmp/lodestone-w1-\(getpid())-\(number)")
    }

    /// Writes probe `id`'s file for the world now.
    func write(_ id: String) {
        let folder = directory.basePath + "/" + id
        guard makeDirectories(folder) else { return }
        let celsius = world.scenario.waterTemperature(at: world.elapsed)
        let code = Int16(clamping: Int((celsius * 16).rounded()))
        let raw = UInt16(bitPattern: code)
        // Alarm registers 0x4B/0x46 and 12-bit resolution (0x7F), as the chip powers up.
        var scratchpad: [UInt8] = [UInt8(raw & 0xFF), UInt8(raw >> 8), 0x4B, 0x46, 0x7F, 0xFF, 0x0C, 0x10]
        scratchpad.append(DS18B20.crc8(scratchpad))
        let bytes = scratchpad.map { hexDigits($0) }.joined(separator: " ")
        let millidegrees = Int(code) * 1000 / 16
        let text = "\(bytes) : crc=\(hexDigits(scratchpad[8])) YES\n\(bytes) t=\(millidegrees)\n"
        _ = writeFileAtomically(folder + "/w1_slave", Array(text.utf8))
    }

    func remove() { removeTree(directory.basePath) }
}
