/// Keeps the sampling loop inside its CPU budget: when ticks overrun (or the tasks use most of
/// each tick), the lowest-priority task that is still above its floor has its rate halved;
/// when the load has stayed light for a while, rates come back one step at a time, highest
/// priority first. Halving and doubling with a quiet period in between keeps it from
/// oscillating.
public struct LoadShedder: Sendable {
    /// Rate multipliers per task, in priority order (index 0 most important).
    public private(set) var factors: [Double]
    /// The smallest multiplier each task may be given.
    public let minimumFactors: [Double]
    public var overloadUtilisation = 0.8
    /// Overruns in one observation that count as overload; one or two (a page fault at start,
    /// a burst of bus retries) do not.
    public var overrunLimit = 3
    public var lightUtilisation = 0.5
    /// Seconds of light load before one rate is given back.
    public var recoveryTime = 5.0
    private var lightFor = 0.0

    public init(minimumFactors: [Double]) {
        self.minimumFactors = minimumFactors
        factors = minimumFactors.map { _ in 1 }
    }

    public var isShedding: Bool { factors.contains { $0 < 1 } }

    /// One observation over `interval` seconds: loop overruns in that time and the fraction of
    /// each tick the tasks used. Returns whether a factor changed.
    @discardableResult
    public mutating func observe(overruns: Int, utilisation: Double, interval: Double) -> Bool {
        if overruns >= overrunLimit || utilisation > overloadUtilisation {
            lightFor = 0
            for index in factors.indices.reversed() where factors[index] > minimumFactors[index] {
                factors[index] = max(factors[index] / 2, minimumFactors[index])
                return true
            }
            return false
        }
        guard utilisation < lightUtilisation, isShedding else {
            lightFor = 0
            return false
        }
        lightFor += interval
        guard lightFor >= recoveryTime else { return false }
        lightFor = 0
        for index in factors.indices where factors[index] < 1 {
            factors[index] = min(factors[index] * 2, 1)
            return true
        }
        return false
    }
}
