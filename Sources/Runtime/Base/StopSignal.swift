import CLinux
import Glibc
import Synchronization

/// The stop request shared by the sampling thread, the output loop and signal handling.
/// SIGINT, SIGTERM and SIGHUP are blocked in every thread and read from a signalfd by the
/// output loop, so a signal never interrupts the sampling loop mid-transfer.
public final class StopSignal: Sendable {
    public let requested = Atomic<Bool>(false)
    public let descriptor: Int32

    /// Call before starting any thread, so that every thread inherits the blocked signals.
    public init() {
        descriptor = lodestone_stop_signal_fd()
    }

    deinit { if descriptor >= 0 { close(descriptor) } }

    public func request() { requested.store(true, ordering: .relaxed) }
    public var isRequested: Bool { requested.load(ordering: .relaxed) }

    /// Consumes a pending signal; returns its name when one arrived.
    public func takeSignal() -> String? {
        guard descriptor >= 0 else { return nil }
        let number = lodestone_read_signal(descriptor)
        switch number {
        case SIGINT: return "SIGINT"
        case SIGTERM: return "SIGTERM"
        case SIGHUP: return "SIGHUP"
        default: return nil
        }
    }
}
