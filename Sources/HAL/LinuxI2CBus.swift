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
    public let capabilities: I2CAdapterCapabilities
    private let fd: Int32
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
        if lodestone_i2c_functionality(fd, &functions) != 0 {
            close(descriptor)
            throw .unsupported("I2C_FUNCS on \(path): it is not an i2c-dev adapter")
        }
        capabilities = I2CAdapterCapabilities(functions: functions)
    }

    deinit { close(fd) }

    public func transfer(
        address: UInt8, write: UnsafeRawBufferPointer,
        read: UnsafeMutableRawBufferPointer
    ) throws(I2CError) {
        guard let step = capabilities.plan(writeCount: write.count, readCount: read.count) else {
            throw .unsupported(capabilities.unsupportedReason(writeCount: write.count, readCount: read.count))
        }
        if step == .combined {
            let status = lodestone_i2c_write_read(
                fd, Int32(address), write.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt16(write.count),
                read.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt16(read.count))
            if status < 0 { throw Self.error(errno, address) }
            return
        }
        try select(address)
        // libi2c returns a negative errno on failure.
        func check(_ status: Int32) throws(I2CError) { if status < 0 { throw Self.error(-status, address) } }
        switch step {
        case .combined:
            return
        case .rawWrite:
            let written = Glibc.write(fd, write.baseAddress, write.count)
            if written != write.count { throw Self.error(errno, address) }
        case .sendByte:
            try check(i2c_smbus_write_byte(fd, write[0]))
        case .writeByteData:
            try check(i2c_smbus_write_byte_data(fd, write[0], write[1]))
        case .writeBlock:
            guard let base = write.baseAddress else { return }
            try check(
                i2c_smbus_write_i2c_block_data(
                    fd, write[0], UInt8(write.count - 1),
                    (base + 1).assumingMemoryBound(to: UInt8.self)))
        case .receiveBytes:
            for index in 0..<read.count {
                let value = i2c_smbus_read_byte(fd)
                try check(value)
                read[index] = UInt8(truncatingIfNeeded: value)
            }
        case .readWord:
            let value = i2c_smbus_read_word_data(fd, write[0])
            try check(value)
            read[0] = UInt8(truncatingIfNeeded: value)
            read[1] = UInt8(truncatingIfNeeded: value >> 8)
        case .readRegisters(let chunkSize):
            try readRegisters(write[0], into: read, chunkSize: chunkSize, address: address)
        }
    }

    /// Consecutive registers through SMBus transactions of at most `chunkSize` bytes; the
    /// register address advances with each chunk as the chip's own auto-increment would.
    private func readRegisters(
        _ register: UInt8, into read: UnsafeMutableRawBufferPointer, chunkSize: Int,
        address: UInt8
    ) throws(I2CError) {
        guard let base = read.baseAddress else { return }
        var offset = 0
        while offset < read.count {
            let chunk = min(chunkSize, read.count - offset)
            let target = (base + offset).assumingMemoryBound(to: UInt8.self)
            let next = register &+ UInt8(truncatingIfNeeded: offset)
            if chunk == 1 {
                let value = i2c_smbus_read_byte_data(fd, next)
                if value < 0 { throw Self.error(-value, address) }
                target.pointee = UInt8(truncatingIfNeeded: value)
            } else {
                let got = i2c_smbus_read_i2c_block_data(fd, next, UInt8(chunk), target)
                if got < 0 { throw Self.error(-got, address) }
                if got != chunk { throw .busError(address: address) }
            }
            offset += chunk
        }
    }

    /// Whether a kernel driver has claimed `address` (I2C_SLAVE answers EBUSY), so a probe
    /// leaves it alone.
    public func isClaimedByKernel(_ address: UInt8) -> Bool {
        if lodestone_i2c_set_address(fd, Int32(address)) < 0 {
            selectedAddress = -1
            return errno == EBUSY
        }
        selectedAddress = Int32(address)
        return false
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
