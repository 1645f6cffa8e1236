import Glibc
import LodestoneCore

/// One thread's recorded events, given back in order to the same code that asked for them.
/// The first question the recording does not hold (another board file, another driver, a
/// build that reads a register more) is kept as `divergence`, described with what the
/// recording held there, and every question after it fails: a replay never runs on answers
/// that belong to other questions.
public final class ReplayStream: @unchecked Sendable {
    private var decoder: InputEventDecoder
    /// Events given back so far.
    public private(set) var taken = 0
    /// The first question that did not match, in words.
    public private(set) var divergence: String?
    /// The stream's newest clock reading given back (the replay's "now").
    public private(set) var lastClock: MonotonicNanoseconds = 0
    /// Restart points taken up so far.
    public private(set) var restarts = 0

    /// - Parameter clockStart: the clock when the recording began (its header's), the replay's
    ///   "now" before the first reading.
    public init(_ bytes: [UInt8], clockStart: MonotonicNanoseconds = 0) {
        decoder = InputEventDecoder(bytes)
        lastClock = clockStart
    }

    /// Whether every event has been given back (and none refused).
    public var isFinished: Bool {
        var probe = decoder
        return divergence == nil && probe.next() == nil
    }

    /// Why the stream could not be read to its end, when it could not.
    public var damage: String? { decoder.problem }

    /// The next event, when it is of the kind `matches` accepts; otherwise the divergence is
    /// kept (`asked` says what the code asked for) and nil is returned.
    func take(_ asked: @autoclosure () -> String, _ matches: (InputEvent) -> Bool) -> InputEvent? {
        guard divergence == nil else { return nil }
        guard let event = decoder.next() else {
            divergence = "the recording ends (after \(taken) events) where the device asked for \(asked())" + (decoder.problem.map { ": " + $0 } ?? "")
            return nil
        }
        guard matches(event) else {
            divergence = "event \(taken + 1): the device asked for \(asked()), the recording holds \(Self.describe(event))"
            return nil
        }
        taken += 1
        if case .clock(let t) = event { lastClock = t }
        return event
    }

    static func describe(_ event: InputEvent) -> String {
        switch event {
        case .clock: return "a clock reading"
        case .transfer(let bus, let address, let write, _): return transferText(bus: bus, address: address, write: write)
        case .transferFailed(let bus, let address, let write, _, _): return transferText(bus: bus, address: address, write: write)
        case .serial: return "a serial read"
        case .serialFailed: return "a serial failure"
        case .edges(let line, _): return "GPIO edges on line \(line)"
        case .handover(let kind, _): return "a handover of kind \(kind)"
        case .gap(let lost): return "a gap of \(lost) bytes the recording lost"
        case .restart: return "a restart point"
        }
    }

    static func transferText(bus: UInt8, address: UInt8, write: [UInt8]) -> String {
        "an I2C transfer on bus \(bus) to \(hexByte(address)) writing [\(write.map(hexByte).joined(separator: " "))]"
    }
}

/// In a replay every handover comes from the recording, at the point it was recorded.
extension ReplayStream: HandoverLedger {
    public var isReplaying: Bool { true }
    public func note(kind: UInt8, payload: UnsafeRawBufferPointer) {}

    public func replayed(kind: UInt8) -> [UInt8]? {
        guard divergence == nil, decoder.nextIsHandover(kind: kind), case .handover(_, let payload)? = decoder.next() else { return nil }
        taken += 1
        return payload
    }

    public var wantsRestart: Bool { false }
    public func restart(schedule: UnsafeRawBufferPointer) {}
    public var generation: Int { restarts }

    public func replayedRestart() -> [UInt8]? {
        guard divergence == nil, decoder.nextIsRestart, case .restart(let schedule)? = decoder.next() else { return nil }
        taken += 1
        restarts += 1
        return schedule
    }
}

/// The replay board's I2C bus: each transfer answered from the recording, checked against
/// what was recorded (bus, address, the bytes written, the count read).
public final class ReplayI2CBus: I2CBus {
    private let stream: ReplayStream
    private let bus: UInt8

    public init(stream: ReplayStream, bus: UInt8) {
        self.stream = stream
        self.bus = bus
    }

    public func transfer(address: UInt8, write: UnsafeRawBufferPointer, read: UnsafeMutableRawBufferPointer) throws(I2CError) {
        let written = write.prefix(InputEventCodec.maximumKeyWrite)
        let event = stream.take(ReplayStream.transferText(bus: bus, address: address, write: Array(write))) {
            switch $0 {
            case .transfer(let b, let a, let w, let r): return b == bus && a == address && w.elementsEqual(written) && r.count == read.count
            case .transferFailed(let b, let a, let w, let count, _): return b == bus && a == address && w.elementsEqual(written) && count == read.count
            default: return false
            }
        }
        switch event {
        case .transfer(_, _, _, let answer)?:
            answer.withUnsafeBytes { read.copyMemory(from: $0) }
        case .transferFailed(_, _, _, _, let error)?:
            throw error
        default:
            throw I2CError.unsupported("a transfer the recording does not hold (see the replay's divergence)")
        }
    }
}

/// The replay board's receiver: each read gives back the bytes recorded for it.
public final class ReplaySerialPort: SerialPort {
    private let stream: ReplayStream
    private let path: String

    public init(stream: ReplayStream, path: String) {
        self.stream = stream
        self.path = path
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(SerialError) -> Int {
        let event = stream.take("a read of the receiver's port") {
            switch $0 {
            case .serial(let bytes): return bytes.count <= buffer.count
            case .serialFailed: return true
            default: return false
            }
        }
        switch event {
        case .serial(let bytes)?:
            bytes.withUnsafeBytes { buffer.copyMemory(from: $0) }
            return bytes.count
        case .serialFailed(let error)?:
            throw error
        default:
            throw SerialError.disconnected(path: path)
        }
    }

    /// The device's own writes (receiver configuration) go nowhere in a replay.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(SerialError) -> Int { bytes.count }
}

/// A replayed GPIO input: each taking of edges gives back the edges recorded for it.
public final class ReplayDigitalInput: DigitalInput {
    private let stream: ReplayStream
    private let line: UInt8

    public init(stream: ReplayStream, line: UInt8) {
        self.stream = stream
        self.line = line & 0x7F
    }

    /// A level is never asked of the sampling side's lines; a replay answers low.
    public func value() throws(GPIOError) -> Bool { false }

    @discardableResult
    public func takeEvents(_ body: (EdgeEvent) -> Void) throws(GPIOError) -> Int {
        let event = stream.take("the edges of GPIO line \(line)") {
            if case .edges(let l, _) = $0 { return l & 0x7F == line } else { return false }
        }
        guard case .edges(let l, let edges)? = event, l & 0x80 == 0 else { throw GPIOError.system(errno: EIO, chip: "replay") }
        for edge in edges { body(edge) }
        return edges.count
    }
}

/// The clock as the recorded thread read it: each reading given back in turn; sleeping does
/// nothing (the replay's pace is set by whoever drives it). After a divergence the clock
/// stands at its last reading.
///
/// One clock serves both sides of a replayed device, which run in turn on one thread: while
/// `outputSide` is set, readings are not taken from the recording (the output thread's never
/// were recorded) and the time stands where the sampling side last read it.
public final class ReplayClock: MonotonicClock, @unchecked Sendable {
    private let stream: ReplayStream
    public var outputSide = false

    public init(stream: ReplayStream) { self.stream = stream }

    public func now() -> MonotonicNanoseconds {
        if outputSide { return stream.lastClock }
        if case .clock(let t)? = stream.take("a clock reading", { if case .clock = $0 { return true } else { return false } }) { return t }
        return stream.lastClock
    }

    public func sleep(until deadline: MonotonicNanoseconds) {}
}
