import CGPIOD
import CLinux
import Glibc
import LodestoneCore

// Every libgpiod call in the project is in this file (libgpiod 1.6, as Debian 12 and
// Raspberry Pi OS bookworm ship it), so a libgpiod 2.x backend can replace this file alone.

/// A gpiochip (/dev/gpiochipN) through libgpiod.
public final class LinuxGPIOChip: GPIOLineProvider {
    public let path: String
    private let chip: OpaquePointer
    private let consumer: String

    /// `path` is a chip's label (as gpiodetect shows it), its device path, its name or number.
    public init(path: String, consumer: String = "lodestone") throws(GPIOError) {
        self.path = path
        self.consumer = consumer
        guard let chip = gpiod_chip_open_lookup(path) else {
            switch errno {
            case EACCES, EPERM: throw .permissionDenied(path)
            case ENOENT, ENODEV, ENOTTY: throw .noSuchChip(path)
            default: throw .system(errno: errno, chip: path)
            }
        }
        self.chip = chip
    }

    deinit { gpiod_chip_close(chip) }

    /// Lines stay requested until their object goes away, which also keeps the chip open.
    func line(_ offset: Int) throws(GPIOError) -> OpaquePointer {
        guard offset >= 0, let line = gpiod_chip_get_line(chip, UInt32(offset)) else { throw .noSuchLine(chip: path, offset: offset) }
        return line
    }

    func requestError(_ offset: Int) -> GPIOError {
        switch errno {
        case EBUSY: return .lineBusy(chip: path, offset: offset)
        case EACCES, EPERM: return .permissionDenied(path)
        case EINVAL: return .noSuchLine(chip: path, offset: offset)
        default: return .system(errno: errno, chip: path)
        }
    }

    public func input(offset: Int, pullUp: Bool) throws(GPIOError) -> any DigitalInput {
        let line = try line(offset)
        let flags = pullUp ? Int32(GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_UP) : 0
        guard gpiod_line_request_both_edges_events_flags(line, consumer, flags) == 0 else { throw requestError(offset) }
        let fd = gpiod_line_event_get_fd(line)
        guard fd >= 0, lodestone_set_nonblocking(fd, 1) == 0 else {
            gpiod_line_release(line)
            throw .system(errno: errno, chip: path)
        }
        return LinuxGPIOInput(owner: self, line: line, fd: fd, offset: offset)
    }

    public func output(offset: Int) throws(GPIOError) -> any DigitalOutput {
        let line = try line(offset)
        guard gpiod_line_request_output(line, consumer, 0) == 0 else { throw requestError(offset) }
        return LinuxGPIOOutput(owner: self, line: line, offset: offset)
    }
}

final class LinuxGPIOInput: DigitalInput {
    let owner: LinuxGPIOChip
    let line: OpaquePointer
    let fd: Int32
    let offset: Int

    init(owner: LinuxGPIOChip, line: OpaquePointer, fd: Int32, offset: Int) {
        self.owner = owner
        self.line = line
        self.fd = fd
        self.offset = offset
    }

    deinit { gpiod_line_release(line) }

    func value() throws(GPIOError) -> Bool {
        let level = gpiod_line_get_value(line)
        if level < 0 { throw .system(errno: errno, chip: owner.path) }
        return level == 1
    }

    func takeEvents(_ body: (EdgeEvent) -> Void) throws(GPIOError) -> Int {
        var taken = 0
        var event = gpiod_line_event()
        while gpiod_line_event_read_fd(fd, &event) == 0 {
            let time = UInt64(event.ts.tv_sec) &* nanosecondsPerSecond &+ UInt64(event.ts.tv_nsec)
            body(EdgeEvent(rising: event.event_type == Int32(GPIOD_LINE_EVENT_RISING_EDGE), time: time))
            taken += 1
        }
        if errno != EAGAIN && errno != EWOULDBLOCK { throw .system(errno: errno, chip: owner.path) }
        return taken
    }
}

final class LinuxGPIOOutput: DigitalOutput {
    let owner: LinuxGPIOChip
    let line: OpaquePointer
    let offset: Int

    init(owner: LinuxGPIOChip, line: OpaquePointer, offset: Int) {
        self.owner = owner
        self.line = line
        self.offset = offset
    }

    deinit {
        _ = gpiod_line_set_value(line, 0)  // a buzzer left on is the worst way to stop
        gpiod_line_release(line)
    }

    func set(_ high: Bool) throws(GPIOError) {
        if gpiod_line_set_value(line, high ? 1 : 0) != 0 { throw .system(errno: errno, chip: owner.path) }
    }
}
