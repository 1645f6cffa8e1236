import LodestoneCore

/// Every current value at one instant, kept under a name with notes: the place of a find, the
/// weather at a summit, the state of the boat at a reef.
public struct Snapshot: Sendable, Equatable {
    public var id: String
    /// UTC seconds.
    public var timestamp: Double
    public var name: String
    public var notes: String
    public var latitude = Double.nan, longitude = Double.nan
    /// Metres above sea level, and the horizontal accuracy in metres.
    public var altitude = Double.nan, accuracy = Double.nan
    /// Station and sea-level pressure, hPa.
    public var pressure = Double.nan, seaLevelPressure = Double.nan
    /// Degrees; yaw is the heading (true when known).
    public var roll = Double.nan, pitch = Double.nan, yaw = Double.nan
    /// °C and percent.
    public var temperature = Double.nan, humidity = Double.nan
    /// The forecast from the pressure trend ("Stable conditions"), empty when not known yet.
    public var conditions = ""
    /// m/s^2, deg/s, microtesla (body axes: x forward, y right, z down).
    public var accelerometer = Vector3(0, 0, 0), gyroscope = Vector3(0, 0, 0), magnetometer = Vector3(0, 0, 0)
    public var photoCount = 0
    /// Today's steps and floors climbed and descended when the snapshot was taken (NaN: none).
    public var stepsToday = Double.nan, floorsUp = Double.nan, floorsDown = Double.nan

    public init(id: String, timestamp: Double, name: String, notes: String) {
        (self.id, self.timestamp, self.name, self.notes) = (id, timestamp, name, notes)
    }

    /// Every number, by its path in the JSON shape, in the shape's order: what CSV columns,
    /// comparisons and exports are made from, so they can never disagree.
    public var numbers: [(path: String, value: Double)] {
        [
            ("location.latitude", latitude), ("location.longitude", longitude), ("location.altitude", altitude),
            ("location.accuracy", accuracy), ("barometer.pressure", pressure), ("barometer.seaLevelPressure", seaLevelPressure),
            ("barometer.attitude.roll", roll), ("barometer.attitude.pitch", pitch), ("barometer.attitude.yaw", yaw),
            ("weather.temperature", temperature), ("weather.humidity", humidity),
            ("motion.accelerometer.x", accelerometer.x), ("motion.accelerometer.y", accelerometer.y), ("motion.accelerometer.z", accelerometer.z),
            ("motion.gyroscope.x", gyroscope.x), ("motion.gyroscope.y", gyroscope.y), ("motion.gyroscope.z", gyroscope.z),
            ("motion.magnetometer.x", magnetometer.x), ("motion.magnetometer.y", magnetometer.y), ("motion.magnetometer.z", magnetometer.z),
            ("motion.stepsToday", stepsToday), ("motion.floorsUp", floorsUp), ("motion.floorsDown", floorsDown),
            ("photoCount", Double(photoCount))
        ]
    }

    /// How `other` differs from this one: each number's change (other minus this), the time
    /// between them, and the distance and bearing from this place to the other.
    public func comparison(to other: Snapshot) -> (
        deltas: [(path: String, delta: Double)], seconds: Double,
        distance: Double?, bearing: Double?
    ) {
        let deltas = zip(numbers, other.numbers).map { ($0.path, $1.value - $0.value) }
        guard latitude.isFinite, longitude.isFinite, other.latitude.isFinite, other.longitude.isFinite else {
            return (deltas, other.timestamp - timestamp, nil, nil)
        }
        let leg = Geodesy.inverse(latitude1: latitude, longitude1: longitude, latitude2: other.latitude, longitude2: other.longitude)
        return (deltas, other.timestamp - timestamp, leg.distance, leg.distance > 0 ? leg.bearing : nil)
    }
}
