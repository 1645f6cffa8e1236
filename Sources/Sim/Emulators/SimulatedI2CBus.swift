import Glibc
import LodestoneHAL

/// A chip on the simulated bus: receives the bytes a master writes and supplies the bytes it reads.
public protocol I2CTarget: AnyObject {
    func write(_ bytes: UnsafeRawBufferPointer)
    func read(into buffer: UnsafeMutableRawBufferPointer)
}

/// The simulated board's I2C bus: routes transfers to emulated chips by address. An address
/// with no chip does not acknowledge, as on a real bus; faults can be injected to see drivers
/// fail and recover.
public final class SimulatedI2CBus: I2CBus, @unchecked Sendable {
    private var targets: [UInt8: any I2CTarget] = [:]
    private var faults: [UInt8: (remaining: Int, error: I2CError)] = [:]
    public private(set) var transfers = 0
    /// Whether the chip at an address has stopped answering (a loose wire, a chip in a brown-out):
    /// asked on every transfer, so a fault plan can silence a chip for a stretch of world time.
    public var silenced: (@Sendable (UInt8) -> Bool)?
    /// Seconds the next transfer blocks for (a chip holding the bus), asked on every transfer;
    /// 0 for none.
    public var hang: (@Sendable () -> Double)?

    public init() {}

    public func attach(_ target: any I2CTarget, at address: UInt8) { targets[address] = target }
    public func detach(address: UInt8) { targets[address] = nil }
    public func target(at address: UInt8) -> (any I2CTarget)? { targets[address] }

    /// The next `count` transfers to `address` fail with `error`.
    public func injectFaults(address: UInt8, count: Int, error: I2CError) {
        faults[address] = (count, error)
    }

    public func transfer(
        address: UInt8, write: UnsafeRawBufferPointer,
        read: UnsafeMutableRawBufferPointer
    ) throws(I2CError) {
        transfers += 1
        if let seconds = hang?(), seconds > 0 {
            var pause = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - Double(Int(seconds))) * 1e9))
            var left = timespec()
            while nanosleep(&pause, &left) != 0 && errno == EINTR { pause = left }
        }
        if let fault = faults[address], fault.remaining > 0 {
            faults[address] = fault.remaining == 1 ? nil : (fault.remaining - 1, fault.error)
            throw fault.error
        }
        guard let target = targets[address], silenced?(address) != true else { throw .noAcknowledge(address: address) }
        if !write.isEmpty { target.write(write) }
        if !read.isEmpty { target.read(into: read) }
    }
}

/// The register-pointer behaviour shared by register-mapped chips: the first byte written sets
/// the pointer, further bytes are written to consecutive registers, reads continue from the
/// pointer. Each emulator says what its registers do when read and written.
open class RegisterBankEmulator: I2CTarget {
    public var registers = [UInt8](repeating: 0, count: 256)
    public private(set) var pointer: UInt8 = 0

    public init() {}

    public func write(_ bytes: UnsafeRawBufferPointer) {
        guard let first = bytes.first else { return }
        pointer = first
        for value in bytes.dropFirst() {
            registerWritten(pointer, value)
            pointer &+= 1
        }
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) {
        prepareRead(from: pointer, count: buffer.count)
        for index in 0..<buffer.count {
            buffer[index] = registerRead(pointer)
            pointer &+= 1
        }
    }

    /// Called before a read burst starts: the place to latch a new sample.
    open func prepareRead(from register: UInt8, count: Int) {}
    open func registerRead(_ register: UInt8) -> UInt8 { registers[Int(register)] }
    open func registerWritten(_ register: UInt8, _ value: UInt8) { registers[Int(register)] = value }

    // Helpers for subclasses.
    public func store16LE(_ value: Double, at register: Int) {
        let v = UInt16(bitPattern: Self.saturate(value))
        registers[register] = UInt8(v & 0xFF)
        registers[register + 1] = UInt8(v >> 8)
    }

    public func store16BE(_ value: Double, at register: Int) {
        let v = UInt16(bitPattern: Self.saturate(value))
        registers[register] = UInt8(v >> 8)
        registers[register + 1] = UInt8(v & 0xFF)
    }

    /// A reading rounded to the nearest count and clipped to the 16-bit range, like an ADC.
    public static func saturate(_ value: Double) -> Int16 {
        guard value.isFinite else { return 0 }
        return Int16(max(-32768, min(32767, value.rounded())))
    }
}
