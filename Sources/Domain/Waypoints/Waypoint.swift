/// A place worth returning to: a name, a position, a GPX symbol and notes.
public struct Waypoint: Sendable, Equatable {
    public var name: String
    public var latitude: Double
    public var longitude: Double
    public var elevation: Double
    /// A GPX `sym` name, e.g. "Flag", "Campground", "Water Source".
    public var symbol: String
    public var notes: String
    /// UTC seconds since 1970.
    public var created: Double

    public init(
        name: String, latitude: Double, longitude: Double, elevation: Double = .nan, symbol: String = "Flag",
        notes: String = "", created: Double = 0
    ) {
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
        self.elevation = elevation
        self.symbol = symbol
        self.notes = notes
        self.created = created
    }
}

/// How to get to a waypoint from here: the bearing to walk (true), the distance, how far to
/// turn from the current heading (positive: right), and when at the current speed.
public struct Navigation: Sendable, Equatable {
    public var waypoint: String
    public var bearing: Double
    public var distance: Double
    public var relativeBearing: Double?
    /// Seconds to arrival at the current speed; nil when stopped.
    public var timeToGo: Double?

    public static func to(_ waypoint: Waypoint, latitude: Double, longitude: Double, heading: Double?, speed: Double?) -> Navigation {
        let leg = Geodesy.inverse(latitude1: latitude, longitude1: longitude, latitude2: waypoint.latitude, longitude2: waypoint.longitude)
        var relative: Double?
        if let heading, heading.isFinite {
            var r = (leg.bearing - heading).truncatingRemainder(dividingBy: 360)
            if r >= 180 { r -= 360 } else if r < -180 { r += 360 }
            relative = r
        }
        let eta = speed.flatMap { $0.isFinite && $0 > 0.3 ? leg.distance / $0 : nil }
        return Navigation(waypoint: waypoint.name, bearing: leg.bearing, distance: leg.distance, relativeBearing: relative, timeToGo: eta)
    }

    /// Waypoints by distance from here, nearest first, with their bearings.
    public static func sorted(_ waypoints: [Waypoint], latitude: Double, longitude: Double) -> [(waypoint: Waypoint, distance: Double, bearing: Double)] {
        waypoints.map { w in
            let leg = Geodesy.inverse(latitude1: latitude, longitude1: longitude, latitude2: w.latitude, longitude2: w.longitude)
            return (w, leg.distance, leg.bearing)
        }.sorted { $0.distance < $1.distance }
    }
}
