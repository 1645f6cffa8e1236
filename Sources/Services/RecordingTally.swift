import LodestoneDomain

/// A recording's statistics kept up as its points are taken: each point's elevation
/// (`TrackElevation.Stream`) into `TrackStatistics.Accumulator`, so the figures every face
/// reads cost a point's work, not a pass over a day's points each time one asks.
struct RecordingTally {
    private var accumulator: TrackStatistics.Accumulator
    private var elevations = TrackElevation.Stream()

    /// `splitLength`: metres a split (a kilometre, a mile or a nautical mile).
    init(splitLength: Double = 1000) { accumulator = TrackStatistics.Accumulator(splitLength: splitLength) }

    mutating func add(_ point: TrackPoint) {
        accumulator.add(point, altitude: elevations.next(point))
    }

    var statistics: TrackStatistics { accumulator.statistics }
}
