import LodestoneOutputs
import LodestoneEncoding

/// One row of the referee's table: what was measured against what limit.
public struct RefereeCheck: Sendable, Equatable {
    public var trip: String
    public var name: String
    public var measured: Double
    /// "<=" or ">=": which side of the limit passes.
    public var comparison: String
    public var limit: Double
    public var unit: String
    public var passed: Bool
    /// What was measured, in words.
    public var detail: String

    init(trip: String, name: String, measured: Double, atMost limit: Double, unit: String, _ detail: String) {
        self.init(
            trip: trip, name: name, measured: measured, comparison: "<=", limit: limit, unit: unit,
            passed: measured.isFinite && measured <= limit, detail: detail)
    }

    init(trip: String, name: String, measured: Double, atLeast limit: Double, unit: String, _ detail: String) {
        self.init(
            trip: trip, name: name, measured: measured, comparison: ">=", limit: limit, unit: unit,
            passed: measured.isFinite && measured >= limit, detail: detail)
    }

    public init(trip: String, name: String, measured: Double, comparison: String, limit: Double, unit: String, passed: Bool, detail: String) {
        self.trip = trip
        self.name = name
        self.measured = measured
        self.comparison = comparison
        self.limit = limit
        self.unit = unit
        self.passed = passed
        self.detail = detail
    }

    /// A check with nothing to measure (no samples where there should be some) fails.
    static func missing(trip: String, name: String, _ detail: String) -> RefereeCheck {
        RefereeCheck(
            trip: trip, name: name, measured: .nan, comparison: "", limit: .nan, unit: "", passed: false,
            detail: "no data: " + detail)
    }

    public var json: String {
        var w = JSONObjectWriter()
        w.string("trip", trip)
        w.string("check", name)
        if measured.isFinite { w.number("measured", measured, decimals: 3) }
        if limit.isFinite { w.string("comparison", comparison); w.number("limit", limit, decimals: 3) }
        w.string("unit", unit)
        w.bool("passed", passed)
        w.string("detail", detail)
        return w.finished
    }
}

/// The p-th quantile (0...1) of values, nearest rank; NaN when there are none.
func quantile(_ values: [Double], _ p: Double) -> Double {
    let sorted = values.filter(\.isFinite).sorted()
    guard !sorted.isEmpty else { return .nan }
    let rank = Int((p * Double(sorted.count)).rounded(.up)) - 1
    return sorted[min(max(rank, 0), sorted.count - 1)]
}
