import LodestoneCore
import LodestoneDomain
import LodestoneReports

extension GPSDReports {
    /// ENV (Lodestone): pressure in hPa, temperature in degrees Celsius, barometric altitude in
    /// metres against `qnh` (hPa), and the reduced figures once the output side has them.
    public static func env(_ report: EnvironmentReport) -> String {
        var w = JSONObjectWriter(class: "ENV")
        w.string("device", report.device)
        w.string("time", iso(report.time))
        if let pressure = report.pressure {
            w.number("pressure", pressure.pressure / 100, decimals: 2)
            w.number("temp", pressure.temperature, decimals: 2)
            if let humidity = pressure.humidity { w.number("humidity", humidity, decimals: 1) }
        }
        w.number("altBaro", report.barometricAltitude, decimals: 2)
        w.number("qnh", report.qnh, decimals: 2)
        if let weather = report.weather {
            w.number("seaLevelPressure", weather.seaLevelPressure, decimals: 2)
            w.number("altFused", weather.altitudeFused, decimals: 2)
            w.raw("trend", trend(weather.trend))
        }
        return w.finished
    }

    /// BARO (Lodestone): the reference, altitudes, sea-level pressure and the trend.
    static func baro(_ report: BarometerReport) -> String {
        var w = JSONObjectWriter(class: "BARO")
        w.number("qnh", report.qnh, decimals: 2)
        w.string("reference", report.reference)
        w.number("pressure", report.pressure, decimals: 2)
        w.number("seaLevelPressure", report.figures.seaLevelPressure, decimals: 2)
        w.number("altBaro", report.barometricAltitude, decimals: 1)
        w.number("altFused", report.figures.altitudeFused, decimals: 1)
        w.raw("trend", trend(report.figures.trend))
        return w.finished
    }

    /// The trend as JSON: null until 30 minutes of data.
    static func trend(_ reading: PressureTrend.Reading?) -> String {
        guard let reading else { return "null" }
        var w = JSONObjectWriter()
        w.number("rate", reading.hPaPerHour, decimals: 2)
        w.string("band", reading.band.rawValue)
        w.string("forecast", reading.band.forecast)
        w.integer("minutes", reading.minutes)
        w.number("threeHourChange", reading.threeHourChange ?? .nan, decimals: 1)
        if let code = reading.characteristic { w.integer("characteristic", code) }
        w.number("sixHourChange", reading.sixHourChange ?? .nan, decimals: 1)
        return w.finished
    }

    /// ALERT (Lodestone): the rules in force.
    static func alertRules(_ report: AlertRulesReport) -> String {
        var w = JSONObjectWriter(class: "ALERT")
        w.raw("rules", "[" + report.rules.map(alertRule).joined(separator: ",") + "]")
        return w.finished
    }

    /// One alert rule as JSON: the ALERT report's items and the settings file's entries.
    public static func alertRule(_ rule: AlertRules.Rule) -> String {
        var w = JSONObjectWriter()
        w.string("name", rule.kind.rawValue)
        w.bool("enabled", rule.enabled)
        w.number("threshold", rule.threshold, decimals: 2)
        w.string("unit", rule.kind.unit)
        w.number("hysteresis", rule.hysteresis, decimals: 2)
        w.number("cooldown", rule.cooldown, decimals: 0)
        return w.finished
    }

    /// SUN (Lodestone): the Sun now, the day's rise and set, the next event, the Moon's phase;
    /// times in the local zone.
    static func sun(_ report: SunReport) -> String {
        let zone = report.zone
        var w = JSONObjectWriter(class: "SUN")
        w.string("time", zone.iso8601(report.time))
        w.number("lat", report.latitude, decimals: 5)
        w.number("lon", report.longitude, decimals: 5)
        w.number("altitude", report.altitude, decimals: 2)
        w.number("azimuth", report.azimuth, decimals: 2)
        w.string("light", report.light)
        w.raw("sunrise", report.sunrise.map { JSONObjectWriter.quoted(zone.iso8601($0)) } ?? "null")
        w.raw("sunset", report.sunset.map { JSONObjectWriter.quoted(zone.iso8601($0)) } ?? "null")
        w.number("dayLengthSeconds", report.dayLength, decimals: 0)
        if let next = report.next {
            var n = JSONObjectWriter()
            n.string("event", next.event)
            n.string("time", zone.iso8601(next.time))
            n.number("inSeconds", (next.time - report.time).rounded(), decimals: 0)
            w.raw("next", n.finished)
        } else {
            w.null("next")
        }
        var moon = JSONObjectWriter()
        moon.string("phase", report.moonPhase)
        moon.number("illumination", report.moonIllumination, decimals: 3)
        w.raw("moon", moon.finished)
        return w.finished
    }
}
