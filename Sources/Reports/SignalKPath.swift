/// The Signal K paths Lodestone sends (specification 1.5, in SI units), each with the sensor
/// it comes from and how often it is sent by default. What the specification lacks is under
/// `lodestone.`, with its units given in a meta delta.
public enum SignalKPath: Int, CaseIterable, Sendable {
    case headingMagnetic, headingTrue, magneticVariation, rateOfTurn, attitude
    case position, speedOverGround, courseOverGroundTrue, satellites, horizontalDilution, methodQuality
    case pressure, temperature, relativeHumidity
    case seaLevelPressure, pressureTrend, pressureTendency, calibration, headingAccuracy, steps
    case windSpeedApparent, windAngleApparent, windSpeedTrue, windDirectionTrue, windSpeedAverage, windGust, waterTemperature

    public var name: StaticString {
        switch self {
        case .headingMagnetic: return "navigation.headingMagnetic"
        case .headingTrue: return "navigation.headingTrue"
        case .magneticVariation: return "navigation.magneticVariation"
        case .rateOfTurn: return "navigation.rateOfTurn"
        case .attitude: return "navigation.attitude"
        case .position: return "navigation.position"
        case .speedOverGround: return "navigation.speedOverGround"
        case .courseOverGroundTrue: return "navigation.courseOverGroundTrue"
        case .satellites: return "navigation.gnss.satellites"
        case .horizontalDilution: return "navigation.gnss.horizontalDilution"
        case .methodQuality: return "navigation.gnss.methodQuality"
        case .pressure: return "environment.outside.pressure"
        case .temperature: return "environment.outside.temperature"
        case .relativeHumidity: return "environment.outside.relativeHumidity"
        case .seaLevelPressure: return "lodestone.environment.seaLevelPressure"
        case .pressureTrend: return "lodestone.environment.pressureTrend"
        case .pressureTendency: return "lodestone.environment.pressureTendency"
        case .calibration: return "lodestone.compass.calibration"
        case .headingAccuracy: return "lodestone.compass.headingAccuracy"
        case .steps: return "lodestone.motion.steps"
        case .windSpeedApparent: return "environment.wind.speedApparent"
        case .windAngleApparent: return "environment.wind.angleApparent"
        case .windSpeedTrue: return "environment.wind.speedTrue"
        case .windDirectionTrue: return "environment.wind.directionTrue"
        case .windSpeedAverage: return "lodestone.environment.wind.speedAverage"
        case .windGust: return "lodestone.environment.wind.gust"
        case .waterTemperature: return "environment.water.temperature"
        }
    }

    public var text: String { name.description }

    /// The unit, as Signal K writes units; nil for a string or a count.
    public var units: StaticString? {
        switch self {
        case .headingMagnetic, .headingTrue, .magneticVariation, .attitude, .courseOverGroundTrue, .headingAccuracy,
            .windDirectionTrue, .windAngleApparent:
            return "rad"
        case .rateOfTurn: return "rad/s"
        case .speedOverGround, .windSpeedApparent, .windSpeedTrue, .windSpeedAverage, .windGust: return "m/s"
        case .pressure, .seaLevelPressure: return "Pa"
        case .pressureTrend: return "Pa/s"
        case .temperature, .waterTemperature: return "K"
        case .relativeHumidity: return "ratio"
        case .position: return "deg"
        case .satellites, .horizontalDilution, .methodQuality, .pressureTendency, .calibration, .steps: return nil
        }
    }

    /// What a `lodestone.` path holds (its meta description); nil for the specification's own.
    public var meaning: StaticString? {
        switch self {
        case .seaLevelPressure: return "Pressure reduced to sea level (QNH) from the barometer and the known altitude"
        case .pressureTrend: return "Rate of change of the station pressure over the trend's window"
        case .pressureTendency: return "The trend's band: risingFast, rising, steady, falling or fallingFast"
        case .calibration: return "Magnetometer calibration: uncalibrated, inProgress, good or poor"
        case .headingAccuracy: return "One-sigma estimate of the heading's error"
        case .steps: return "Steps counted since the device started"
        case .windSpeedAverage: return "Mean wind speed over the last 10 minutes, from the anemometer"
        case .windGust: return "Highest 3-second mean wind speed in the last 10 minutes (the WMO gust)"
        default: return nil
        }
    }

    /// The sensor the value comes from: the update's `$source`.
    public var source: SignalKSource {
        switch self {
        case .headingMagnetic, .headingTrue, .magneticVariation, .calibration, .headingAccuracy: return .magnetometer
        case .rateOfTurn, .attitude, .steps: return .imu
        case .position, .speedOverGround, .courseOverGroundTrue, .satellites, .horizontalDilution, .methodQuality: return .gps
        case .pressure, .temperature, .relativeHumidity, .seaLevelPressure, .pressureTrend, .pressureTendency: return .barometer
        case .windSpeedApparent, .windAngleApparent, .windSpeedTrue, .windDirectionTrue, .windSpeedAverage, .windGust: return .wind
        case .waterTemperature: return .water
        }
    }

    /// Sends per second unless configured: the heading family as often as the device
    /// computes it for others (ATT, 10 Hz), the rest at the pace it changes.
    public var defaultRate: Double {
        switch self {
        case .headingMagnetic, .headingTrue, .rateOfTurn, .attitude: return 10
        case .position, .speedOverGround, .courseOverGroundTrue, .pressure, .temperature, .relativeHumidity: return 1
        case .windSpeedApparent, .windAngleApparent, .windSpeedTrue, .windDirectionTrue: return 1
        case .magneticVariation, .satellites, .horizontalDilution, .methodQuality, .seaLevelPressure, .pressureTrend,
            .pressureTendency, .calibration, .headingAccuracy, .steps, .windSpeedAverage, .windGust, .waterTemperature:
            return 0.2
        }
    }

    public static func named(_ text: String) -> SignalKPath? { allCases.first { $0.text == text } }
}

/// One label per sensor, as the update's `$source`.
public enum SignalKSource: Int, CaseIterable, Sendable {
    case imu, magnetometer, gps, barometer, wind, water

    public var label: StaticString {
        switch self {
        case .imu: return "lodestone.imu"
        case .magnetometer: return "lodestone.magnetometer"
        case .gps: return "lodestone.gps"
        case .barometer: return "lodestone.barometer"
        case .wind: return "lodestone.wind"
        case .water: return "lodestone.water"
        }
    }
}
