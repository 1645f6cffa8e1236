/// One recorded point of a track: what a hiker or sailor wants back from the trip.
public struct TrackPoint: Sendable, Equatable {
    /// UTC, seconds since 1970.
    public var time: Double
    public var latitude: Double
    public var longitude: Double
    /// GPS altitude above mean sea level and barometric altitude, metres (NaN when unknown).
    public var gpsAltitude: Double
    public var baroAltitude: Double
    /// Station pressure, hPa (NaN when unknown).
    public var pressure: Double
    /// Speed over ground m/s, and the receiver's horizontal accuracy in metres (NaN when unknown).
    public var speed: Double
    public var accuracy: Double
    /// The first point after a pause: a new segment (GPX `<trkseg>`), with no distance or moving
    /// time across the gap before it.
    public var startsSegment = false

    public init(
        time: Double, latitude: Double, longitude: Double, gpsAltitude: Double = .nan, baroAltitude: Double = .nan,
        pressure: Double = .nan, speed: Double = .nan, accuracy: Double = .nan
    ) {
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
        self.gpsAltitude = gpsAltitude
        self.baroAltitude = baroAltitude
        self.pressure = pressure
        self.speed = speed
        self.accuracy = accuracy
    }

    /// The best altitude: barometric (smooth, fine-grained) when there is one, else GPS.
    public var altitude: Double { baroAltitude.isFinite ? baroAltitude : gpsAltitude }
}
