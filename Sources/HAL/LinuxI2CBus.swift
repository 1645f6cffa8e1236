import CI2C
import CLinux
import Glibc

/// An I2C adapter through the kernel's i2c-dev interface (`/dev/i2c-N`).
///
/// Uses combined write-read transfers (I2C_RDWR) when the adapter offers them (I2C_FUNCS),
/// and otherwise SMBus byte and block transfers through libi2c, so drivers also work on
/// SMBus-only adapters.
public final class LinuxI2CBus: I2CBus {
    public let path: String
    private let fd: Int32
    private let plainI2C: Bool
    private var selectedAddress: Int32 = -1

    public init(path: String) throws(I2CError) {
        self.path = path
        let descriptor = open(path, O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else {
            switch errno {
            case EACCES, EPERM: throw .permissionDenied(path: path)
            case ENOENT, ENODEV, ENXIO: throw .noSuchBus(path: path)
            default: throw .system(errno: errno, address: 0)
            }
        }
        fd = descriptor
        var functions: UInt = 0
        plainI2C = lodestone_i2c_functionality(fd, &functions) == 0 && functions & UInt(I2C_FUNC_I2C) != 0
    }

    deinit { close(fd) }

    public func transfer(address: UInt8, write: UnsafeRawBufferPointer,
                         read: UnsafeMutableRawBufferPointer) throws(I2CError) {
        if plainI2C && !read.isEmpty {
            let status = lodestone_i2c_write_read(
                fd, Int32(address), write.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt16(write.count),
                read.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt16(read.count))
            if status < 0 { throw Self.error(errno, address) }
            return
        }
        try select(address)
        if read.isEmpty {
            let written = Glibc.write(fd, write.baseAddress, write.count)
            if written != write.count { throw Self.error(errno, address) }
            return
        }
        // SMBus-only adapter: a one-byte register address followed by byte or block reads.
        guard write.count == 1 else { throw .unsupported("a \(write.count)-byte write before a read") }
        let register = write[0]
        guard let base = read.baseAddress else { return }
        var offset = 0
        while offset < read.count {
            let chunk = min(32, read.count - offset)
            let target = (base + offset).assumingMemoryBound(to: UInt8.self)
            if chunk == 1 {
                let value = i2c_smbus_read_byte_data(fd, register &+ UInt8(truncatingIfNeeded: offset))
                if value < 0 { throw Self.error(-value, address) }
                target.pointee = UInt8(truncatingIfNeeded: value)
            } else {
                let got = i2c_smbus_read_i2c_block_data(fd, register &+ UInt8(truncatingIfNeeded: offset),
                                                        UInt8(chunk), target)
                if got < 0 { throw Self.error(-got, address) }
                if got != chunk { throw .busError(address: address) }
            }
            offset += chunk
        }
    }

    private func select(_ address: UInt8) throws(I2CError) {
        guard selectedAddress != Int32(address) else { return }
        if lodestone_i2c_set_address(fd, Int32(address)) < 0 { throw Self.error(errno, address) }
        selectedAddress = Int32(address)
    }

    static func error(_ code: Int32, _ address: UInt8) -> I2CError {
        switch code {
        case ENXIO, EREMOTEIO: return .noAcknowledge(address: address)
        case EBUSY: return .busy(address: address)
        case ETIMEDOUT: return .timeout(address: address)
        case EIO, EAGAIN: return .busError(address: address)
        case EOPNOTSUPP: return .unsupported("this transfer")
        default: return .system(errno: code, address: address)
        }
    }
}
