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
    /// The weather station's wind and probes, when the board has them.
    public var station: StationFigures?
    public var device: String
    public var time: Double
    /// Where the device is (the hemisphere turns the forecaster's winds and seasons), when known.
    public var latitude: Double?
    public init(
        pressure: PressureSample?, barometricAltitude: Double, qnh: Double, weather: WeatherFigures?, device: String, time: Double,
        station: StationFigures? = nil, latitude: Double? = nil
    ) {
        (self.pressure, self.barometricAltitude, self.qnh, self.weather, self.device, self.time, self.station, self.latitude) = (
            pressure, barometricAltitude, qnh, weather, device, time, station, latitude
        )
    }
}

extension EnvironmentReport {
    /// The Zambretti forecast for the next 12 hours, once the sea-level pressure and its trend
    /// are known: the 3-hour change (the fitted tendency times three until 3 hours are in) and
    /// the wind's direction over the ground where a vane says it (on a boat, only once the
    /// heading turned it true).
    public var outlook: WeatherOutlook? {
        guard let weather, let pressure = weather.seaLevelPressure, let trend = weather.trend else { return nil }
        let wind = station?.wind
        let from = wind?.trueWind?.angle ?? (wind?.apparent == nil ? wind?.direction : nil)
        return WeatherOutlook(
            seaLevelPressure: pressure, threeHourChange: trend.threeHourChange ?? trend.hPaPerHour * 3, windFrom: from,
            time: time, latitude: latitude)
    }
}

extension EnvironmentReport {
    /// What to wear in the water (`Wetsuit`'s step), when a probe named "water" reads: the air
    /// from a probe named "air", else the barometer's own temperature; the wind's 10-minute mean.
    public var wetsuit: Int? {
        guard let station, let water = station.waterTemperature, water.isFinite else { return nil }
        let air = station.temperatures.first { $0.name == "air" }?.celsius ?? pressure?.temperature
        return Wetsuit.step(water: water, air: air.flatMap { $0.isFinite ? $0 : nil }, wind: station.wind?.speed)
    }
}

/// The weather station's figures: the wind over the last ten minutes as WMO reports it, and
/// each temperature probe's newest reading.
public struct StationFigures: Sendable {
    public struct Wind: Sendable {
        /// Mean speed (m/s) over the window, the highest and lowest 3 s means in it, the
        /// newest 3 s mean, and the vane's mean direction (nil when calm or variable): degrees
        /// true on a fixed mast, from the bow on a boat.
        public var speed: Double
        public var gust: Double?, lull: Double?, now: Double?
        public var direction: Double?
        /// Seconds of samples the figures rest on (600 once ten minutes are in).
        public var seconds: Int
        /// The wind now as measured aboard and as it blows over the ground (`WindTriangle`):
        /// the true one needs a heading where the vane turns with a boat.
        public var apparent: WindTriangle.Wind?
        public var trueWind: WindTriangle.Wind?
        public init(speed: Double, gust: Double?, lull: Double?, now: Double?, direction: Double?, seconds: Int) {
            (self.speed, self.gust, self.lull, self.now, self.direction, self.seconds) = (speed, gust, lull, now, direction, seconds)
        }
    }
    public var wind: Wind?
    /// Each probe that has a current reading, °C, in the board file's order.
    public var temperatures: [(name: String, celsius: Double)] = []
    /// What keeps a sensor from reading, in words that say what to do.
    public var problems: [String] = []
    public init() {}

    /// The probe named "water", the one a boat's instruments and Signal K know.
    public var waterTemperature: Double? { temperatures.first { $0.name == "water" }?.celsius }
}

/// The barometer's view once reduced: sea-level pressure (hPa), the altitude fused with GPS
/// (m), and the trend (nil until there are 30 minutes of data). The pressure and the altitude
/// are nil until the altitude has a reference (a GPS fix levelled it, a known altitude or a
/// QNH was given): reduced from the default QNH they would only repeat it.
public struct WeatherFigures: Sendable {
    public var seaLevelPressure: Double?
    public var altitudeFused: Double?
    public var trend: PressureTrend.Reading?
    public init(seaLevelPressure: Double?, altitudeFused: Double?, trend: PressureTrend.Reading?) {
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

/// The alert rules in force (ALERT), each with its state: armed (it may fire) and when it
/// last fired since the device started.
public struct AlertRulesReport: Sendable {
    public var rules: [AlertRules.Rule]
    /// By rule, in `rules`' order; empty when the state is not known (a file's rules).
    public var armed: [Bool]
    public var lastFired: [Double?]
    public init(rules: [AlertRules.Rule], armed: [Bool] = [], lastFired: [Double?] = []) {
        (self.rules, self.armed, self.lastFired) = (rules, armed, lastFired)
    }

    /// The rules with their state as `alerts` holds them now.
    public init(_ alerts: AlertRules) {
        self.init(rules: alerts.rules, armed: alerts.rules.map { alerts.isArmed($0.kind) }, lastFired: alerts.rules.map { alerts.lastFired($0.kind) })
    }
}
