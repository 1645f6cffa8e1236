import LodestoneCore
import LodestoneDomain
import LodestoneReports

/// The weather station's lines on the barometer page: the wind now with its direction, the
/// gust and the mean, then the probes. `compact` puts the wind on one line and the probes on
/// another, for the graphic page whose graphs need the room.
enum StationLines {
    static func lines(_ station: DisplayModel.StationPanel, units: Units, wide: Bool, compact: Bool = false, _ language: Language = .en) -> [(String, Ink)] {
        var lines: [(String, Ink)] = []
        let word = { (key: String) in Words.text("word", key, language) }
        if let now = station.windNow ?? station.windMean {
            let from = station.windDirection.map { CompassPoint.name($0) + (wide ? " \(fixed($0, 0))°" : "") } ?? Words.text("word", "variable", language)
            if compact {
                let gust = station.windGust.map { ", " + word("gust") + " " + units.speedFigure($0) } ?? ""
                lines.append(("Wind \(units.speedFigure(now))\(gust) \(units.speedUnit) \(from)", .accent))
            } else {
                lines.append((wide ? "Wind    \(units.speed(now)) \(word("from")) \(from)" : "Wind \(units.speed(now)) \(from)", .accent))
                var detail: [String] = []
                // Narrow: the unit once, after the figures ("gust 28.1 mean 13 km/h").
                if let gust = station.windGust { detail.append(word("gust") + " " + (wide ? units.speed(gust) : units.speedFigure(gust))) }
                if let mean = station.windMean {
                    detail.append(wide ? word("tenMinuteMean") + " " + units.speed(mean) : word("mean") + " " + units.speedFigure(mean))
                }
                if !wide && !detail.isEmpty { detail.append(units.speedUnit) }
                if !detail.isEmpty { lines.append(((wide ? "        " : "") + detail.joined(separator: wide ? "  " : " "), .text)) }
            }
        }
        let probes = station.temperatures.map { probe -> String in
            let name = probe.name.prefix(1).uppercased() + probe.name.dropFirst()
            // Narrow: the figure first, so a long name is what gives way.
            guard wide else { return units.temperature(probe.celsius) + " " + name }
            return (name.count < 8 ? name + String(repeating: " ", count: 8 - name.count) : name + " ") + units.temperature(probe.celsius)
        }
        if compact {
            if !probes.isEmpty { lines.append((probes.joined(separator: "  "), .text)) }
        } else {
            lines += probes.map { ($0, .text) }
        }
        if let suit = station.wetsuit, !compact || probes.isEmpty {
            lines.append((wide ? "Wear    " + suit : "Suit " + suit, .text))
        }
        if let letter = station.outlook, !compact {
            // The forecast's sentence, never the card's letter.
            let outlook = Words.text("zambretti", letter, language)
            lines.append((wide ? "Outlook " + outlook : "12 h: " + outlook, .text))
        }
        for problem in station.problems { lines.append((wide ? problem : "! " + problem, .warning)) }
        return lines
    }
}
