import LodestoneCore
/// Why an I2C transfer failed. Every bus call returns one of these instead of aborting.
public enum I2CError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Nothing answered at the address (wrong address, unpowered or missing chip, loose wire).
    case noAcknowledge(address: UInt8)
    /// Arbitration lost or another electrical fault on the bus.
    case busError(address: UInt8)
    case timeout(address: UInt8)
    /// A kernel driver has claimed the address (EBUSY).
    case busy(address: UInt8)
    /// The bus device file exists but this user may not open it (EACCES).
    case permissionDenied(path: String)
    case noSuchBus(path: String)
    /// The adapter cannot do the transfer that was asked for.
    case unsupported(String)
    /// Any other errno from the kernel.
    case system(errno: Int32, address: UInt8)

    public var description: String {
        switch self {
        case .noAcknowledge(let a): return "no device answered at I2C address \(hexByte(a)): check wiring, power and the address in the board file"
        case .busError(let a): return "I2C bus error talking to \(hexByte(a)): check pull-ups and cable length"
        case .timeout(let a): return "I2C transfer to \(hexByte(a)) timed out: the bus may be held low; power-cycle the sensor"
        case .busy(let a): return "I2C address \(hexByte(a)) is owned by a kernel driver: unbind it or remove the device-tree overlay"
        case .permissionDenied(let p):
            return
                "permission denied opening \(p): install udev/99-lodestone.rules and add the user to group lodestone (docs/service.md, 'Running as a normal user')"
        case .noSuchBus(let p): return "\(p) does not exist: enable I2C (dtparam=i2c_arm=on, or modprobe i2c-dev) and check the bus number"
        case .unsupported(let what): return "the I2C adapter cannot do \(what)"
        case .system(let e, let a): return "I2C transfer to \(hexByte(a)) failed with errno \(e)"
        }
    }
}

/// An I2C bus master: the one operation every chip driver needs, a write followed by an
/// optional read with a repeated start. Buffers belong to the caller, so no call allocates.
public protocol I2CBus: AnyObject {
    /// Writes `write` to the device at `address`, then (when `read` is not empty) reads
    /// `read.count` bytes from it.
    func transfer(
        address: UInt8, write: UnsafeRawBufferPointer,
        read: UnsafeMutableRawBufferPointer) throws(I2CError)
}

/// One chip on a bus, seen as a bank of 8-bit registers: what register-mapped sensors are.
public struct I2CRegisterDevice<Bus: I2CBus> {
    public let bus: Bus
    public let address: UInt8

    public init(bus: Bus, address: UInt8) {
        self.bus = bus
        self.address = address
    }

    public func readRegister(_ register: UInt8) throws(I2CError) -> UInt8 {
        var command = register
        var value: UInt8 = 0
        try withUnsafeBytes(of: &command) { (write) throws(I2CError) in
            try withUnsafeMutableBytes(of: &value) { (read) throws(I2CError) in
                try bus.transfer(address: address, write: write, read: read)
            }
        }
        return value
    }

    /// Reads consecutive registers starting at `register` into `buffer` (auto-increment).
    public func readRegisters(_ register: UInt8, into buffer: UnsafeMutableRawBufferPointer) throws(I2CError) {
        var command = register
        try withUnsafeBytes(of: &command) { (write) throws(I2CError) in
            try bus.transfer(address: address, write: write, read: buffer)
        }
    }

    public func writeRegister(_ register: UInt8, _ value: UInt8) throws(I2CError) {
        var command: (UInt8, UInt8) = (register, value)
        try withUnsafeBytes(of: &command) { (write) throws(I2CError) in
            try bus.transfer(address: address, write: write, read: UnsafeMutableRawBufferPointer(start: nil, count: 0))
        }
    }
}
