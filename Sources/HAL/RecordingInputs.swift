import Glibc
import LodestoneCore
import Synchronization

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

/// The clock as the sampling side reads it, every reading recorded. Readings are kept to the
/// whole microsecond (a reading costs a byte in the recording instead of three): the sampling
/// side sees the clock at that resolution, recording or not, so what it computes is what a
/// replay computes.
///
/// The device's other threads read the same clock and are not recorded: only the thread that
/// `claim`ed it is (the sampling thread, first thing; no one before it).
public final class RecordingClock<Inner: MonotonicClock>: MonotonicClock, @unchecked Sendable {
    public let inner: Inner
    private let recorder: InputRecorder
    private let owner = Atomic<UInt>(0)

    public init(_ inner: Inner, recorder: InputRecorder) {
        self.inner = inner
        self.recorder = recorder
    }

    /// The calling thread's readings are recorded from now on, and no other thread's.
    public func claim() { owner.store(pthread_self(), ordering: .releasing) }

    public func now() -> MonotonicNanoseconds {
        guard owner.load(ordering: .relaxed) == pthread_self() else { return inner.now() }
        let now = inner.now() / 1000 * 1000
        recorder.clock(now)
        return now
    }

    public func sleep(until deadline: MonotonicNanoseconds) { inner.sleep(until: deadline) }
}

/// A GPIO input (a data-ready pin, the receiver's pulse) whose every taking of edges is
/// recorded as one event: the edges with the kernel's time stamps, none, or a failure (the
/// line's number with its top bit set). Up to 256 edges a taking are kept; a line that
/// bursts more than that between two readings loses the rest in both the run and its replay.
public final class RecordingDigitalInput: DigitalInput {
    public let inner: any DigitalInput
    private let recorder: InputRecorder
    private let line: UInt8
    private let taken = UnsafeMutableBufferPointer<EdgeEvent>.allocate(capacity: 256)

    public init(_ inner: any DigitalInput, line: UInt8, recorder: InputRecorder) {
        self.inner = inner
        self.line = line & 0x7F
        self.recorder = recorder
    }

    deinit { taken.deallocate() }

    public func value() throws(GPIOError) -> Bool { try inner.value() }

    @discardableResult
    public func takeEvents(_ body: (EdgeEvent) -> Void) throws(GPIOError) -> Int {
        var count = 0
        do {
            try inner.takeEvents { edge in
                guard count < taken.count else { return }
                taken[count] = edge
                count += 1
            }
        } catch {
            recorder.edges(line: line | 0x80, UnsafeBufferPointer(rebasing: taken[0..<0]))
            throw error
        }
        let kept = UnsafeBufferPointer(rebasing: taken[0..<count])
        recorder.edges(line: line, kept)
        for edge in kept { body(edge) }
        return count
    }
}

/// The recording's numbers for the sampling side's GPIO lines, by what they are.
public enum RecordedLine {
    public static let imuDataReady: UInt8 = 0
    public static let gpsPulse: UInt8 = 1
}
