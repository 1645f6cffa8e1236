/// Where the weather is going, from the sea-level pressure of the last hours.
///
/// The pressure fed in is reduced to sea level with the device's best altitude, so walking
/// uphill (the station pressure falls 12 hPa per 100 m) does not read as a storm. The
/// tendency is a Theil-Sen slope (the median of the slopes between all pairs of minutes),
/// which a gust, a door slamming or a few minutes of bad altitude cannot swing. Nothing is
/// said before 30 minutes of data; the answer changes once a minute.
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

    /// One mean sea-level pressure (hPa) per minute, newest last, at most 6 h + 1 min.
    public private(set) var minutes: [Double] = []
    private var currentMinute: Int64?
    private var sum = 0.0, count = 0

    public init() { minutes.reserveCapacity(362) }

    /// A sea-level pressure (hPa) at UTC `time` (seconds). Minutes with no sample are filled with
    /// NaN so the time axis stays true; returns true when a minute was completed (the moment
    /// the assessment may change).
    @discardableResult
    public mutating func add(seaLevelPressure: Double, time: Double) -> Bool {
        guard seaLevelPressure.isFinite, seaLevelPressure > 800, seaLevelPressure < 1100, time.isFinite else { return false }
        let minute = Int64((time / 60).rounded(.down))
        var completed = false
        if let current = currentMinute, minute != current {
            if minute < current { return false }   // the clock went back: keep the data, skip the sample
            push(count > 0 ? sum / Double(count) : .nan)
            for _ in 0..<min(361, Int(minute - current - 1)) { push(.nan) }
            (sum, count) = (0, 0)
            completed = true
        }
        currentMinute = minute
        sum += seaLevelPressure
        count += 1
        return completed
    }

    private mutating func push(_ value: Double) {
        minutes.append(value)
        if minutes.count > 361 { minutes.removeFirst(minutes.count - 361) }
    }

    /// The assessment from the completed minutes; nil before 30 minutes of data.
    public var reading: Reading? {
        let window = Array(minutes.suffix(Self.fitMinutes))
        let known = window.enumerated().filter { $0.element.isFinite }
        guard known.count >= Self.minimumMinutes, let first = known.first, let last = known.last,
              last.offset - first.offset >= Self.minimumMinutes - 1 else { return nil }
        let rate = Self.theilSen(known.map { (Double($0.offset), $0.element) }) * 60
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
            if a > 0 && b < 0 { return 0 }                       // up, then down; still as high or higher
            if a > 0 && b == 0 { return 1 }                      // up, then steady
            if a > 0 && b > 0 && secondHalf < 0.5 * firstHalf { return 1 }   // up, then up more slowly
            if a <= 0 && b > 0 { return 3 }                      // down or steady, then up
            if a > 0 && b > 0 && secondHalf > 1.5 * firstHalf { return 3 }   // up, then up faster
            return 2                                             // up
        }
        if a < 0 && b > 0 { return 5 }                           // down, then up; lower than before
        if a < 0 && b == 0 { return 6 }                          // down, then steady
        if a < 0 && b < 0 && secondHalf > 0.5 * firstHalf { return 6 }   // down, then down more slowly
        if a >= 0 && b < 0 { return 8 }                          // steady or up, then down
        if a < 0 && b < 0 && secondHalf < 1.5 * firstHalf { return 8 }   // down, then down faster
        return 7                                                 // down
    }

    private func halfChange(from start: Int, to end: Int) -> Double? {
        let last = minutes.count - 1
        guard last - start >= 0, let a = median(around: last - start), let b = median(around: last - end) else { return nil }
        return b - a
    }

    /// The median of the pairwise slopes. O(n^2) pairs for n <= 180 minutes: 16,110 slopes,
    /// computed once a minute.
    static func theilSen(_ points: [(x: Double, y: Double)]) -> Double {
        var slopes: [Double] = []
        slopes.reserveCapacity(points.count * (points.count - 1) / 2)
        for i in points.indices {
            for j in (i + 1)..<points.count where points[j].x != points[i].x {
                slopes.append((points[j].y - points[i].y) / (points[j].x - points[i].x))
            }
        }
        guard !slopes.isEmpty else { return 0 }
        slopes.sort()
        let middle = slopes.count / 2
        return slopes.count % 2 == 1 ? slopes[middle] : (slopes[middle - 1] + slopes[middle]) / 2
    }
}
