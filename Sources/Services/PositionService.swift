import LodestoneCore
import LodestoneDomain
import LodestoneReports

/// The receiver's fixes made trustworthy on the output thread: outliers rejected and the
/// position smoothed by `PositionFilter`, a confidence score, and warnings a person can act on,
/// raised as EVENT reports when they start and when they clear.
package final class PositionService {
    package init() {}

    private var filter = PositionFilter()
    /// The newest fix as published: the receiver's, with the filtered position.
    package private(set) var fix = GPSFix()
    package private(set) var confidence = 0
    package private(set) var warnings: [FixQuality.Warning] = []
    /// Fixes rejected as impossible for the motion state.
    var rejected: Int { filter.rejected }
    private var lastPositionAt: MonotonicNanoseconds?
    private var lastRaw: (latitude: Double, longitude: Double, utc: Double?)?
    private var repeats = 0
    /// A moving device whose receiver repeats one position this many times is frozen (a
    /// receiver holding a position while still is normal, so the motion state decides).
    static let frozenAfter = 10

    /// A new fix from the receiver. Returns the fix to publish and record: the filtered
    /// position, or nil when the fix was an outlier (no track point, no TPV).
    package func add(_ raw: GPSFix, motion: MotionState, now: MonotonicNanoseconds) -> GPSFix? {
        guard raw.hasPosition else {
            // While the filter can still bridge the gap, its predictions stand for the position
            // (see `bridge`); after that the receiver's own "no fix" is published.
            if fix.hasPosition, age(now) <= filter.maximumGap { return nil }
            fix = raw
            return raw
        }
        let time = raw.utc ?? Double(now) / 1e9
        let sameTime = raw.utc != nil && raw.utc == lastRaw?.utc
        let samePlace = raw.latitude == lastRaw?.latitude && raw.longitude == lastRaw?.longitude
        repeats = (sameTime || (samePlace && motion != .still)) ? repeats + 1 : 0
        lastRaw = (raw.latitude, raw.longitude, raw.utc)
        lastPositionAt = raw.received != 0 ? raw.received : now
        guard filter.add(latitude: raw.latitude, longitude: raw.longitude, accuracy: Self.sigma(raw), time: time, motion: motion),
            let estimate = filter.estimate(at: time)
        else {
            return nil
        }
        var published = raw
        published.latitude = estimate.latitude
        published.longitude = estimate.longitude
        fix = published
        confidence = assess(now: now).confidence
        return published
    }

    /// A fix predicted by the filter while the receiver is silent for more than a second and
    /// at most `PositionFilter.maximumGap` seconds (under a bridge, between buildings): the
    /// position, its growing error, gpsd's dead-reckoning status. Nil otherwise.
    package func bridge(now: MonotonicNanoseconds) -> GPSFix? {
        guard fix.hasPosition, let utc = lastRaw?.utc, lastPositionAt != nil else { return nil }
        let age = self.age(now)
        guard age >= 1.5, let estimate = filter.estimate(at: utc + age.rounded(.down)) else { return nil }
        var predicted = fix
        (predicted.latitude, predicted.longitude) = (estimate.latitude, estimate.longitude)
        predicted.utc = utc + age.rounded(.down)
        predicted.eph = estimate.error
        predicted.speed = estimate.speed
        predicted.deadReckoning = true
        return predicted
    }

    /// The receiver's one-sigma horizontal error: from GST when sent, else HDOP's (`FixErrorModel`).
    package static func sigma(_ fix: GPSFix) -> Double { FixErrorModel.horizontal(fix) ?? 10 }

    /// Once a second: the confidence and the warnings; EVENTs for warnings that started or
    /// cleared, each through its dead band (`warningDeadBands`).
    package func tick(now: MonotonicNanoseconds, time: Double) -> [Report] {
        // Counted from the start too: a receiver that never gets a fix is warned about.
        if lastPositionAt == nil { lastPositionAt = now }
        let age = self.age(now)
        let interval = lastTick == 0 || now <= lastTick ? 0 : Double(now - lastTick) / 1e9
        lastTick = now
        let assessment = assess(now: now)
        confidence = assessment.confidence
        var events: [Report] = []
        for warning in FixQuality.Warning.allCases {
            var band = warningBands[warning] ?? EventDeadBand(Self.warningDeadBands(warning))
            if let active = band.update(assessment.warnings.contains(warning), interval: interval) {
                events.append(.event(EventReport(.gps(warning: warning, active: active, secondsWithoutFix: age), time: time)))
            }
            warningBands[warning] = band
        }
        warnings = FixQuality.Warning.allCases.filter { warningBands[$0]?.isOn == true }
        return events
    }

    /// How long a warning's change must hold, and how far apart two changes are: a lost fix
    /// is told within seconds; a receiver hovering at five satellites is not a stream of events.
    static func warningDeadBands(_ warning: FixQuality.Warning) -> EventDeadBand.Settings {
        switch warning {
        case .noFix: return EventDeadBand.Settings(onAfter: 0, offAfter: 0, leastBetween: 5)
        case .fewSatellites, .highDOP: return EventDeadBand.Settings(onAfter: 3, offAfter: 5, leastBetween: 20)
        case .frozen: return EventDeadBand.Settings(onAfter: 0, offAfter: 5, leastBetween: 20)
        }
    }
    private var warningBands: [FixQuality.Warning: EventDeadBand] = [:]
    private var lastTick: MonotonicNanoseconds = 0

    /// Seconds since the last position; never negative (a fix stamped after `now` was taken is
    /// fresh, not eighteen billion seconds old).
    private func age(_ now: MonotonicNanoseconds) -> Double {
        guard let last = lastPositionAt else { return .infinity }
        return now > last ? Double(now - last) / 1e9 : 0
    }

    /// Sets the seconds between fixes the receiver was told to give (adaptive sampling changes
    /// it) at monotonic time `now` (see `FixPace` for why a shortening counts late).
    package func setFixInterval(_ seconds: Double, at now: MonotonicNanoseconds) { pace.set(seconds, at: now) }
    var fixInterval: Double { pace.interval }
    private var pace = FixPace()

    private func assess(now: MonotonicNanoseconds) -> (confidence: Int, warnings: [FixQuality.Warning]) {
        let age = age(now)
        // While the receiver is still acquiring, only a long wait is worth a warning.
        guard fix.hasPosition || age >= 10 else { return (0, []) }
        return FixQuality.assess(
            satellites: fix.satellitesUsed, hdop: fix.hdop, error: Self.sigma(fix), age: age,
            threeD: fix.mode == .threeD, frozen: repeats >= Self.frozenAfter,
            noFixAfter: max(3, 3 * pace.expected(at: now)), previous: warnings)
    }
}
