import LodestoneCore
import LodestoneDomain

/// The barometer's reading (ENV): pressure and temperature as sampled, the barometric altitude,
/// and what the output side reduced from them, stamped with the sample's time.
public struct EnvironmentReport: Sendable {
    public var pressure: PressureSample?
    /// Metres against the reference, and the reference in hPa.
    public var barometricAltitude: Double
    public var qnh: Double
    public var weather: WeatherFigures?
    public var device: String
    public var time: Double
    public init(pressure: PressureSample?, barometricAltitude: Double, qnh: Double, weather: WeatherFigures?, device: String, time: Double) {
        (self.pressure, self.barometricAltitude, self.qnh, self.weather, self.device, self.time)
            = (pressure, barometricAltitude, qnh, weather, device, time)
    }
}

/// The barometer's view once reduced: sea-level pressure (hPa), the altitude fused with GPS
/// (m), and the trend (nil until there are 30 minutes of data).
public struct WeatherFigures: Sendable {
    public var seaLevelPressure: Double
    public var altitudeFused: Double
    public var trend: PressureTrend.Reading?
    public init(seaLevelPressure: Double, altitudeFused: Double, trend: PressureTrend.Reading?) {
        (self.seaLevelPressure, self.altitudeFused, self.trend) = (seaLevelPressure, altitudeFused, trend)
    }
}

/// The barometer's reference and altitudes (BARO).
public struct BarometerReport: Sendable {
    /// hPa, and how it was set: "configured", "altitude" or "gps".
    public var qnh: Double
    public var reference: String
    public var pressure: Double
    public var barometricAltitude: Double
    public var figures: WeatherFigures
    public init(qnh: Double, reference: String, pressure: Double, barometricAltitude: Double, figures: WeatherFigures) {
        (self.qnh, self.reference, self.pressure, self.barometricAltitude, self.figures) = (qnh, reference, pressure, barometricAltitude, figures)
    }
}

/// The alert rules in force (ALERT).
public struct AlertRulesReport: Sendable {
    public var rules: [AlertRules.Rule]
    public init(rules: [AlertRules.Rule]) { self.rules = rules }
}
