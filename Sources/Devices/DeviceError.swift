import LodestoneCore
import LodestoneHAL

/// Why a chip driver could not do what was asked. Every driver call returns one of these
/// instead of aborting; the runtime marks the sensor degraded and retries.
public enum DeviceError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The bus transfer itself failed.
    case bus(I2CError)
    /// Something answered, but its identification register says it is another chip.
    case wrongChip(chip: String, register: UInt8, expected: UInt8, found: UInt8)
    /// The factory calibration read back from the chip cannot be right (all zero, all ones).
    case invalidCalibration(chip: String)
    /// The chip reports a measurement out of its own range (a sensor fault, or a glitched read).
    case implausibleReading(chip: String)

    public var description: String {
        switch self {
        case .bus(let error):
            return error.description
        case .wrongChip(let chip, let register, let expected, let found):
            return
                "expected a \(chip) (ID register \(hexByte(register)) = \(hexByte(expected))) but read \(hexByte(found)): check the chip type and address in the board file"
        case .invalidCalibration(let chip):
            return "the \(chip) returned invalid calibration data: check the wiring (a floating data line reads all ones) or replace the chip"
        case .implausibleReading(let chip):
            return "the \(chip) returned a reading outside its range: it will be re-initialised"
        }
    }
}

extension I2CRegisterDevice {
    /// Checks an identification register, as every driver does before configuring a chip.
    func expectIdentity(chip: String, register: UInt8, value: UInt8) throws(DeviceError) {
        let found: UInt8
        do { found = try readRegister(register) } catch { throw .bus(error) }
        guard found == value else { throw .wrongChip(chip: chip, register: register, expected: value, found: found) }
    }

    func read(_ register: UInt8) throws(DeviceError) -> UInt8 {
        do { return try readRegister(register) } catch { throw .bus(error) }
    }

    func read(_ register: UInt8, into buffer: UnsafeMutableRawBufferPointer) throws(DeviceError) {
        do { try readRegisters(register, into: buffer) } catch { throw .bus(error) }
    }

    func write(_ register: UInt8, _ value: UInt8) throws(DeviceError) {
        do { try writeRegister(register, value) } catch { throw .bus(error) }
    }
}

/// A fixed scratch buffer for register bursts, allocated once per driver so reads never allocate.
final class RegisterBuffer: @unchecked Sendable {
    let bytes: UnsafeMutableRawBufferPointer
    init(count: Int) {
        bytes = .allocate(byteCount: count, alignment: 8)
        bytes.initializeMemory(as: UInt8.self, repeating: 0)
    }
    deinit { bytes.deallocate() }

    func slice(_ count: Int) -> UnsafeMutableRawBufferPointer { UnsafeMutableRawBufferPointer(rebasing: bytes[0..<count]) }
    subscript(index: Int) -> UInt8 { bytes[index] }
    func int16LE(_ index: Int) -> Int16 { Int16(bitPattern: UInt16(bytes[index]) | UInt16(bytes[index + 1]) << 8) }
    func int16BE(_ index: Int) -> Int16 { Int16(bitPattern: UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1])) }
}
