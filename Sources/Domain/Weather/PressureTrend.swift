/// Where the weather is going, from the sea-level pressure of the last hours.
///
/// The pressure fed in is reduced to sea level with the device's best altitude, so walking
/// uphill (the station pressure falls 12 hPa per 100 m) does not read as a storm. That
/// altitude leans on GPS, whose vertical error wanders by metres over minutes, and a metre is
/// 0.12 hPa: on the move it would read as a trend of up to 1 hPa/h. So the tendency comes
/// from the station pressure itself wherever the altitude did not change: minutes at rest, and
/// "level" minutes, each within `levelChange` of the one before (a climb changes the pressure
/// ten times faster than any weather; a boat or a walk on the flat stays within it). Across a
/// climb nothing is compared: each level stretch gives slopes between its own minutes only.
/// When there are too few level minutes, or their slope disagrees with the sea-level series
/// by more than GPS can explain (a long gentle slope looks level to the barometer), the
/// sea-level series decides.
///
/// Both are Theil-Sen slopes (the median of the slopes between pairs of minutes), which a
/// gust, a door slamming or a few minutes of bad altitude cannot swing. Nothing is said before
/// 30 minutes of data; the answer changes once a minute.
public struct PressureTrend: Sendable {
    public enum Band: String, Sendable, Equatable {
        case risingFast, rising, steady, falling, fallingFast

        /// The bands in hPa per hour: beyond +1.0, +0.5..+1.0, -0.5..+0.5, -1.0..-0.5, below -1.0.
        public init(hPaPerHour rate: Double) {
            switch rate {
            case 1.0...: self = .risingFast
            case 0.5..<1.0: self = .rising
            case -0.5..<0.5: self = .steady
            case -1.0 ..< -0.5: self = .falling
            default: self = .fallingFast
            }
        }

        /// What a person takes from it.
        public var forecast: String {
            switch self {
            case .risingFast: return "Clearing, fair weather ahead"
            case .rising: return "Weather improving"
            case .steady: return "Stable conditions"
            case .falling: return "Weather deteriorating"
            case .fallingFast: return "Storm approaching"
            }
        }

        /// An arrow for the screen.
        public var arrow: String {
            switch self {
            case .risingFast: return "⇈"
            case .rising: return "↑"
            case .steady: return "→"
            case .falling: return "↓"
            case .fallingFast: return "⇊"
            }
        }
    }

    /// The assessment: tendency over the fit window, its band, the WMO 3-hour tendency and the
    /// 6-hour change. Fields are nil until there is enough data for them.
    public struct Reading: Sendable, Equatable {
        public var hPaPerHour: Double
        public var band: Band
        /// Minutes of data behind `hPaPerHour`.
        public var minutes: Int
        /// The change over the last 3 hours (hPa) and its WMO characteristic (code table 0200).
        public var threeHourChange: Double?
        public var characteristic: Int?
        /// The change over the last 6 hours, hPa.
        public var sixHourChange: Double?
    }

    /// No prediction before this much data.
    public static let minimumMinutes = 30
    /// The robust fit looks at the last 3 hours.
    public static let fitMinutes = 180

    /// Station pressure (hPa) changing by at most this from one minute to the next is level:
    /// 0.8 m of altitude, or 6 hPa/h, faster than any but the wildest weather. Walking up
    /// the gentlest path a person notices (3%) changes it by 0.3 hPa a minute.
    public static let levelChange = 0.1
    /// Level minutes the station-pressure slope needs before it decides: two stretches of
    /// two. The barometer averages a minute to a twentieth of a pascal, so one pair of level
    /// minutes already gives the rate to 0.05 hPa/h; more guard against a slow climb.
    public static let levelMinutesNeeded = 4
    /// The most the sea-level series' slope can be off through GPS's vertical wander (hPa/h);
    /// a level slope further from it than this was a gentle climb, not weather.
    public static let gpsTrendUncertainty = 2.0

    /// One mean sea-level pressure (hPa) per minute, newest last, at most 6 h + 1 min.
    public private(set) var minutes: [Double] = []
    /// Per minute, beside `minutes`: the mean station pressure (hPa; NaN when not given) and
    /// whether the altitude held since the minute before (see `levelChange`).
    private var station: [Double] = []
    private var levelWithPrevious: [Bool] = []
    private var lastMinuteResting = false
    private var currentMinute: Int64?
    private var sum = 0.0, count = 0
    private var stationSum = 0.0, stationCount = 0, resting = true

    public init() {
        minutes.reserveCapacity(362)
        station.reserveCapacity(362)
        levelWithPrevious.reserveCapacity(362)
    }

    /// A sea-level pressure (hPa) at UTC `time` (seconds), with the station pressure it was
    /// reduced from (hPa; NaN when unknown) and whether the device was at rest. Minutes with
    /// no sample are filled with NaN so the time axis stays true; returns true when a minute
    /// was completed (the moment the assessment may change).
    @discardableResult
    public mutating func add(seaLevelPressure: Double, stationPressure: Double = .nan, resting: Bool = false, time: Double) -> Bool {
        guard seaLevelPressure.isFinite, seaLevelPressure > 800, seaLevelPressure < 1100, time.isFinite else { return false }
        let minute = Int64((time / 60).rounded(.down))
        var completed = false
        if let current = currentMinute, minute != current {
            if minute < current { return false }  // the clock went back: keep the data, skip the sample
            completeMinute()
            for _ in 0..<min(361, Int(minute - current - 1)) { push(.nan, station: .nan, resting: false) }
            completed = true
        }
        currentMinute = minute
        sum += seaLevelPressure
        count += 1
        if stationPressure.isFinite, stationPressure > 100, stationPressure < 1100 {
            stationSum += stationPressure
            stationCount += 1
        }
        self.resting = self.resting && resting
        return completed
    }

    private mutating func completeMinute() {
        push(
            count > 0 ? sum / Double(count) : .nan, station: stationCount > 0 ? stationSum / Double(stationCount) : .nan,
            resting: count > 0 && resting)
        (sum, count, stationSum, stationCount, resting) = (0, 0, 0, 0, true)
    }

    private mutating func push(_ value: Double, station pressure: Double, resting: Bool) {
        let previous = station.last ?? .nan
        let level =
            pressure.isFinite && previous.isFinite
            && ((resting && lastMinuteResting) || abs(pressure - previous) <= Self.levelChange)
        minutes.append(value)
        station.append(pressure)
        levelWithPrevious.append(level)
        lastMinuteResting = resting
        if minutes.count > 361 {
            let excess = minutes.count - 361
            minutes.removeFirst(excess)
            station.removeFirst(excess)
            levelWithPrevious.removeFirst(excess)
        }
    }

    /// The assessment from the completed minutes; nil before 30 minutes of data.
    public var reading: Reading? {
        let first = max(0, minutes.count - Self.fitMinutes)
        var known = 0, firstKnown = -1, lastKnown = -1
        for index in first..<minutes.count where minutes[index].isFinite {
            known += 1
            if firstKnown < 0 { firstKnown = index }
            lastKnown = index
        }
        guard known >= Self.minimumMinutes, lastKnown - firstKnown >= Self.minimumMinutes - 1 else { return nil }
        let seaLevelRate =
            Self.theilSen(count: known) { add in
                for index in first..<minutes.count where minutes[index].isFinite { add(Double(index - first), minutes[index], false) }
            } * 60
        var rate = seaLevelRate
        if let level = levelRate(), abs(level - seaLevelRate) <= Self.gpsTrendUncertainty { rate = level }
        var reading = Reading(hPaPerHour: rate, band: Band(hPaPerHour: rate), minutes: known)
        if let change = change(over: 180) {
            reading.threeHourChange = change
            reading.characteristic = characteristic(change: change)
        }
        reading.sixHourChange = change(over: 360)
        return reading
    }

    /// The newest minute minus the one `span` minutes before it (each a 5-minute median, so one
    /// odd minute does not decide), when both are known.
    func change(over span: Int) -> Double? {
        guard minutes.count > span else { return nil }
        let end = minutes.count - 1
        guard let now = median(around: end), let then = median(around: end - span) else { return nil }
        return now - then
    }

    private func median(around index: Int) -> Double? {
        // At most five minutes: sorted in place on the stack (once a minute, nothing allocated).
        var values: (Double, Double, Double, Double, Double) = (0, 0, 0, 0, 0)
        return withUnsafeMutableBytes(of: &values) { raw -> Double? in
            let buffer = raw.bindMemory(to: Double.self)
            var count = 0
            for value in minutes[max(0, index - 2)...min(minutes.count - 1, index + 2)] where value.isFinite {
                buffer[count] = value
                count += 1
            }
            guard count > 0 else { return nil }
            for i in 1..<max(count, 1) {
                var j = i
                while j > 0 && buffer[j - 1] > buffer[j] {
                    buffer.swapAt(j - 1, j)
                    j -= 1
                }
            }
            return buffer[count / 2]
        }
    }

    /// WMO code table 0200 from the two halves of the last 3 hours: 0-3 ended higher than it
    /// started, 4 the same, 5-8 lower. Changes under 0.1 hPa are steady; a half changing at
    /// under half (or over 1.5 times) the rate of the other is "more slowly" ("more rapidly").
    func characteristic(change: Double) -> Int? {
        guard let firstHalf = halfChange(from: 180, to: 90), let secondHalf = halfChange(from: 90, to: 0) else { return nil }
        let steady = 0.1
        func trend(_ d: Double) -> Int { d > steady ? 1 : (d < -steady ? -1 : 0) }
        let a = trend(firstHalf), b = trend(secondHalf)
        if abs(change) <= steady && a == 0 && b == 0 { return 4 }
        if change >= 0 {
            if a > 0 && b < 0 { return 0 }  // up, then down; still as high or higher
            if a > 0 && b == 0 { return 1 }  // up, then steady
            if a > 0 && b > 0 && secondHalf < 0.5 * firstHalf { return 1 }  // up, then up more slowly
            if a <= 0 && b > 0 { return 3 }  // down or steady, then up
            if a > 0 && b > 0 && secondHalf > 1.5 * firstHalf { return 3 }  // up, then up faster
            return 2  // up
        }
        if a < 0 && b > 0 { return 5 }  // down, then up; lower than before
        if a < 0 && b == 0 { return 6 }  // down, then steady
        if a < 0 && b < 0 && secondHalf > 0.5 * firstHalf { return 6 }  // down, then down more slowly
        if a >= 0 && b < 0 { return 8 }  // steady or up, then down
        if a < 0 && b < 0 && secondHalf < 1.5 * firstHalf { return 8 }  // down, then down faster
        return 7  // down
    }

    private func halfChange(from start: Int, to end: Int) -> Double? {
        let last = minutes.count - 1
        guard last - start >= 0, let a = median(around: last - start), let b = median(around: last - end) else { return nil }
        return b - a
    }

    /// The weather's rate (hPa/h) from the station pressure of the level stretches of the fit
    /// window, scaled to sea level; nil with fewer than `levelMinutesNeeded` level minutes.
    func levelRate() -> Double? {
        let first = max(0, minutes.count - Self.fitMinutes)
        // The stretches of two or more level minutes with a station pressure.
        func stretches(_ body: (_ index: Int, _ startsStretch: Bool) -> Void) {
            var start = first, length = 0
            func close(upTo end: Int) {
                guard length >= 2 else { return }
                var starts = true
                for index in start..<end where station[index].isFinite {
                    body(index, starts)
                    starts = false
                }
            }
            for index in first..<minutes.count {
                if !levelWithPrevious[index] || index == first {
                    close(upTo: index)
                    (start, length) = (index, 0)
                }
                if station[index].isFinite { length += 1 }
            }
            close(upTo: minutes.count)
        }
        var points = 0
        stretches { _, _ in points += 1 }
        guard points >= Self.levelMinutesNeeded,
            let last = (first..<minutes.count).last(where: { minutes[$0].isFinite && station[$0].isFinite })
        else { return nil }
        // A change of station pressure is a change at sea level scaled by their ratio
        // (1.12 at 1,000 m).
        let slope = Self.theilSen(count: points) { add in stretches { index, starts in add(Double(index), station[index], starts) } }
        return slope * 60 * minutes[last] / station[last]
    }

    /// The median of the slopes between pairs of points within each group: `points` hands
    /// `add` the `count` points in order, each saying whether it starts a new group. O(n^2)
    /// pairs for n <= 180 minutes: at most 16,110 slopes, computed once a minute in temporary
    /// storage (on the stack where the thread has room), the median found in place.
    static func theilSen(count: Int, _ points: ((_ x: Double, _ y: Double, _ startsGroup: Bool) -> Void) -> Void) -> Double {
        guard count >= 2 else { return 0 }
        return withUnsafeTemporaryAllocation(of: (x: Double, y: Double, group: Int).self, capacity: count) { gathered in
            var n = 0, group = 0
            points { x, y, starts in
                guard n < count else { return }
                if starts && n > 0 { group += 1 }
                gathered[n] = (x, y, group)
                n += 1
            }
            return withUnsafeTemporaryAllocation(of: Double.self, capacity: n * (n - 1) / 2 + 1) { slopes in
                var m = 0
                for i in 0..<n {
                    var j = i + 1
                    while j < n && gathered[j].group == gathered[i].group {
                        if gathered[j].x != gathered[i].x {
                            slopes[m] = (gathered[j].y - gathered[i].y) / (gathered[j].x - gathered[i].x)
                            m += 1
                        }
                        j += 1
                    }
                }
                guard m > 0 else { return 0 }
                let found = UnsafeMutableBufferPointer(rebasing: slopes[..<m])
                let upper = select(m / 2, in: found)
                guard m % 2 == 0 else { return upper }
                // The lower middle is the largest of what selection left below the upper one.
                var lower = -Double.infinity
                for index in 0..<(m / 2) { lower = max(lower, found[index]) }
                return (lower + upper) / 2
            }
        }
    }

    /// The `k`th smallest of `values` (from 0), reordering them so that those before it are
    /// no larger and those after no smaller (Hoare's selection; no storage of its own).
    static func select(_ k: Int, in values: UnsafeMutableBufferPointer<Double>) -> Double {
        var low = 0, high = values.count - 1
        while low < high {
            let pivot = values[(low + high) / 2]
            var i = low, j = high
            while i <= j {
                while values[i] < pivot { i += 1 }
                while values[j] > pivot { j -= 1 }
                if i <= j {
                    values.swapAt(i, j)
                    i += 1
                    j -= 1
                }
            }
            if k <= j { high = j } else if k >= i { low = i } else { break }
        }
        return values[k]
    }
}
