import LodestoneCore

/// A serial port that survives its device going away: when a USB receiver (/dev/ttyUSB*,
/// /dev/ttyACM*) is unplugged, reads return nothing and the port is reopened, with back-off
/// (0.5 s doubling to 5 s), until the receiver is plugged back in. A UART that was never
/// there is retried the same way, so a GPS connected after start is picked up.
///
/// Reopening calls open(2) on the reading thread; on a tty that takes well under a
/// millisecond, and it happens at most twice a second.
public final class ReconnectingSerialPort: SerialPort {
    public let path: String
    public let baudRate: Int
    private let clock: any MonotonicClock
    private let opener: (String, Int) throws(SerialError) -> any SerialPort
    private var port: (any SerialPort)?
    private var retryAt: MonotonicNanoseconds = 0
    private var backoff = ReconnectingSerialPort.initialBackoff
    /// Times the port was lost and times it came back.
    public private(set) var disconnections = 0
    public private(set) var reconnections = 0
    /// Why the port is down, or nil while it is open.
    public private(set) var lastError: SerialError?

    static var initialBackoff: UInt64 { 500_000_000 }
    static var maximumBackoff: UInt64 { 5_000_000_000 }

    public init(
        path: String, baudRate: Int, clock: any MonotonicClock,
        opener: @escaping (String, Int) throws(SerialError) -> any SerialPort = { (path, baud) throws(SerialError) in
            try LinuxSerialPort(path: path, baudRate: baud)
        }
    ) {
        self.path = path
        self.baudRate = baudRate
        self.clock = clock
        self.opener = opener
        reopenIfDue()
    }

    public var isOpen: Bool { port != nil }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(SerialError) -> Int {
        guard let port = reopenIfDue() else { throw lastError ?? .disconnected(path: path) }
        do {
            return try port.read(into: buffer)
        } catch {
            lose(error)
            throw error
        }
    }

    public func write(_ bytes: UnsafeRawBufferPointer) throws(SerialError) -> Int {
        guard let port = reopenIfDue() else { throw lastError ?? .disconnected(path: path) }
        do {
            return try port.write(bytes)
        } catch {
            lose(error)
            throw error
        }
    }

    @discardableResult
    private func reopenIfDue() -> (any SerialPort)? {
        if let port { return port }
        let now = clock.now()
        guard now >= retryAt else { return nil }
        do {
            let opened = try opener(path, baudRate)
            port = opened
            if lastError != nil { reconnections += 1 }
            lastError = nil
            backoff = Self.initialBackoff
            return opened
        } catch {
            lastError = error
            retryAt = now + backoff
            backoff = min(backoff * 2, Self.maximumBackoff)
            return nil
        }
    }

    private func lose(_ error: SerialError) {
        port = nil  // closes the descriptor
        disconnections += 1
        lastError = error
        retryAt = clock.now() + Self.initialBackoff
        backoff = Self.initialBackoff
    }
}
