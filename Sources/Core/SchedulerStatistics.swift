/// What the scheduler measured for one task since start.
public struct TaskStatistics: Sendable, Equatable {
    public var runs: UInt64 = 0
    public var totalExecution: UInt64 = 0
    public var maxExecution: UInt64 = 0
    /// Runs that took longer than the task's budget.
    public var overruns: UInt64 = 0
    /// Runs that started more than one loop period after they were due.
    public var slips: UInt64 = 0
    /// Times the task was due but its budget did not fit the time left in the tick.
    public var skips: UInt64 = 0
    /// Runs given up because the task fell a whole period or more behind (no catch-up bursts).
    public var missed: UInt64 = 0
    /// The task's current rate (it can change while running).
    public var rateHz: Double = 0

    public init() {}

    public var meanExecutionMicroseconds: Double {
        runs == 0 ? 0 : Double(totalExecution) / Double(runs) / 1000
    }
    public var maxExecutionMicroseconds: Double { Double(maxExecution) / 1000 }
}

/// What the scheduler measured for the loop as a whole.
public struct LoopStatistics: Sendable, Equatable {
    public var ticks: UInt64 = 0
    /// Ticks whose work ran past the start of the next tick.
    public var overruns: UInt64 = 0
    /// Ticks given up after an overrun, instead of running them back to back.
    public var droppedTicks: UInt64 = 0
    /// Wake-up lateness: how long after its deadline the loop woke (microseconds).
    public var latenessP50Microseconds: Double = 0
    public var latenessP99Microseconds: Double = 0
    public var latenessMaxMicroseconds: Double = 0
    public var rateHz: Double = 0

    public init() {}
}

/// A fixed-size histogram of wake-up lateness with 1 microsecond buckets up to 10 ms, so
/// percentiles can be read without storing (or allocating for) every sample.
public struct LatenessHistogram: ~Copyable {
    public static let bucketCount = 10_000
    private let buckets: UnsafeMutablePointer<UInt32>
    public private(set) var samples: UInt64 = 0
    public private(set) var maxNanoseconds: UInt64 = 0

    public init() {
        buckets = .allocate(capacity: Self.bucketCount + 1)
        buckets.initialize(repeating: 0, count: Self.bucketCount + 1)
    }

    deinit { buckets.deallocate() }

    public mutating func record(_ nanoseconds: UInt64) {
        let bucket = min(Int(nanoseconds / 1000), Self.bucketCount)
        buckets[bucket] &+= 1
        samples += 1
        if nanoseconds > maxNanoseconds { maxNanoseconds = nanoseconds }
    }

    /// The lateness below which `fraction` of the samples fall, in microseconds (bucket upper edge).
    public func percentileMicroseconds(_ fraction: Double) -> Double {
        guard samples > 0 else { return 0 }
        let wanted = UInt64((Double(samples) * fraction).rounded(.up))
        var seen: UInt64 = 0
        for bucket in 0...Self.bucketCount {
            seen += UInt64(buckets[bucket])
            if seen >= max(wanted, 1) {
                return bucket == Self.bucketCount ? Double(maxNanoseconds) / 1000 : Double(bucket + 1)
            }
        }
        return Double(maxNanoseconds) / 1000
    }

    public mutating func reset() {
        buckets.update(repeating: 0, count: Self.bucketCount + 1)
        samples = 0
        maxNanoseconds = 0
    }
}
