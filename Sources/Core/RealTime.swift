import CLinux
import Glibc

/// The real-time settings the sampling thread asks for. Each is best effort: when the system
/// does not permit one, the thread runs without it and the outcome says why in one line.
public struct RealTimeOptions: Sendable, Equatable {
    /// SCHED_FIFO priority 1...99, or nil to stay in the normal time-sharing class.
    public var fifoPriority: Int32?
    /// CPU to pin the sampling thread to, or nil to let the kernel place it.
    public var cpu: Int?
    /// Lock all current and future memory (mlockall) so page faults cannot stall the loop.
    public var lockMemory: Bool
    /// Timer slack for the thread in nanoseconds; 1 makes wake-ups as punctual as the kernel allows.
    public var timerSlackNanoseconds: UInt?
    /// Hold the kernel's CPU wake-up latency limit (/dev/cpu_dma_latency) at 0 us while the
    /// process runs, so idle CPUs poll instead of entering deep sleep states. Wake-ups become
    /// 10-30 us more punctual, at the cost of idle power: off by default on a battery device.
    public var keepCPUAwake: Bool

    public init(
        fifoPriority: Int32? = 50, cpu: Int? = nil, lockMemory: Bool = true,
        timerSlackNanoseconds: UInt? = 1, keepCPUAwake: Bool = false
    ) {
        self.fifoPriority = fifoPriority
        self.cpu = cpu
        self.lockMemory = lockMemory
        self.timerSlackNanoseconds = timerSlackNanoseconds
        self.keepCPUAwake = keepCPUAwake
    }

    public static let none = RealTimeOptions(
        fifoPriority: nil, cpu: nil, lockMemory: false,
        timerSlackNanoseconds: nil)
}

/// What applying the options achieved: one line per option, ready for the log.
public struct RealTimeOutcome: Sendable, Equatable {
    public var fifo = false
    public var pinned = false
    public var memoryLocked = false
    public var timerSlack = false
    /// The open /dev/cpu_dma_latency request, or -1; the limit holds until it is closed.
    public var wakeLatencyHandle: Int32 = -1
    public var messages: [String] = []

    /// Gives back the CPU wake-up latency request, letting CPUs sleep deeply again.
    public mutating func releaseWakeLatency() {
        if wakeLatencyHandle >= 0 { close(wakeLatencyHandle) }
        wakeLatencyHandle = -1
    }
}

public enum RealTime {
    /// Applies the options to the calling thread (mlockall to the whole process).
    public static func apply(_ options: RealTimeOptions) -> RealTimeOutcome {
        var outcome = RealTimeOutcome()
        if let slack = options.timerSlackNanoseconds {
            if lodestone_set_timer_slack(slack) == 0 {
                outcome.timerSlack = true
            } else {
                outcome.messages.append("timer slack not set (\(errorText())): wake-ups may be up to 50 us late")
            }
        }
        if let cpu = options.cpu {
            if lodestone_pin_to_cpu(Int32(cpu)) == 0 {
                outcome.pinned = true
            } else {
                outcome.messages.append("could not pin to CPU \(cpu) (\(errorText())): running unpinned")
            }
        }
        if options.lockMemory {
            // Locked as pages are first touched (MCL_ONFAULT, Linux 4.4): what the loop uses is
            // touched in its first ticks and stays in memory, while what it never touches (most
            // of the program, reserved stacks and heap) is not made resident just to be locked:
            // 12 MB resident instead of 36. Older kernels lock everything at once.
            let onFault: Int32 = 4  // MCL_ONFAULT
            if mlockall(MCL_CURRENT | MCL_FUTURE | onFault) == 0 || mlockall(MCL_CURRENT | MCL_FUTURE) == 0 {
                outcome.memoryLocked = true
            } else {
                outcome.messages.append("memory not locked (\(errorText())): raise 'ulimit -l' or grant CAP_IPC_LOCK to avoid page-fault stalls")
            }
        }
        if options.keepCPUAwake {
            outcome.wakeLatencyHandle = holdWakeLatencyAtZero()
            if outcome.wakeLatencyHandle < 0 {
                outcome.messages.append(
                    "CPU wake-up latency not held at 0 (/dev/cpu_dma_latency: \(errorText())): idle CPUs may wake 10-30 us late; run as root or grant write access to that device"
                )
            }
        }
        if let priority = options.fifoPriority {
            var parameters = sched_param(sched_priority: priority)
            if pthread_setschedparam(pthread_self(), SCHED_FIFO, &parameters) == 0 {
                outcome.fifo = true
            } else {
                outcome.messages.append(
                    "SCHED_FIFO priority \(priority) not permitted: running at normal priority; grant CAP_SYS_NICE or an rtprio limit (docs/service.md, 'Running as a normal user') for tighter timing"
                )
            }
        }
        return outcome
    }

    /// The kernel's PM QoS interface: writing a 32-bit limit in microseconds holds it for as
    /// long as the file stays open.
    private static func holdWakeLatencyAtZero() -> Int32 {
        let handle = open("/dev/cpu_dma_latency", O_WRONLY | O_CLOEXEC)
        guard handle >= 0 else { return -1 }
        var limit: Int32 = 0
        guard write(handle, &limit, MemoryLayout<Int32>.size) == MemoryLayout<Int32>.size else {
            let saved = errno
            close(handle)
            errno = saved
            return -1
        }
        return handle
    }

    private static func errorText() -> String {
        String(cString: strerror(errno))
    }
}

/// A plain POSIX thread, for the sampling and I/O loops that must not run on Swift's
/// cooperative pool.
public final class LoopThread: @unchecked Sendable {
    private var thread = pthread_t()
    private var started = false

    public init() {}

    private final class Box {
        let body: @Sendable () -> Void
        let name: String
        init(_ body: @escaping @Sendable () -> Void, _ name: String) {
            self.body = body
            self.name = name
        }
    }

    /// Starts `body` on a new thread named `name` (shown by top -H); false if it could not start.
    @discardableResult
    public func start(name: String, _ body: @escaping @Sendable () -> Void) -> Bool {
        let box = Unmanaged.passRetained(Box(body, name)).toOpaque()
        let result = pthread_create(
            &thread, nil,
            { raw in
                guard let raw else { return nil }
                let box = Unmanaged<Box>.fromOpaque(raw).takeRetainedValue()
                _ = box.name.withCString { lodestone_set_thread_name($0) }
                box.body()
                return nil
            }, box)
        if result != 0 {
            Unmanaged<Box>.fromOpaque(box).release()
            return false
        }
        started = true
        return true
    }

    /// Waits for the thread to finish.
    public func join() {
        guard started else { return }
        pthread_join(thread, nil)
        started = false
    }
}
