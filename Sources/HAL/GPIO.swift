import LodestoneCore

/// Why a GPIO operation failed.
public enum GPIOError: Error, Equatable, Sendable, CustomStringConvertible {
    case noSuchChip(String)
    case noSuchLine(chip: String, offset: Int)
    case lineBusy(chip: String, offset: Int)
    case permissionDenied(String)
    case system(errno: Int32, chip: String)

    public var description: String {
        switch self {
        case .noSuchChip(let c):
            return "GPIO chip \(c) not found: list the chips with gpiodetect and put the label it shows in brackets in gpio.chip in the board file"
        case .noSuchLine(let c, let o): return "\(c) has no line \(o): list the lines with gpioinfo and fix the board file"
        case .lineBusy(let c, let o): return "\(c) line \(o) is used by another program or a kernel driver (see gpioinfo)"
        case .permissionDenied(let c): return "permission denied on \(c): install udev/99-lodestone.rules and add the user to group lodestone"
        case .system(let e, let c): return "GPIO operation on \(c) failed with errno \(e)"
        }
    }
}

/// A level change on an input line, stamped by the kernel on the monotonic clock.
public struct EdgeEvent: Sendable, Equatable {
    public var rising: Bool
    public var time: MonotonicNanoseconds
    public init(rising: Bool, time: MonotonicNanoseconds) {
        self.rising = rising
        self.time = time
    }
}

/// A digital output (buzzer, LED).
public protocol DigitalOutput: AnyObject {
    func set(_ high: Bool) throws(GPIOError)
}

/// A digital input watched for edges (a button, a sensor's data-ready pin). Reading events
/// never blocks.
public protocol DigitalInput: AnyObject {
    /// The current level.
    func value() throws(GPIOError) -> Bool
    /// Hands every edge that arrived since the last call to `body`, oldest first; returns how many.
    @discardableResult
    func takeEvents(_ body: (EdgeEvent) -> Void) throws(GPIOError) -> Int
}

/// Where input and output lines come from: libgpiod on a board, a fake in tests and on the
/// simulated board.
public protocol GPIOLineProvider: AnyObject {
    /// An input line with edge events on both edges; `pullUp` biases it high (a button to ground).
    func input(offset: Int, pullUp: Bool) throws(GPIOError) -> any DigitalInput
    func output(offset: Int) throws(GPIOError) -> any DigitalOutput
}
