import LodestoneCore

/// Everything true about the simulated device at one instant of a scenario.
public struct WorldState: Sendable, Equatable {
    /// Seconds since the scenario started.
    public var time: Double
    public var latitude: Double
    public var longitude: Double
    /// Height above mean sea level, metres.
    public var altitude: Double
    /// Ground speed, m/s, and course over ground, degrees true.
    public var speed: Double
    public var course: Double
    public var climbRate: Double
    /// Attitude of the device, degrees: roll right-wing-down, pitch nose-up, yaw = true heading.
    public var roll: Double
    public var pitch: Double
    public var yaw: Double
    public var truth: SensorTruth
    /// Pressure reduced to sea level, pascal (the weather, separate from the altitude).
    public var seaLevelPressure: Double

    public init(
        time: Double, latitude: Double, longitude: Double, altitude: Double, speed: Double,
        course: Double, climbRate: Double, roll: Double, pitch: Double, yaw: Double,
        truth: SensorTruth, seaLevelPressure: Double
    ) {
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.speed = speed
        self.course = course
        self.climbRate = climbRate
        self.roll = roll
        self.pitch = pitch
        self.yaw = yaw
        self.truth = truth
        self.seaLevelPressure = seaLevelPressure
    }
}
