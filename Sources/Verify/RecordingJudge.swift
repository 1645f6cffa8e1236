import LodestoneCore
import LodestoneDomain
import LodestoneReports

/// `lodestone verify --recording`: what can be judged of a replayed recording without the
/// world's truth, each figure against another source the device has (the receiver against the
/// compass, the barometer and the step counter) or against itself (its fixes' and readings'
/// continuity, its own stated accuracy). What a recording cannot show (no movement, no fix) is
/// said and not judged.
public final class RecordingJudge {
    private let trip: String
    private var headings: [(time: Double, heading: Double, accuracy: Double?)] = []
    private var fixes: [(time: Double, latitude: Double, longitude: Double, altitude: Double, speed: Double, course: Double)] = []
    private var fixTimes: [Double] = []
    private var baro: [(time: Double, altitude: Double)] = []
    private var steps: [(time: Double, steps: Int)] = []
    private var attitudeTimes: [Double] = []
    private var environmentTimes: [Double] = []

    public init(name: String) { trip = name }

    /// Every report the replay published, in order.
    public func take(_ report: Report) {
        switch report {
        case .attitude(let a):
            attitudeTimes.append(a.time)
            if let heading = a.trueHeading ?? a.magneticHeading { headings.append((a.time, heading, a.headingAccuracy)) }
        case .position(let p):
            guard let time = p.fix.utc else { return }
            if p.fix.hasPosition {
                fixTimes.append(time)
                fixes.append((time, p.fix.latitude, p.fix.longitude, p.fix.altitudeMSL, p.fix.speed, p.fix.course))
            }
        case .environment(let e):
            environmentTimes.append(e.time)
            if e.pressure != nil, e.barometricAltitude.isFinite { baro.append((e.time, e.barometricAltitude)) }
        case .motion(let m):
            steps.append((m.time, m.steps))
        default:
            break
        }
    }

    public func checks() -> [RefereeCheck] {
        headingAgainstCourse() + statedAccuracy() + baroAgainstGPS() + stepsAgainstDistance() + fixGaps() + readingGaps()
    }

    // MARK: The checks

    /// Limits: a handheld is held within a few degrees of the way walked, a boat's bow within
    /// a few of its course through the water; 15 degrees leaves room for both and a current.
    static let headingLimit = 15.0
    static let straightSpeed = 1.0
    static let straightSpread = 5.0

    func headingAgainstCourse() -> [RefereeCheck] {
        let name = "heading against course over ground"
        var errors: [Double] = []
        // A fix counts when the course held within 5 degrees over the 5 fixes to it, at 1 m/s or more.
        for index in fixes.indices.dropFirst(4) {
            let window = fixes[(index - 4)...index]
            guard window.allSatisfy({ $0.speed >= Self.straightSpeed && $0.course.isFinite }),
                let last = window.last, let first = window.first, last.time - first.time <= 10,
                window.allSatisfy({ abs(Angle.signed($0.course - last.course)) <= Self.straightSpread }),
                let heading = nearest(headings, to: last.time, within: 0.5)
            else { continue }
            errors.append(abs(Angle.signed(heading.heading - last.course)))
        }
        guard errors.count >= 10 else {
            return [notJudged(name, "fewer than 10 fixes moving straight at \(fixed(Self.straightSpeed, 1)) m/s or more (\(errors.count))")]
        }
        return [
            RefereeCheck(
                trip: trip, name: name, measured: quantile(errors, 0.5), atMost: Self.headingLimit, unit: "deg",
                "median over \(errors.count) fixes moving straight; 95th percentile \(fixed(quantile(errors, 0.95), 1)) deg")
        ]
    }

    func statedAccuracy() -> [RefereeCheck] {
        let name = "heading accuracy the device states"
        let stated = headings.suffix(max(1, headings.count / 2)).compactMap(\.accuracy).filter(\.isFinite)
        guard !stated.isEmpty else { return [notJudged(name, "no heading accuracy was published")] }
        return [
            RefereeCheck(
                trip: trip, name: name, measured: quantile(stated, 0.5), atMost: 10, unit: "deg",
                "median over the recording's second half (\(stated.count) reports): the calibration's own uncertainty")
        ]
    }

    func baroAgainstGPS() -> [RefereeCheck] {
        let name = "barometric against GPS altitude"
        var pairs: [Double] = []
        for fix in fixes where fix.altitude.isFinite {
            guard let reading = nearest(baro, to: fix.time, within: 1) else { continue }
            pairs.append(reading.altitude - fix.altitude)
        }
        guard pairs.count >= 30 else { return [notJudged(name, "fewer than 30 fixes with an altitude beside a pressure reading (\(pairs.count))")] }
        // The sea-level pressure set shifts the whole barometric profile: its shape is judged.
        let offset = quantile(pairs, 0.5)
        let spread = pairs.map { abs($0 - offset) }
        return [
            RefereeCheck(
                trip: trip, name: name, measured: quantile(spread, 0.95), atMost: 20, unit: "m",
                "95th percentile of the difference about its median (\(fixed(offset, 1)) m, the sea-level pressure's share) over \(pairs.count) fixes")
        ]
    }

    func stepsAgainstDistance() -> [RefereeCheck] {
        let name = "stride (GPS distance walked per step)"
        var walked = 0.0
        var counted = 0
        for (a, b) in zip(fixes, fixes.dropFirst()) where b.time - a.time <= 5 && (0.5...2.5).contains(b.speed) {
            guard let before = nearest(steps, to: a.time, within: 2), let after = nearest(steps, to: b.time, within: 2) else { continue }
            walked += Geodesy.distance(latitude1: a.latitude, longitude1: a.longitude, latitude2: b.latitude, longitude2: b.longitude)
            counted += max(0, after.steps - before.steps)
        }
        guard walked >= 100, counted > 0 else {
            return [notJudged(name, "less than 100 m walked at 0.5 to 2.5 m/s with steps counted (\(fixed(walked, 0)) m, \(counted) steps)")]
        }
        let stride = walked / Double(counted)
        return [
            RefereeCheck(
                trip: trip, name: name, measured: stride, comparison: "in", limit: 1.1, unit: "m", passed: (0.4...1.1).contains(stride),
                detail: "\(fixed(walked, 0)) m over \(counted) steps; a walker's stride is 0.4 to 1.1 m")
        ]
    }

    func fixGaps() -> [RefereeCheck] {
        let name = "longest gap in the receiver's fixes"
        guard fixTimes.count >= 2 else { return [notJudged(name, "the receiver gave \(fixTimes.count) fixes")] }
        let gaps = zip(fixTimes, fixTimes.dropFirst()).map { $1 - $0 }
        let longest = gaps.max() ?? 0
        let long = gaps.filter { $0 > 3 }.count
        return [
            RefereeCheck(
                trip: trip, name: name, measured: longest, atMost: 10, unit: "s",
                "\(fixTimes.count) fixes; \(long) gaps longer than 3 s")
        ]
    }

    func readingGaps() -> [RefereeCheck] {
        var checks: [RefereeCheck] = []
        for (what, times) in [("IMU and magnetometer (attitude reports)", attitudeTimes), ("barometer (environment reports)", environmentTimes)] {
            let name = "longest silence of the " + what
            guard times.count >= 2 else {
                checks.append(notJudged(name, "\(times.count) reports"))
                continue
            }
            let longest = zip(times, times.dropFirst()).map { $1 - $0 }.max() ?? 0
            checks.append(
                RefereeCheck(
                    trip: trip, name: name, measured: longest, atMost: 2, unit: "s", "\(times.count) reports; a chip that stops answering leaves a gap"))
        }
        return checks
    }

    // MARK: Helpers

    private func notJudged(_ name: String, _ why: String) -> RefereeCheck {
        RefereeCheck(trip: trip, name: name, measured: .nan, comparison: "", limit: .nan, unit: "", passed: true, detail: "not judged: " + why)
    }

    /// The entry nearest `time` (entries in time order), if one is within `within` seconds.
    private func nearest<Entry>(_ entries: [Entry], to time: Double, within: Double, at key: (Entry) -> Double) -> Entry? {
        var low = 0, high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if key(entries[middle]) < time { low = middle + 1 } else { high = middle }
        }
        let candidates = [low - 1, low].filter { entries.indices.contains($0) }
        guard let best = candidates.min(by: { abs(key(entries[$0]) - time) < abs(key(entries[$1]) - time) }),
            abs(key(entries[best]) - time) <= within
        else { return nil }
        return entries[best]
    }

    private func nearest(_ entries: [(time: Double, heading: Double, accuracy: Double?)], to time: Double, within: Double) -> (
        time: Double, heading: Double, accuracy: Double?
    )? {
        nearest(entries, to: time, within: within, at: \.time)
    }

    private func nearest(_ entries: [(time: Double, altitude: Double)], to time: Double, within: Double) -> (time: Double, altitude: Double)? {
        nearest(entries, to: time, within: within, at: \.time)
    }

    private func nearest(_ entries: [(time: Double, steps: Int)], to time: Double, within: Double) -> (time: Double, steps: Int)? {
        nearest(entries, to: time, within: within, at: \.time)
    }
}
