/// What an I2C adapter can do, from its I2C_FUNCS mask, and how each transfer a driver asks
/// for is carried out with it. Kept apart from the file-descriptor code so the choice can be
/// tested on a machine without an adapter.
public struct I2CAdapterCapabilities: Sendable, Equatable {
    /// Plain I2C messages: combined write-read (I2C_RDWR) and raw writes.
    public var plainI2C: Bool
    public var smbusSendByte: Bool
    public var smbusReceiveByte: Bool
    public var smbusReadByteData: Bool
    public var smbusReadWordData: Bool
    public var smbusWriteByteData: Bool
    public var smbusReadBlock: Bool
    public var smbusWriteBlock: Bool

    // Bit values from <linux/i2c.h>.
    public init(functions: UInt) {
        plainI2C = functions & 0x0000_0001 != 0
        smbusReceiveByte = functions & 0x0002_0000 != 0
        smbusSendByte = functions & 0x0004_0000 != 0
        smbusReadByteData = functions & 0x0008_0000 != 0
        smbusWriteByteData = functions & 0x0010_0000 != 0
        smbusReadWordData = functions & 0x0020_0000 != 0
        smbusReadBlock = functions & 0x0400_0000 != 0  // I2C_FUNC_SMBUS_READ_I2C_BLOCK
        smbusWriteBlock = functions & 0x0800_0000 != 0  // I2C_FUNC_SMBUS_WRITE_I2C_BLOCK
    }

    /// One step of a transfer on this adapter.
    public enum Step: Sendable, Equatable {
        /// One I2C_RDWR ioctl: write, repeated start, read.
        case combined
        /// A raw write() of all bytes.
        case rawWrite
        /// SMBus "send byte": a command or register pointer with no data.
        case sendByte
        /// SMBus "write byte data": register, value.
        case writeByteData
        /// SMBus "write I2C block": register, then up to 32 bytes.
        case writeBlock
        /// SMBus reads from consecutive registers, `chunk` bytes per transaction (32 or 1).
        case readRegisters(chunk: Int)
        /// SMBus "read word data": two consecutive registers, the first in the low byte.
        case readWord
        /// SMBus "receive byte", once per byte, for a read with no register address.
        case receiveBytes
    }

    /// How to carry out a write of `writeCount` bytes followed by a read of `readCount`
    /// bytes, or nil when the adapter cannot (with the reason in `unsupportedReason`).
    public func plan(writeCount: Int, readCount: Int) -> Step? {
        if plainI2C { return readCount > 0 ? .combined : .rawWrite }
        if readCount == 0 {
            switch writeCount {
            case 1 where smbusSendByte: return .sendByte
            case 2 where smbusWriteByteData: return .writeByteData
            case 3...33 where smbusWriteBlock: return .writeBlock
            default: return nil
            }
        }
        switch writeCount {
        case 0 where smbusReceiveByte: return .receiveBytes
        case 1 where readCount > 1 && smbusReadBlock: return .readRegisters(chunk: 32)
        case 1 where readCount == 2 && smbusReadWordData: return .readWord
        case 1 where smbusReadByteData: return .readRegisters(chunk: 1)
        default: return nil
        }
    }

    public func unsupportedReason(writeCount: Int, readCount: Int) -> String {
        "a \(writeCount)-byte write" + (readCount > 0 ? " followed by a \(readCount)-byte read" : "")
            + " (the adapter speaks only SMBus and lacks that transaction)"
    }
}
