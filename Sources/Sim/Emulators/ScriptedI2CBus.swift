import LodestoneCore
import LodestoneHAL

/// A bus that expects an exact script of transfers, for driver tests: each step names the
/// address, the bytes the driver must write, and either the bytes to answer or an error.
/// Anything off-script is recorded as a mismatch and fails the transfer with a bus error.
public final class ScriptedI2CBus: I2CBus, @unchecked Sendable {
    public struct Step: Sendable, Equatable {
        public var address: UInt8
        public var write: [UInt8]
        public var reply: [UInt8]
        public var error: I2CError?
    }

    public private(set) var steps: [Step] = []
    public private(set) var position = 0
    public private(set) var mismatches: [String] = []

    public init() {}

    /// The driver writes `write` and (when `reply` is not empty) reads exactly `reply.count` bytes.
    public func expect(_ address: UInt8, write: [UInt8], reply: [UInt8] = []) {
        steps.append(Step(address: address, write: write, reply: reply, error: nil))
    }

    /// The driver writes `write` and the transfer fails with `error`.
    public func expect(_ address: UInt8, write: [UInt8], fail error: I2CError) {
        steps.append(Step(address: address, write: write, reply: [], error: error))
    }

    /// True when every scripted step happened and nothing else did.
    public var completed: Bool { position == steps.count && mismatches.isEmpty }

    public func transfer(
        address: UInt8, write: UnsafeRawBufferPointer,
        read: UnsafeMutableRawBufferPointer
    ) throws(I2CError) {
        let written = Array(write)
        guard position < steps.count else {
            mismatches.append("unexpected transfer to \(hexByte(address)) writing \(written) after the script ended")
            throw .busError(address: address)
        }
        let step = steps[position]
        position += 1
        guard step.address == address, step.write == written else {
            mismatches.append("step \(position): expected \(hexByte(step.address)) writing \(step.write), got \(hexByte(address)) writing \(written)")
            throw .busError(address: address)
        }
        if let error = step.error { throw error }
        guard step.reply.count == read.count else {
            mismatches.append("step \(position): expected a \(step.reply.count)-byte read, driver asked for \(read.count)")
            throw .busError(address: address)
        }
        for (index, byte) in step.reply.enumerated() { read[index] = byte }
    }
}
