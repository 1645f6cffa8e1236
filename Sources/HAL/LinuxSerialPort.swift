import CLinux
import Glibc

/// A serial port (UART, USB serial, pseudo-terminal) in raw, non-blocking mode through termios.
public final class LinuxSerialPort: SerialPort {
    public let path: String
    public let baudRate: Int
    private let fd: Int32

    public static let supportedBaudRates: [Int: speed_t] = [
        4800: speed_t(B4800), 9600: speed_t(B9600), 19200: speed_t(B19200), 38400: speed_t(B38400),
        57600: speed_t(B57600), 115200: speed_t(B115200), 230400: speed_t(B230400),
        460800: speed_t(B460800), 921600: speed_t(B921600)
    ]

    public init(path: String, baudRate: Int = 9600) throws(SerialError) {
        guard let speed = Self.supportedBaudRates[baudRate] else { throw .unsupportedBaudRate(baudRate) }
        self.path = path
        self.baudRate = baudRate
        let descriptor = open(path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            switch errno {
            case ENOENT, ENODEV, ENXIO: throw .notFound(path: path)
            case EACCES, EPERM: throw .permissionDenied(path: path)
            default: throw .system(errno: errno, path: path)
            }
        }
        var settings = termios()
        if tcgetattr(descriptor, &settings) == 0 {
            cfmakeraw(&settings)
            cfsetispeed(&settings, speed)
            cfsetospeed(&settings, speed)
            settings.c_cflag |= tcflag_t(CLOCAL | CREAD)
            _ = tcsetattr(descriptor, TCSANOW, &settings)
        }
        fd = descriptor
    }

    deinit {
        // Whatever waits to go out is dropped first: a tty's close otherwise waits for it to
        // drain (up to 30 s) when the other end reads nothing, and a stopping device hangs.
        tcflush(fd, TCIOFLUSH)
        close(fd)
    }

    public var fileDescriptor: Int32 { fd }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(SerialError) -> Int {
        let count = Glibc.read(fd, buffer.baseAddress, buffer.count)
        if count > 0 { return count }
        // In raw mode (VMIN 1) with O_NONBLOCK an idle line answers EAGAIN; 0 is end of file,
        // which a tty reports after a hang-up (a USB receiver unplugged).
        if count == 0 { throw .disconnected(path: path) }
        switch errno {
        case EAGAIN, EINTR: return 0
        case EIO, ENXIO, ENODEV: throw .disconnected(path: path)
        default: throw .system(errno: errno, path: path)
        }
    }

    public func write(_ bytes: UnsafeRawBufferPointer) throws(SerialError) -> Int {
        let count = Glibc.write(fd, bytes.baseAddress, bytes.count)
        if count >= 0 { return count }
        if errno == EAGAIN { return 0 }
        throw .system(errno: errno, path: path)
    }
}
