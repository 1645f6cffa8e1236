import LodestoneCore
import LodestoneDomain
import LodestoneReports
import LodestoneEncoding

extension GPSDReports {
    /// ENV (Lodestone): pressure in hPa, temperature in degrees Celsius, barometric altitude in
    /// metres against `qnh` (hPa), and the reduced figures once the output side has them.
    public static func env(_ report: EnvironmentReport, into w: inout JSONBuffer) {
        w.beginReport("ENV")
        w.string("device", report.device)
        w.time("time", report.time)
        if let pressure = report.pressure {
            w.number("pressure", pressure.pressure / 100, decimals: 2)
            w.number("temp", pressure.temperature, decimals: 2)
            if let humidity = pressure.humidity { w.number("humidity", humidity, decimals: 1) }
        }
        if report.pressure != nil {
            w.number("altBaro", report.barometricAltitude, decimals: 2)
            w.number("qnh", report.qnh, decimals: 2)
        }
        if let weather = report.weather {
            if let pressure = weather.seaLevelPressure { w.number("seaLevelPressure", pressure, decimals: 2) }
            if let altitude = weather.altitudeFused { w.number("altFused", altitude, decimals: 2) }
            trend(weather.trend, into: &w)
        }
        if let station = report.station { self.station(station, into: &w) }
        if let step = report.wetsuit {
            w.beginObject("wetsuit")
            w.integer("step", step)
            w.string("text", Wetsuit.text(step: step))
            w.endObject()
        }
        if let outlook = report.outlook { forecast(outlook.forecast, into: &w) }
        w.endObject()
    }

    /// A Zambretti forecast as JSON: `"forecast":{"letter","text","trend"}`.
    static func forecast(_ f: Zambretti.Forecast, into w: inout JSONBuffer) {
        w.beginObject("forecast")
        w.string("letter", f.letter)
        w.string("text", f.text)
        w.string("trend", f.trend.rawValue)
        w.endObject()
    }

    /// The weather station's part of ENV: the wind in m/s and degrees true, the probes in °C.
    static func station(_ station: StationFigures, into w: inout JSONBuffer) {
        if let wind = station.wind {
            w.number("windSpeed", wind.speed, decimals: 2)
            if let gust = wind.gust { w.number("windGust", gust, decimals: 2) }
            if let lull = wind.lull { w.number("windLull", lull, decimals: 2) }
            if let now = wind.now { w.number("windSpeed3s", now, decimals: 2) }
            if let direction = wind.direction { w.number("windDirection", direction, decimals: 1) }
            if let apparent = wind.apparent {
                w.number("windSpeedApparent", apparent.speed, decimals: 2)
                w.number("windAngleApparent", apparent.angle, decimals: 1)
            }
            if let trueWind = wind.trueWind {
                w.number("windSpeedTrue", trueWind.speed, decimals: 2)
                w.number("windDirectionTrue", trueWind.angle, decimals: 1)
            }
            w.integer("windSeconds", wind.seconds)
        }
        if let water = station.waterTemperature { w.number("waterTemperature", water, decimals: 2) }
        if !station.temperatures.isEmpty {
            w.beginObject("temperatures")
            for probe in station.temperatures {
                w.key(probe.name)
                w.value(number: probe.celsius, decimals: 2)
            }
            w.endObject()
        }
        if !station.problems.isEmpty {
            w.beginArray("stationProblems")
            for problem in station.problems { w.element(problem) }
            w.endArray()
        }
    }

    /// BARO (Lodestone): the reference, altitudes, sea-level pressure and the trend.
    static func baro(_ report: BarometerReport, into w: inout JSONBuffer) {
        w.beginReport("BARO")
        w.number("qnh", report.qnh, decimals: 2)
        w.string("reference", report.reference)
        w.number("pressure", report.pressure, decimals: 2)
        if let pressure = report.figures.seaLevelPressure { w.number("seaLevelPressure", pressure, decimals: 2) }
        w.number("altBaro", report.barometricAltitude, decimals: 1)
        if let altitude = report.figures.altitudeFused { w.number("altFused", altitude, decimals: 1) }
        trend(report.figures.trend, into: &w)
        w.endObject()
    }

    /// The trend as JSON: null until 30 minutes of data.
    static func trend(_ reading: PressureTrend.Reading?, into w: inout JSONBuffer) {
        guard let reading else { return w.null("trend") }
        w.beginObject("trend")
        w.number("rate", reading.hPaPerHour, decimals: 2)
        w.string("band", reading.band.rawValue)
        w.string("forecast", reading.band.forecast)
        w.integer("minutes", reading.minutes)
        w.number("threeHourChange", reading.threeHourChange ?? .nan, decimals: 1)
        if let code = reading.characteristic { w.integer("characteristic", code) }
        w.number("sixHourChange", reading.sixHourChange ?? .nan, decimals: 1)
        w.endObject()
    }

    /// ALERT (Lodestone): the rules in force.
    static func alertRules(_ report: AlertRulesReport, into w: inout JSONBuffer) {
        w.beginReport("ALERT")
        w.beginArray("rules")
        for (index, rule) in report.rules.enumerated() {
            alertRuleFields(rule, into: &w)
            // What a page needs beside the rule: the thresholds the device takes (the same
            // range `?ALERT` checks), and the state (armed, when it last fired).
            w.number("min", rule.kind.thresholdRange.lowerBound, decimals: 1)
            w.number("max", rule.kind.thresholdRange.upperBound, decimals: 1)
            if index < report.armed.count { w.bool("armed", report.armed[index]) }
            if index < report.lastFired.count, let fired = report.lastFired[index] { w.time("lastFired", fired) }
            w.endObject()
        }
        w.endArray()
        w.endObject()
    }

    /// One alert rule as JSON: the ALERT report's items and the settings file's entries.
    public static func alertRule(_ rule: AlertRules.Rule, into w: inout JSONBuffer) {
        alertRuleFields(rule, into: &w)
        w.endObject()
    }

    /// A rule's object opened and its fields written, for the caller to close.
    static func alertRuleFields(_ rule: AlertRules.Rule, into w: inout JSONBuffer) {
        w.beginObject()
        w.string("name", rule.kind.rawValue)
        w.bool("enabled", rule.enabled)
        w.number("threshold", rule.threshold, decimals: 2)
        w.string("unit", rule.kind.unit)
        w.number("hysteresis", rule.hysteresis, decimals: 2)
        w.number("cooldown", rule.cooldown, decimals: 0)
    }

    /// SUN (Lodestone): the Sun now, the day's rise and set, the next event, the Moon's phase;
    /// times in the local zone.
    static func sun(_ report: SunReport, into w: inout JSONBuffer) {
        let zone = report.zone
        w.beginReport("SUN")
        w.localTime("time", report.time, zone: zone)
        w.number("lat", report.latitude, decimals: 5)
        w.number("lon", report.longitude, decimals: 5)
        w.string("place", report.placeSource)
        w.number("altitude", report.altitude, decimals: 2)
        w.number("azimuth", report.azimuth, decimals: 2)
        w.string("light", report.light)
        if let sunrise = report.sunrise { w.localTime("sunrise", sunrise, zone: zone) } else { w.null("sunrise") }
        if let sunset = report.sunset { w.localTime("sunset", sunset, zone: zone) } else { w.null("sunset") }
        w.number("dayLengthSeconds", report.dayLength, decimals: 0)
        if let next = report.next {
            w.beginObject("next")
            w.string("event", next.event)
            w.localTime("time", next.time, zone: zone)
            w.number("inSeconds", (next.time - report.time).rounded(), decimals: 0)
            w.endObject()
        } else {
            w.null("next")
        }
        w.beginObject("moon")
        w.string("phase", report.moonPhase)
        w.number("illumination", report.moonIllumination, decimals: 3)
        w.endObject()
        w.endObject()
    }
}
