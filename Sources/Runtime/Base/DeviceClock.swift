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
    /// The receive time of the last fix whose time was followed.
    private var lastFollowed: MonotonicNanoseconds = 0

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

    /// Receiver times before this release or past the models' range (2100) are never
    /// believed: a week-number rollover reads 1999 or 2079, a damaged ZDA anything.
    static let believable = 1_704_067_200.0..<4_102_444_800.0  // 2024-01-01 ..< 2100-01-01
    /// Once GPS time is known, a fix further than this from the clock (seconds) is one bad
    /// sentence, unless `confirmations` fixes in a row agree on the new time.
    static let largestJump = 3600.0
    static let confirmations = 10
    private var candidate = (offset: Double.nan, count: 0)
    private var lastVetted: MonotonicNanoseconds = 0
    private var lastVerdict = true
    /// Receiver times refused so far, and the last one (for the log).
    private(set) var refused = 0

    /// Whether a receiver's time for a fix read at `received` is to be believed: within the
    /// believable years, and once GPS time is known within `largestJump` of the clock, or
    /// confirmed by `confirmations` fixes in a row (the clock was wrong, not the fix). Asking
    /// again about the same fix gives the same answer.
    func believes(_ utc: Double, receivedAt received: MonotonicNanoseconds) -> Bool {
        if received == lastVetted && received != 0 { return lastVerdict }
        // An older fix asked about after a newer one (the fixes' ring drained after the clock
        // looked at the newest) is judged without counting towards a confirmation again.
        if received < lastVetted {
            return utc.isFinite && Self.believable.contains(utc) && (!gpsTimeKnown || abs(utc - self.utc(at: received)) <= Self.largestJump)
        }
        lastVetted = received
        lastVerdict = vet(utc, receivedAt: received)
        if !lastVerdict { refused += 1 }
        return lastVerdict
    }

    private func vet(_ utc: Double, receivedAt received: MonotonicNanoseconds) -> Bool {
        guard utc.isFinite, Self.believable.contains(utc) else { return false }
        guard gpsTimeKnown else { return true }
        if abs(utc - self.utc(at: received)) <= Self.largestJump {
            candidate = (.nan, 0)
            return true
        }
        let offset = utc - Double(received) / 1e9
        candidate = abs(offset - candidate.offset) < 2 ? (candidate.offset, candidate.count + 1) : (offset, 1)
        guard candidate.count >= Self.confirmations else { return false }
        candidate = (.nan, 0)
        return true
    }

    /// A receiver's time for a fix read at `received` (one `believes` has accepted). Returns
    /// true when it stepped the clock by more than a minute (what was stamped "later" before
    /// must then be forgotten).
    @discardableResult
    func gpsTime(_ utc: Double, receivedAt received: MonotonicNanoseconds) -> Bool {
        // Each fix is followed once, however often the time is asked between fixes: the offset
        // is then a function of the fixes alone (a replay follows the same steps).
        guard received != lastFollowed || received == 0 else { return false }
        guard utc.isFinite, utc > 0, utc < 1e11, believes(utc, receivedAt: received) else { return false }
        lastFollowed = received
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
