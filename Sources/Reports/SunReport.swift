import LodestoneCore

/// The Sun and Moon for the observer's place (SUN), with times told in the local zone.
public struct SunReport: Sendable {
    public struct Next: Sendable {
        public var event: String
        public var time: Double
        public init(event: String, time: Double) { (self.event, self.time) = (event, time) }
    }
    public var time: Double
    public var zone: TimeZoneRules
    public var latitude: Double, longitude: Double
    /// The Sun's apparent altitude and azimuth, degrees.
    public var altitude: Double, azimuth: Double
    /// Day, golden hour, civil twilight... by name.
    public var light: String
    public var sunrise: Double?, sunset: Double?
    public var dayLength: Double
    public var next: Next?
    public var moonPhase: String
    public var moonIllumination: Double
    /// Where the place comes from: "fix", "configured" or "lastFix" (no fix now and none
    /// configured: the last place a fix gave).
    public var placeSource = "fix"
    public init(
        time: Double, zone: TimeZoneRules, latitude: Double, longitude: Double, altitude: Double, azimuth: Double, light: String,
        sunrise: Double?, sunset: Double?, dayLength: Double, next: Next?, moonPhase: String, moonIllumination: Double
    ) {
        (self.time, self.zone, self.latitude, self.longitude, self.altitude, self.azimuth) = (time, zone, latitude, longitude, altitude, azimuth)
        (self.light, self.sunrise, self.sunset, self.dayLength, self.next) = (light, sunrise, sunset, dayLength, next)
        (self.moonPhase, self.moonIllumination) = (moonPhase, moonIllumination)
    }
}
