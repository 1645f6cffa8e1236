import Glibc
@testable import LodestoneHAL
import Testing

/// How transfers map onto adapters, from I2C_FUNCS masks of real adapter kinds.
@Suite struct I2CAdapterCapabilitiesTests {
    // A full I2C controller (bcm2835, omap): plain I2C plus SMBus emulation.
    let fullController = I2CAdapterCapabilities(functions: 0x0EFF_0009)
    // The kernel's i2c-stub: QUICK, BYTE, BYTE_DATA, WORD_DATA, BLOCK_DATA, I2C_BLOCK; no plain I2C.
    let stub = I2CAdapterCapabilities(functions: 0x0F7F_0000)
    // A minimal SMBus host that has byte-data transfers only.
    let byteDataOnly = I2CAdapterCapabilities(functions: 0x0018_0000)
    // An SMBus host with byte and word data but no block transfers.
    let wordHost = I2CAdapterCapabilities(functions: 0x0078_0000)

    @Test func aFullControllerUsesCombinedTransfers() {
        #expect(fullController.plainI2C)
        #expect(fullController.plan(writeCount: 1, readCount: 14) == .combined)
        #expect(fullController.plan(writeCount: 2, readCount: 0) == .rawWrite)
    }

    @Test func anSMBusOnlyAdapterGetsSMBusTransactions() {
        #expect(!stub.plainI2C)
        #expect(stub.plan(writeCount: 1, readCount: 14) == .readRegisters(chunk: 32))
        #expect(stub.plan(writeCount: 1, readCount: 1) == .readRegisters(chunk: 1))
        #expect(stub.plan(writeCount: 2, readCount: 0) == .writeByteData)
        #expect(stub.plan(writeCount: 1, readCount: 0) == .sendByte)
        #expect(stub.plan(writeCount: 4, readCount: 0) == .writeBlock)
        #expect(stub.plan(writeCount: 0, readCount: 3) == .receiveBytes)
    }

    @Test func aTwoByteReadIsOneWordTransactionWithoutBlocks() {
        #expect(wordHost.plan(writeCount: 1, readCount: 2) == .readWord)
        #expect(wordHost.plan(writeCount: 1, readCount: 6) == .readRegisters(chunk: 1))
        #expect(stub.plan(writeCount: 1, readCount: 2) == .readRegisters(chunk: 32))
    }

    @Test func kernelErrorsBecomeTypedErrors() {
        #expect(LinuxI2CBus.error(ENXIO, 0x68) == .noAcknowledge(address: 0x68))
        #expect(LinuxI2CBus.error(EREMOTEIO, 0x68) == .noAcknowledge(address: 0x68))
        #expect(LinuxI2CBus.error(EBUSY, 0x76) == .busy(address: 0x76))
        #expect(LinuxI2CBus.error(ETIMEDOUT, 0x1e) == .timeout(address: 0x1e))
        #expect(LinuxI2CBus.error(EIO, 0x0d) == .busError(address: 0x0d))
        #expect(LinuxI2CBus.error(EPROTO, 0x0d) == .system(errno: EPROTO, address: 0x0d))
        #expect(I2CError.permissionDenied(path: "/dev/i2c-1").description.contains("udev/99-lodestone.rules"))
        #expect(I2CError.busy(address: 0x76).description.contains("kernel driver"))
    }

    @Test func withoutBlockReadsABurstIsReadByteByByte() {
        #expect(byteDataOnly.plan(writeCount: 1, readCount: 6) == .readRegisters(chunk: 1))
        #expect(byteDataOnly.plan(writeCount: 1, readCount: 0) == nil)
        #expect(byteDataOnly.plan(writeCount: 2, readCount: 2) == nil)
        #expect(byteDataOnly.unsupportedReason(writeCount: 2, readCount: 2).contains("SMBus"))
    }
}
