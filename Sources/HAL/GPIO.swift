import CGPIOD

/// Why a GPIO operation failed.
public enum GPIOError: Error, Equatable, Sendable, CustomStringConvertible {
    case noSuchChip(String)
    case noSuchLine(chip: String, offset: Int)
    case lineBusy(chip: String, offset: Int)
    case permissionDenied(String)

    public var description: String {
        switch self {
        case .noSuchChip(let c): return "GPIO chip \(c) not found: check the chip name with gpiodetect"
        case .noSuchLine(let c, let o): return "\(c) has no line \(o): check the line number with gpioinfo"
        case .lineBusy(let c, let o): return "\(c) line \(o) is used by another program or driver"
        case .permissionDenied(let c): return "permission denied on \(c): add the user to group gpio (udev/99-lodestone.rules)"
        }
    }
}

/// A digital output (buzzer, LED).
public protocol DigitalOutput: AnyObject {
    func set(_ high: Bool) throws(GPIOError)
}

/// A digital output line through libgpiod 1.6. All libgpiod calls live in this file so that a
/// libgpiod 2.x backend can replace it alone.
public final class LinuxGPIOOutput: DigitalOutput {
    private let chip: OpaquePointer
    private let line: OpaquePointer
    public let chipName: String
    public let offset: Int

    public init(chip chipName: String, offset: Int, consumer: String = "lodestone") throws(GPIOError) {
        guard let chip = gpiod_chip_open_lookup(chipName) else { throw .noSuchChip(chipName) }
        guard let line = gpiod_chip_get_line(chip, UInt32(offset)) else {
            gpiod_chip_close(chip)
            throw .noSuchLine(chip: chipName, offset: offset)
        }
        guard gpiod_line_request_output(line, consumer, 0) == 0 else {
            gpiod_chip_close(chip)
            throw .lineBusy(chip: chipName, offset: offset)
        }
        self.chip = chip
        self.line = line
        self.chipName = chipName
        self.offset = offset
    }

    deinit {
        gpiod_line_release(line)
        gpiod_chip_close(chip)
    }

    public func set(_ high: Bool) throws(GPIOError) {
        if gpiod_line_set_value(line, high ? 1 : 0) != 0 { throw .lineBusy(chip: chipName, offset: offset) }
    }
}
