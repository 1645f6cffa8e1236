import LodestoneCore
import LodestoneReports
/// The barometer page: pressure at the station and at sea level, the trend with its arrow and
/// forecast, the WMO 3-hour tendency, altitude and temperature, the weather station's wind and
/// water, and a graph per history range.
enum BarometerPage {
    static func draw(_ model: DisplayModel, on page: inout PageWriter) {
        let units = model.units
        guard let weather = model.weather, weather.stationPressure.isFinite else {
            page.line(page.wide ? model.say("pressure") + "  -- (" + model.say("waitingForTheBarometer") + ")" : "-- hPa", ink: .warning)
            for (text, ink) in model.station.map({ StationLines.lines($0, units: units, wide: page.wide, model.language) }) ?? [] { page.line(text, ink: ink) }
            return
        }
        if page.wide {
            page.line(units.pressure(weather.seaLevelPressure) + " " + model.say("atSeaLevel"), ink: .accent)
            page.field(
                model.say("station"),
                units.pressure(weather.stationPressure) + (weather.temperature.isFinite ? "  " + units.temperature(weather.temperature) : ""))
            page.field(model.say("altitude"), units.altitude(weather.fusedAltitude) + (page.columns >= 60 ? " (" + model.say("levelledByGPS") + ")" : ""))
            if let trend = trendWords(weather, units: units, model.language) {
                if page.columns >= 60 {
                    page.field(model.say("trend"), trend.words + "  " + trend.forecast, ink: .accent)
                } else {
                    page.field(model.say("trend"), trend.words, ink: .accent)
                    page.field("", trend.forecast, ink: .accent)
                }
                if let change = weather.threeHourChange { page.field(model.say("threeHours"), units.pressureChange(change)) }
            } else {
                page.field(model.say("trend"), Words.text("trend", "waiting", model.language), ink: .dim)
            }
        } else {
            page.line(units.pressure(weather.seaLevelPressure), ink: .accent)
            if let trend = trendWords(weather, units: units, model.language) {
                // Over two lines where a line is too narrow, never cut.
                page.lines(trend.words)
                page.lines(trend.forecast)
            } else {
                page.line(model.say("trendAfter30"))
            }
            // A medium panel (320x240: 15 rows) has room for the station's figures before the
            // graphs; a 128x64 one (7 rows) keeps its rows for the trend.
            if page.remaining >= 8 {
                page.line(model.say("station") + " " + units.pressure(weather.stationPressure))
                if weather.temperature.isFinite { page.line(model.say("temp") + " " + units.temperature(weather.temperature)) }
                page.line(model.say("alt") + " " + units.altitude(weather.fusedAltitude))
                if let change = weather.threeHourChange { page.line("3 h " + units.pressureChange(change)) }
            }
        }
        // The wind and the water where a lakeside or a boat's reader looks first after the pressure.
        for (text, ink) in model.station.map({ StationLines.lines($0, units: units, wide: page.wide, model.language) }) ?? [] { page.line(text, ink: ink) }
        if let alert = model.alert { page.paragraph((page.wide ? model.say("alert") + ": " : "! ") + alert, ink: .warning) }
        // One graph per range, as many as fit, each labelled with its range and extremes.
        let width = max(4, page.columns - (page.wide ? 25 : 5))
        for graph in weather.graphs where page.remaining > 0 {
            let known = graph.values.filter(\.isFinite)
            let line = known.isEmpty ? "-" : Sparkline.draw(graph.values, width: width)
            if page.wide, let low = known.min(), let high = known.max() {
                page.field(PressureGraphs.rangeWords(graph.label), line + "  \(units.pressureFigure(low))-\(units.pressureFigure(high))", labelWidth: 5)
            } else {
                page.field(PressureGraphs.rangeWords(graph.label), line, labelWidth: 5)
            }
        }
    }

    /// The trend as an arrow and words ("↓ falling, 0.7 hPa an hour") and what a person takes
    /// from it ("Weather deteriorating"), from the table of words; nil before there is one.
    static func trendWords(_ weather: DisplayModel.WeatherPanel, units: Units, _ language: Language) -> (words: String, forecast: String)? {
        guard let arrow = weather.trendArrow, let band = weather.trendBand else { return nil }
        let words = Words.trend(band, arrow: arrow, rate: units.pressure(abs(weather.trendRate)), language)
        return (words, Words.text("forecast", band, language))
    }
}
