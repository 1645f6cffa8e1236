/// A numeric stream's past at four resolutions: the last hour in 10 s buckets, 6 hours in
/// 1 min, 24 hours in 4 min and 7 days in 30 min, each bucket with its minimum, maximum, mean
/// and count. 1,416 buckets a stream (45 kB), whatever the sample rate.
///
/// Buckets are placed by absolute time (bucket = floor(t / width)), so a restart, a gap or
/// an old file loaded later all land where they belong; stale buckets read as empty.
public struct History: Sendable {
    public enum Range: String, Sendable, CaseIterable {
        case hour = "1h", sixHours = "6h", day = "24h", week = "7d"

        /// Bucket width and bucket count.
        public var width: Double {
            switch self {
            case .hour: return 10
            case .sixHours: return 60
            case .day: return 240
            case .week: return 1800
            }
        }
        public var buckets: Int {
            switch self {
            case .hour: return 360
            case .sixHours: return 360
            case .day: return 360
            case .week: return 336
            }
        }
        public var seconds: Double { width * Double(buckets) }
    }

    public struct Bucket: Sendable, Equatable {
        /// floor(t / width) of the bucket's time; -1 when empty.
        public var index: Int64 = -1
        public var minimum = Double.infinity
        public var maximum = -Double.infinity
        public var sum = 0.0
        public var count: UInt32 = 0

        public var mean: Double { count > 0 ? sum / Double(count) : .nan }

        public init(index: Int64 = -1, minimum: Double = .infinity, maximum: Double = -.infinity, sum: Double = 0, count: UInt32 = 0) {
            (self.index, self.minimum, self.maximum, self.sum, self.count) = (index, minimum, maximum, sum, count)
        }
    }

    /// A range's summary and its points (bucket start time, mean), oldest first.
    public struct Summary: Sendable {
        public var range: Range
        public var minimum: Double
        public var maximum: Double
        public var mean: Double
        public var samples: Int
        public var points: [(time: Double, mean: Double, minimum: Double, maximum: Double)]
    }

    /// Buckets per range, in ring order (slot = index mod count).
    public private(set) var levels: [[Bucket]]

    public init() {
        levels = Range.allCases.map { [Bucket](repeating: Bucket(), count: $0.buckets) }
    }

    /// One sample at UTC `time` seconds; NaN and infinite values are ignored.
    public mutating func add(_ value: Double, time: Double) {
        guard value.isFinite, time.isFinite, time > 0 else { return }
        for (level, range) in Range.allCases.enumerated() {
            let index = Int64((time / range.width).rounded(.down))
            let slot = Int(index % Int64(range.buckets))
            var bucket = levels[level][slot]
            if bucket.index != index {
                // Older data in this slot belongs to a past turn of the ring; newer means the
                // sample is late, from before the ring's window: drop it.
                if bucket.index > index { continue }
                bucket = Bucket(index: index)
            }
            bucket.minimum = min(bucket.minimum, value)
            bucket.maximum = max(bucket.maximum, value)
            bucket.sum += value
            bucket.count += 1
            levels[level][slot] = bucket
        }
    }

    /// The newest minute's mean and how much it changed over `seconds` (up to 6 hours): against
    /// the minute that long before, or the nearest kept within 10 minutes of it; nil without both.
    public func newest(changeOver seconds: Double) -> (time: Double, value: Double, change: Double)? {
        let range = Range.sixHours
        guard let level = Range.allCases.firstIndex(of: range), seconds > 0, seconds < range.seconds,
            let newest = levels[level].filter({ $0.count > 0 }).max(by: { $0.index < $1.index })
        else { return nil }
        let back = newest.index - Int64(seconds / range.width)
        let earlier = levels[level].filter { $0.count > 0 && abs($0.index - back) <= 10 }.min { abs($0.index - back) < abs($1.index - back) }
        guard let earlier else { return nil }
        return ((Double(newest.index) + 0.5) * range.width, newest.mean, newest.mean - earlier.mean)
    }

    /// The range ending at `now`: minimum, maximum and mean over it, and its buckets in time order.
    public func summary(_ range: Range, now: Double) -> Summary {
        let level = Range.allCases.firstIndex(of: range) ?? 0
        let newest = Int64((now / range.width).rounded(.down))
        let oldest = newest - Int64(range.buckets) + 1
        var points: [(Double, Double, Double, Double)] = []
        var minimum = Double.infinity, maximum = -Double.infinity, sum = 0.0, count = 0
        for index in oldest...newest {
            let bucket = levels[level][Int(((index % Int64(range.buckets)) + Int64(range.buckets)) % Int64(range.buckets))]
            guard bucket.index == index, bucket.count > 0 else { continue }
            points.append((Double(index) * range.width, bucket.mean, bucket.minimum, bucket.maximum))
            minimum = min(minimum, bucket.minimum)
            maximum = max(maximum, bucket.maximum)
            sum += bucket.sum
            count += Int(bucket.count)
        }
        return Summary(
            range: range, minimum: count > 0 ? minimum : .nan, maximum: count > 0 ? maximum : .nan,
            mean: count > 0 ? sum / Double(count) : .nan, samples: count, points: points)
    }

    /// Empties every bucket that starts after `time` (stamped by a clock that was wrong).
    public mutating func forget(after time: Double) {
        for (level, range) in Range.allCases.enumerated() {
            for slot in levels[level].indices where Double(levels[level][slot].index) * range.width > time {
                levels[level][slot] = Bucket()
            }
        }
    }

    /// Restores buckets read from disk (any bucket whose slot or count does not fit is skipped).
    public mutating func restore(level: Int, bucket: Bucket) {
        guard levels.indices.contains(level), bucket.index >= 0, bucket.count > 0 else { return }
        let count = Int64(levels[level].count)
        let slot = Int(bucket.index % count)
        if levels[level][slot].index < bucket.index { levels[level][slot] = bucket }
    }
}
