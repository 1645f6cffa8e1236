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
        let window = Array(minutes.suffix(Self.fitMinutes))
        let known = window.enumerated().filter { $0.element.isFinite }
        guard known.count >= Self.minimumMinutes, let first = known.first, let last = known.last,
            last.offset - first.offset >= Self.minimumMinutes - 1
        else { return nil }
        let seaLevelRate = Self.theilSen([known.map { (Double($0.offset), $0.element) }]) * 60
        var rate = seaLevelRate
        if let level = levelRate(), abs(level - seaLevelRate) <= Self.gpsTrendUncertainty { rate = level }
        var reading = Reading(hPaPerHour: rate, band: Band(hPaPerHour: rate), minutes: known.count)
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
        let values = minutes[max(0, index - 2)...min(minutes.count - 1, index + 2)].filter(\.isFinite).sorted()
        return values.isEmpty ? nil : values[values.count / 2]
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
        var stretches: [[(x: Double, y: Double)]] = []
        var stretch: [(x: Double, y: Double)] = []
        for index in first..<minutes.count {
            if !levelWithPrevious[index] || index == first {
                if stretch.count >= 2 { stretches.append(stretch) }
                stretch = []
            }
            if station[index].isFinite { stretch.append((Double(index), station[index])) }
        }
        if stretch.count >= 2 { stretches.append(stretch) }
        guard stretches.reduce(0, { $0 + $1.count }) >= Self.levelMinutesNeeded,
            let last = (first..<minutes.count).last(where: { minutes[$0].isFinite && station[$0].isFinite })
        else { return nil }
        // A change of station pressure is a change at sea level scaled by their ratio
        // (1.12 at 1,000 m).
        return Self.theilSen(stretches) * 60 * minutes[last] / station[last]
    }

    /// The median of the slopes between pairs of points within each group. O(n^2) pairs for
    /// n <= 180 minutes: at most 16,110 slopes, computed once a minute.
    static func theilSen(_ groups: [[(x: Double, y: Double)]]) -> Double {
        var slopes: [Double] = []
        slopes.reserveCapacity(groups.reduce(0) { $0 + $1.count * ($1.count - 1) / 2 })
        for points in groups {
            for i in points.indices {
                for j in (i + 1)..<points.count where points[j].x != points[i].x {
                    slopes.append((points[j].y - points[i].y) / (points[j].x - points[i].x))
                }
            }
        }
        guard !slopes.isEmpty else { return 0 }
        slopes.sort()
        let middle = slopes.count / 2
        return slopes.count % 2 == 1 ? slopes[middle] : (slopes[middle - 1] + slopes[middle]) / 2
    }
}
