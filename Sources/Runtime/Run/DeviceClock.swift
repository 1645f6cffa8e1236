import LodestoneCore

/// The one time base of a running device: every report, track point, log record and alert
/// is stamped with UTC taken from the monotonic clock plus one offset, so reports made from
/// samples carry the samples' own instants and no two outputs disagree about when.
///
/// The offset starts from the system clock (on the simulated board, from the scenario's start,
/// as a receiver would set it) and then follows the GPS: a board without a network has no
/// other clock to trust. A first GPS time far from the start is a step (a board without a
/// real-time clock boots with a stale one); after that the offset is slewed, so a fix's
/// delivery jitter never makes time run backwards by more than a few milliseconds.
final class DeviceClock {
    /// UTC seconds = monotonic seconds + offset.
    private(set) var offset: Double
    private(set) var gpsTimeKnown = false
    private var lastNow = -Double.infinity

    /// - Parameters:
    ///   - utc: UTC at the monotonic instant `at`, seconds since 1970.
    init(utc: Double, at monotonic: MonotonicNanoseconds) {
        offset = utc - Double(monotonic) / 1e9
    }

    /// UTC at a monotonic instant (a sample's stamp).
    func utc(at monotonic: MonotonicNanoseconds) -> Double { Double(monotonic) / 1e9 + offset }

    /// UTC now, never going back.
    func now(_ monotonic: MonotonicNanoseconds) -> Double {
        lastNow = max(lastNow, utc(at: monotonic))
        return lastNow
    }

    func iso8601(at monotonic: MonotonicNanoseconds) -> String { CivilTime(unixSeconds: utc(at: monotonic)).iso8601 }

    /// A receiver's time for a fix read at `received`. Returns true when it stepped the clock by
    /// more than a minute (what was stamped "later" before must then be forgotten).
    @discardableResult
    func gpsTime(_ utc: Double, receivedAt received: MonotonicNanoseconds) -> Bool {
        guard utc.isFinite, utc > 0, utc < 1e11 else { return false }
        let error = utc - self.utc(at: received)
        if !gpsTimeKnown || abs(error) > 1 {
            let first = !gpsTimeKnown
            gpsTimeKnown = true
            offset += error
            if error < 0 { lastNow = -Double.infinity }
            return first && abs(error) > 60
        }
        // A fix is read a little after its epoch, never before: follow slowly.
        offset += 0.05 * error
        return false
    }
}
