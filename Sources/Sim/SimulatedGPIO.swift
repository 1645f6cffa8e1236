import LodestoneCore
import LodestoneHAL

/// GPIO lines without hardware, for tests and the simulated board: inputs whose levels and
/// edges are set by hand (with contact bounce if wanted), outputs that record what they were
/// set to.
public final class SimulatedGPIO: GPIOLineProvider, @unchecked Sendable {
    public final class Input: DigitalInput, @unchecked Sendable {
        public private(set) var level: Bool
        var queued: [EdgeEvent] = []
        init(level: Bool) { self.level = level }

        public func value() throws(GPIOError) -> Bool { level }

        public func takeEvents(_ body: (EdgeEvent) -> Void) throws(GPIOError) -> Int {
            let events = queued
            queued.removeAll(keepingCapacity: true)
            for event in events { body(event) }
            return events.count
        }

        /// Drives the line to `high` at `time`, as the kernel would report it.
        public func drive(_ high: Bool, at time: MonotonicNanoseconds) {
            guard high != level else { return }
            level = high
            queued.append(EdgeEvent(rising: high, time: time))
        }
    }

    public final class Output: DigitalOutput, @unchecked Sendable {
        public private(set) var level = false
        /// Every change, with the number of changes before it failed (for fault tests).
        public private(set) var changes: [Bool] = []
        public var failWith: GPIOError?
        public func set(_ high: Bool) throws(GPIOError) {
            if let failWith { throw failWith }
            level = high
            changes.append(high)
        }
    }

    public let name: String
    public let lineCount: Int
    public private(set) var inputs: [Int: Input] = [:]
    public private(set) var outputs: [Int: Output] = [:]

    public init(name: String = "sim-gpiochip0", lineCount: Int = 54) {
        self.name = name
        self.lineCount = lineCount
    }

    public func input(offset: Int, pullUp: Bool) throws(GPIOError) -> any DigitalInput {
        try check(offset)
        let line = Input(level: pullUp)
        inputs[offset] = line
        return line
    }

    public func output(offset: Int) throws(GPIOError) -> any DigitalOutput {
        try check(offset)
        let line = Output()
        outputs[offset] = line
        return line
    }

    private func check(_ offset: Int) throws(GPIOError) {
        guard offset >= 0, offset < lineCount else { throw .noSuchLine(chip: name, offset: offset) }
        if inputs[offset] != nil || outputs[offset] != nil { throw .lineBusy(chip: name, offset: offset) }
    }

    /// A press of a button to ground: the contact bounces `bounces` times, 1 ms apart,
    /// before it settles low at `time` + bounces ms.
    public func press(_ offset: Int, at time: MonotonicNanoseconds, bounces: Int = 3) {
        guard let line = inputs[offset] else { return }
        var t = time
        for _ in 0..<bounces {
            line.drive(false, at: t); t += 500_000
            line.drive(true, at: t); t += 500_000
        }
        line.drive(false, at: t)
    }

    public func release(_ offset: Int, at time: MonotonicNanoseconds) {
        inputs[offset]?.drive(true, at: time)
    }
}
