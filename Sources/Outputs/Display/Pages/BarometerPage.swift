import LodestoneCore
/// The barometer page: pressure at the station and at sea level, the trend with its arrow and
/// forecast, the WMO 3-hour tendency, altitude and temperature, and a graph per history range.
enum BarometerPage {
    static func draw(_ model: DisplayModel, on page: inout PageWriter) {
        guard let weather = model.weather, weather.stationPressure.isFinite else {
            page.line(page.wide ? "Pressure  -- (waiting for the barometer)" : "-- HPA", ink: .warning)
            return
        }
        let units = model.units
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
                if let change = weather.threeHourChange { page.field("3 hours", "\(change >= 0 ? "+" : "")\(fixed(change, 1)) hPa") }
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
        }
        if let alert = model.alert { page.line((page.wide ? "Alert: " : "! ") + alert, ink: .warning) }
        // One graph per range, as many as fit, each labelled with its range and extremes.
        let width = max(4, page.columns - (page.wide ? 24 : 4))
        for graph in weather.graphs where page.remaining > 0 {
            let known = graph.values.filter(\.isFinite)
            let line = known.isEmpty ? "-" : Sparkline.draw(graph.values, width: width)
            if page.wide, let low = known.min(), let high = known.max() {
                page.field(graph.label, line + "  \(fixed(low, 1))-\(fixed(high, 1))", labelWidth: 4)
            } else {
                page.field(graph.label, line, labelWidth: 4)
            }
        }
    }
}
