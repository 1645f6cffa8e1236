import CLinux
import Glibc
import LodestoneCore

/// The GPS time for the whole board: each fix's offset between the receiver's time and the
/// system's, sent to chrony as samples for its SOCK refclock (`refclock SOCK PATH` in
/// chrony.conf), as gpsd does. A Raspberry Pi has no real-time clock: on a boat without a
/// network this is what sets the system's time.
///
/// The receiver starts sending its burst of sentences at (about) the fix's epoch, so the
/// burst began when its bytes so far, at the line's baud rate, had not yet arrived: that
/// instant on the system's clock, against the fix's time, is the sample. NMEA time is good to
/// some tens of milliseconds (the receiver's own latency, the 50 ms between reads of the
/// port); chrony's `offset` and `delay` options take that in.
///
/// With a pulse-per-second line the sample is the pulse's edge instead: the kernel stamped it
/// within microseconds, and it marks a whole UTC second. Which second is the sentences' to
/// say: the edge on the system's clock plus their (coarse) offset, a little earlier than the
/// second they begin in.
public final class ChronyFeed {
    public let path: String
    /// The GPS line's baud rate; nil for a line without a pace (the simulated board's
    /// pseudo-terminal delivers a burst at once).
    public let baud: Int?
    private let fd: Int32
    public private(set) var samples = 0
    /// The last offset sent, seconds (the receiver's time minus the system's).
    public private(set) var lastOffset = Double.nan
    /// Why the last send failed (chronyd not running, no such socket), or nil.
    public private(set) var problem: String?
    private var failures = 0

    public init(path: String, baud: Int?) {
        self.path = path
        self.baud = baud
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    }

    deinit { if fd >= 0 { close(fd) } }

    /// Where a sample's time came from: the sentences' burst, or the pulse's edge.
    public enum Source: String, Sendable {
        case sentences = "nmea"
        case pulse = "pps"
    }

    /// How late after their second's pulse a receiver's sentences may begin, seconds: its own
    /// latency (a few to a few hundred milliseconds) and the port's 50 ms between reads. The
    /// pulse's second is then the whole second at or before the edge plus the sentences'
    /// offset plus this; up to 0.25 s early is taken in as well (a clock that jitters).
    public static let sentencesLate = 0.75

    /// The sample for one fix: the system time its burst began, or its pulse's edge, and the
    /// offset of the receiver's time from it. Nil when the line has a pace but the burst's
    /// length is not known (a cycle closed by the next burst).
    public static func sample(
        utc: Double, receivedAt systemTime: Double, burstBytes: Int32, baud: Int?, pulseAt: Double? = nil
    ) -> (time: Double, offset: Double, source: Source)? {
        guard utc.isFinite, systemTime.isFinite else { return nil }
        var began = systemTime
        if let baud, baud > 0 {
            guard burstBytes > 0 else { return nil }
            began -= Double(burstBytes) * 10 / Double(baud)  // a start bit, 8 data bits and a stop bit a byte
        }
        let coarse = utc - began
        if let pulseAt, pulseAt.isFinite, pulseAt <= systemTime {
            let second = (pulseAt + coarse + sentencesLate).rounded(.down)
            return (pulseAt, second - pulseAt, .pulse)
        }
        return (began, coarse, .sentences)
    }

    /// The last pulse a sample was made from (monotonic), so a 10 Hz receiver's ten fixes a
    /// second give it once.
    private var lastPulse: MonotonicNanoseconds = 0
    /// Where the last sample came from.
    public private(set) var lastSource: Source?

    /// Sends one fix's sample; `systemTime` is when its last sentence was read, on the system's
    /// clock, and `pulse` its pulse's edge on the monotonic clock and the system's. A failure is
    /// counted and said in HEALTH; the log says it once, then every 600th.
    public func send(
        utc: Double, receivedAt systemTime: Double, burstBytes: Int32,
        pulse: (monotonic: MonotonicNanoseconds, system: Double)? = nil
    ) {
        if let pulse, pulse.monotonic == lastPulse { return }
        guard fd >= 0, let sample = Self.sample(utc: utc, receivedAt: systemTime, burstBytes: burstBytes, baud: baud, pulseAt: pulse?.system)
        else { return }
        if let pulse { lastPulse = pulse.monotonic }
        let seconds = sample.time.rounded(.down)
        let microseconds = min(999_999, max(0, Int(((sample.time - seconds) * 1e6).rounded())))
        guard abs(seconds) < 1e12 else { return }
        if lodestone_chrony_send(fd, path, Int64(seconds), microseconds, sample.offset, 0, 0) < 0 {
            let code = errno
            problem =
                "\(path): \(String(cString: strerror(code)))"
                + (code == ENOENT || code == ECONNREFUSED ? " (is chronyd running with 'refclock SOCK \(path)'?)" : "")
            failures += 1
            if failures == 1 || failures % 600 == 0 { Log.warning("chrony: cannot send the GPS time to " + (problem ?? path)) }
            return
        }
        if problem != nil { Log.info("chrony: sending the GPS time to \(path) again") }
        problem = nil
        failures = 0
        samples += 1
        lastOffset = sample.offset
        lastSource = sample.source
    }
}
