import LodestoneCore

/// How a sensor is doing, as published with every state.
public enum SensorHealth: UInt8, Sendable, Equatable {
    /// Not configured on this board.
    case absent
    case ok
    /// Failing; being retried with back-off while the others keep running.
    case degraded

    public var name: String {
        switch self {
        case .absent: return "absent"
        case .ok: return "ok"
        case .degraded: return "degraded"
        }
    }
}

/// When each sensor's health last changed, on the monotonic clock (0 until it first changes):
/// a client learns when a chip went quiet, however seldom it asks.
public struct SensorHealthChanges: Sendable, Equatable {
    public var imu: MonotonicNanoseconds = 0
    public var magnetometer: MonotonicNanoseconds = 0
    public var barometer: MonotonicNanoseconds = 0
    public var gps: MonotonicNanoseconds = 0

    public init() {}

    /// The four healths, in the order imu, magnetometer, barometer, gps.
    public typealias Healths = (SensorHealth, SensorHealth, SensorHealth, SensorHealth)

    /// Stamps `now` on each sensor whose health in `state` differs from `before`; returns the
    /// healths to compare the next state with.
    public mutating func note(_ state: NavigationState, since before: Healths, at now: MonotonicNanoseconds) -> Healths {
        if before.0 != state.imuHealth { imu = now }
        if before.1 != state.magnetometerHealth { magnetometer = now }
        if before.2 != state.barometerHealth { barometer = now }
        if before.3 != state.gpsHealth { gps = now }
        return (state.imuHealth, state.magnetometerHealth, state.barometerHealth, state.gpsHealth)
    }
}

/// Everything the device currently knows, published by the sampling loop once per processing
/// run and read by the outputs. A plain value: copying it never allocates.
public struct NavigationState: Sendable {
    /// Monotonic time of the latest update.
    public var updated: MonotonicNanoseconds = 0
    /// Latest readings, in the body frame (x forward, y right, z down).
    public var imu: ImuSample?
    public var magnetic: MagneticSample?
    public var pressure: PressureSample?
    public var fix = GPSFix()
    public var attitude: TiltCompensatedHeading?
    /// Heading from true north, degrees: magnetic heading plus the model's declination; nil
    /// until a GPS fix has told where the device is.
    public var trueHeading: Double?
    public var declination: Double?
    /// The rate of turn from the gyro, degrees per second, positive to starboard (`TurnRate`).
    public var rateOfTurn: Double?
    /// The attitude filter is still taking up its heading (at start, or for a second after a
    /// new calibration): the heading may move by degrees from one update to the next.
    public var headingSettling = false
    /// A one-sigma estimate of the heading's error, degrees.
    public var headingAccuracy = Double.nan
    /// The measured field: strength in microtesla, dip (inclination) in degrees, down positive.
    public var fieldStrength = Double.nan
    public var dip = Double.nan
    /// What the model says they should be here (NaN before the first fix).
    public var expectedFieldStrength = Double.nan
    public var expectedDip = Double.nan
    /// The field does not look like Earth's (iron or current nearby): the heading is carried
    /// on the gyro from the last good one, and flagged.
    public var magneticInterference = false
    /// The magnetometer calibration in use, if any: its expected heading error, degrees.
    public var calibrationHeadingError: Double?
    /// Altitude from the barometer against `seaLevelPressure`, metres.
    public var barometricAltitude = Double.nan
    /// The QNH the barometric altitude uses, pascal.
    public var seaLevelPressure = 101_325.0
    public var imuHealth = SensorHealth.absent
    public var magnetometerHealth = SensorHealth.absent
    public var barometerHealth = SensorHealth.absent
    public var gpsHealth = SensorHealth.absent
    /// GPS sentences dropped whole for a field beyond `GPSLimits`, and the last one's reason.
    public var gpsRejected = 0
    public var gpsRejectedReason: ImpossibleGPSField?
    public var healthChanged = SensorHealthChanges()

    public init() {}
}

extension NavigationState {
    /// The magnetic heading, degrees, when another program may take it as true: the
    /// magnetometer answering, a calibration in use and the filter settled on it. Outputs that cannot mark a heading
    /// invalid (NMEA's HDM, Signal K's values) leave it out otherwise, rather than pass on a
    /// heading on the gyro alone or from an uncalibrated chip, which can be tens of degrees off.
    public var trustedMagneticHeading: Double? {
        guard let attitude, attitude.magneticHeading.isFinite, magnetometerHealth == .ok, magnetic != nil,
            calibrationHeadingError != nil, !headingSettling
        else { return nil }
        return attitude.magneticHeading
    }
}
