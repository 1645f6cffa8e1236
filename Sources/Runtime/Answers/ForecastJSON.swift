import LodestoneDomain
import LodestoneEncoding

/// A Zambretti forecast as JSON where the command line and the answers write one beside a
/// departure or a wave: `{"letter","text","trend"}`, or null when none speaks for that time.
package enum ForecastJSON {
    package static func object(_ forecast: Zambretti.Forecast?) -> String {
        guard let forecast else { return "null" }
        var o = JSONObjectWriter()
        o.string("letter", forecast.letter)
        o.string("text", forecast.text)
        o.string("trend", forecast.trend.rawValue)
        return o.finished
    }
}
