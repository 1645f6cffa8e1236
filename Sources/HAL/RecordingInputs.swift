import LodestoneCore

/// An I2C bus that passes every transfer on and records its answer (the bytes read, or the
/// error) with the thread's `InputRecorder`: what a replay's bus gives back.
public final class RecordingI2CBus<Inner: I2CBus>: I2CBus {
    public let inner: Inner
    private let recorder: InputRecorder
    /// The bus's number in the recording (its order in the board file).
    private let bus: UInt8

    public init(_ inner: Inner, bus: UInt8, recorder: InputRecorder) {
        self.inner = inner
        self.bus = bus
        self.recorder = recorder
    }

    public func transfer(address: UInt8, write: UnsafeRawBufferPointer, read: UnsafeMutableRawBufferPointer) throws(I2CError) {
        do {
            try inner.transfer(address: address, write: write, read: read)
        } catch {
            recorder.transferFailed(bus: bus, address: address, write: write, readCount: read.count, error: error)
            throw error
        }
        recorder.transfer(bus: bus, address: address, write: write, read: UnsafeRawBufferPointer(read))
    }
}

/// A serial port whose every read is recorded (the bytes as they arrived, a read of nothing,
/// or the failure); writes pass through unrecorded (they are the device's own).
public final class RecordingSerialPort: SerialPort {
    public let inner: any SerialPort
    private let recorder: InputRecorder

    public init(_ inner: any SerialPort, recorder: InputRecorder) {
        self.inner = inner
        self.recorder = recorder
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(SerialError) -> Int {
        let count: Int
        do { count = try inner.read(into: buffer) } catch {
            recorder.serialFailed(error)
            throw error
        }
        recorder.serial(UnsafeRawBufferPointer(rebasing: buffer[0..<max(0, min(count, buffer.count))]))
        return count
    }

    public func write(_ bytes: UnsafeRawBufferPointer) throws(SerialError) -> Int { try inner.write(bytes) }
}

/// The clock as one thread reads it, every reading recorded. Readings are kept to the whole
/// microsecond (a reading costs a byte in the recording instead of three): the thread sees the
/// clock at that resolution, recording or not, so what it computes is what a replay computes.
public final class RecordingClock<Inner: MonotonicClock>: MonotonicClock, @unchecked Sendable {
    public let inner: Inner
    private let recorder: InputRecorder

    public init(_ inner: Inner, recorder: InputRecorder) {
        self.inner = inner
        self.recorder = recorder
    }

    public func now() -> MonotonicNanoseconds {
        let now = inner.now() / 1000 * 1000
        recorder.clock(now)
        return now
    }

    public func sleep(until deadline: MonotonicNanoseconds) { inner.sleep(until: deadline) }
}
