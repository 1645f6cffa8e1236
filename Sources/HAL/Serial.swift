/// Why a serial port operation failed.
public enum SerialError: Error, Equatable, Sendable, CustomStringConvertible {
    case notFound(path: String)
    case permissionDenied(path: String)
    case unsupportedBaudRate(Int)
    /// The device went away (a USB receiver was unplugged); reopen it later.
    case disconnected(path: String)
    case system(errno: Int32, path: String)

    public var description: String {
        switch self {
        case .notFound(let p): return "\(p) does not exist: check the GPS cable and the serial port in the board file"
        case .permissionDenied(let p):
            return
                "permission denied opening \(p): install udev/99-lodestone.rules and add the user to group lodestone (docs/service.md, 'Running as a normal user')"
        case .unsupportedBaudRate(let b): return "baud rate \(b) is not supported: use one of 4800, 9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600"
        case .disconnected(let p): return "\(p) was disconnected: it will be reopened when it comes back"
        case .system(let e, let p): return "serial port \(p) failed with errno \(e)"
        }
    }
}

/// A byte stream from a receiver (UART, USB serial, pseudo-terminal). Reads never block.
public protocol SerialPort: AnyObject {
    /// Reads whatever is waiting, up to `buffer.count` bytes; returns 0 when nothing is.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(SerialError) -> Int
    func write(_ bytes: UnsafeRawBufferPointer) throws(SerialError) -> Int
}
