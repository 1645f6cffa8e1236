/// One elevation per track point, the same wherever the track is shown (GPX `ele`, CSV, JSON,
/// the profile, gain and loss): the barometer's altitude levelled to GPS by `AltitudeFusion`,
/// taken over the points in the order they were recorded. The barometer alone drifts with the
/// weather (1 hPa is about 8 m), GPS alone wanders by metres from one point to the next.
public enum TrackElevation {
    /// Metres above mean sea level for each point (NaN where neither altitude is known).
    public static func of(_ points: [TrackPoint]) -> [Double] {
        var stream = Stream()
        return points.map { stream.next($0) }
    }

    /// The elevations a point at a time, in the order the points were recorded: the same as
    /// `of` the whole list, for a track read or written without holding its points.
    public struct Stream: Sendable {
        private var fusion = AltitudeFusion()
        private var previous = Double.nan

        public init() {}

        /// The next point's elevation (NaN where neither altitude is known).
        public mutating func next(_ point: TrackPoint) -> Double {
            let interval = previous.isFinite && point.time.isFinite ? max(0, point.time - previous) : 0
            if point.time.isFinite { previous = point.time }
            return fusion.update(barometric: point.baroAltitude, gps: point.gpsAltitude, interval: interval)
        }
    }
}
