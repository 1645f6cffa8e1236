import LodestoneCore
/// The barometer page: pressure at the station and at sea level, the trend with its arrow and
/// forecast, the WMO 3-hour tendency, altitude and temperature, the weather station's wind and
/// water, and a graph per history range.
enum BarometerPage {
    static func draw(_ model: DisplayModel, on page: inout PageWriter) {
        let units = model.units
        guard let weather = model.weather, weather.stationPressure.isFinite else {
            page.line(page.wide ? "Pressure  -- (waiting for the barometer)" : "-- HPA", ink: .warning)
            for (text, ink) in model.station.map({ StationLines.lines($0, units: units, wide: page.wide) }) ?? [] { page.line(text, ink: ink) }
            return
        }
        if page.wide {
            page.line(units.pressure(weather.seaLevelPressure) + " at sea level", ink: .accent)
            page.field("Station", units.pressure(weather.stationPressure) + (weather.temperature.isFinite ? "  " + units.temperature(weather.temperature) : ""))
            page.field("Altitude", units.altitude(weather.fusedAltitude) + (page.columns >= 60 ? " (barometer levelled by GPS)" : ""))
            if let arrow = weather.trendArrow {
                if page.columns >= 60 {
                    page.field("Trend", "\(arrow) \(units.pressureRate(weather.trendRate))  \(weather.forecast ?? "")", ink: .accent)
                } else {
                    page.field("Trend", "\(arrow) \(units.pressureRate(weather.trendRate))", ink: .accent)
                    page.field("", weather.forecast ?? "", ink: .accent)
                }
                if let change = weather.threeHourChange { page.field("3 hours", units.pressureChange(change)) }
            } else {
                page.field("Trend", "after 30 minutes of data", ink: .dim)
            }
        } else {
            page.line(units.pressure(weather.seaLevelPressure), ink: .accent)
            if let arrow = weather.trendArrow {
                page.line("\(arrow) \(units.pressureRate(weather.trendRate))")
                page.line((weather.forecast ?? "").uppercased())
            } else {
                page.line("TREND AFTER 30 MIN")
            }
            // A medium panel (320x240: 15 rows) has room for the station's figures before the
            // graphs; a 128x64 one (7 rows) keeps its rows for the trend.
            if page.remaining >= 8 {
                page.line("STN " + units.pressure(weather.stationPressure).uppercased())
                if weather.temperature.isFinite { page.line("TEMP " + units.temperature(weather.temperature).uppercased()) }
                page.line("ALT " + units.altitude(weather.fusedAltitude).uppercased())
                if let change = weather.threeHourChange { page.line("3H " + units.pressureChange(change).uppercased()) }
            }
        }
        // The wind and the water where a lakeside or a boat's reader looks first after the pressure.
        for (text, ink) in model.station.map({ StationLines.lines($0, units: units, wide: page.wide) }) ?? [] { page.line(text, ink: ink) }
        if let alert = model.alert { page.line((page.wide ? "Alert: " : "! ") + alert, ink: .warning) }
        // One graph per range, as many as fit, each labelled with its range and extremes.
        let width = max(4, page.columns - (page.wide ? 24 : 4))
        for graph in weather.graphs where page.remaining > 0 {
            let known = graph.values.filter(\.isFinite)
            let line = known.isEmpty ? "-" : Sparkline.draw(graph.values, width: width)
            if page.wide, let low = known.min(), let high = known.max() {
                page.field(graph.label, line + "  \(units.pressureFigure(low))-\(units.pressureFigure(high))", labelWidth: 4)
            } else {
                page.field(graph.label, line, labelWidth: 4)
            }
        }
    }
}
