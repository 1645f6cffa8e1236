import LodestoneCore

/// A track made fit to share: points near private places (home, a friend's house) are cut
/// out, so the track starts and ends out of sight of the door, and times can be dropped so a
/// shared track does not tell when someone was away.
public struct PrivacyTrim: Sendable, Equatable {
    public struct Place: Sendable, Equatable {
        public var latitude: Double
        public var longitude: Double
        /// Metres around the place in which no point is kept.
        public var radius: Double

        public init(latitude: Double, longitude: Double, radius: Double = PrivacyTrim.defaultRadius) {
            self.latitude = latitude
            self.longitude = longitude
            self.radius = radius
        }

        /// "LAT,LON" or "LAT,LON,RADIUS_M"; nil when it is not that.
        public init?(_ text: String) {
            let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { DecimalNumber.parse($0.filter { $0 != " " }) }
            guard parts.count == 2 || parts.count == 3, let latitude = parts[0], let longitude = parts[1],
                abs(latitude) <= 90, abs(longitude) <= 180
            else { return nil }
            let radius = parts.count == 3 ? parts[2] : PrivacyTrim.defaultRadius
            guard let radius, radius > 0, radius <= 100_000 else { return nil }
            self.init(latitude: latitude, longitude: longitude, radius: radius)
        }
    }

    /// 500 m hides which house on a street, and which street in a village.
    public static let defaultRadius = 500.0

    public var places: [Place]
    public var dropTimes: Bool

    public init(places: [Place], dropTimes: Bool = true) {
        self.places = places
        self.dropTimes = dropTimes
    }

    /// The points outside every place, with their times removed when asked.
    public func apply(_ points: [TrackPoint]) -> [TrackPoint] {
        points.compactMap { point in
            guard keeps(point) else { return nil }
            var kept = point
            if dropTimes { kept.time = .nan }
            return kept
        }
    }

    /// Whether a point lies outside every private place.
    public func keeps(_ point: TrackPoint) -> Bool {
        !places.contains { place in
            Geodesy.distance(
                latitude1: place.latitude, longitude1: place.longitude,
                latitude2: point.latitude, longitude2: point.longitude) < place.radius
        }
    }
}
