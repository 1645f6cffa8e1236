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
        // The labels' column: as wide as the longest label in the language, and a space.
        let width = max(8, ["wind", "wear", "outlook"].map { language.say($0).count + 1 }.max() ?? 0)
        let wind = language.say("wind")
        if let now = station.windNow ?? station.windMean {
            let from =
                station.windDirection.map { Words.text("point", CompassPoint.name($0), language) + (wide ? " \(fixed($0, 0))°" : "") }
                ?? Words.text("word", "variable", language)
            if compact {
                let gust = station.windGust.map { ", " + word("gust") + " " + units.speedFigure($0) } ?? ""
                lines.append(("\(wind) \(units.speedFigure(now))\(gust) \(units.speedUnit) \(from)", .accent))
            } else {
                lines.append((wide ? "\(pad(wind, width))\(units.speed(now)) \(word("from")) \(from)" : "\(wind) \(units.speed(now)) \(from)", .accent))
                var detail: [String] = []
                // Narrow: the unit once, after the figures ("gust 28.1 mean 13 km/h").
                if let gust = station.windGust { detail.append(word("gust") + " " + (wide ? units.speed(gust) : units.speedFigure(gust))) }
                if let mean = station.windMean {
                    detail.append(wide ? word("tenMinuteMean") + " " + units.speed(mean) : word("mean") + " " + units.speedFigure(mean))
                }
                if !wide && !detail.isEmpty { detail.append(units.speedUnit) }
                if !detail.isEmpty { lines.append(((wide ? pad("", width) : "") + detail.joined(separator: wide ? "  " : " "), .text)) }
            }
        }
        let probes = station.temperatures.map { probe -> String in
            // The water and the air by their words ("water" is the code the wetsuit reads); a
            // probe another name was given keeps it.
            let known = ["water", "air"].contains(probe.name) ? language.say(probe.name) : probe.name
            let name = Words.capitalized(known)
            // Narrow: the figure first, so a long name is what gives way.
            guard wide else { return units.temperature(probe.celsius) + " " + name }
            return pad(name, width) + units.temperature(probe.celsius)
        }
        if compact {
            if !probes.isEmpty { lines.append((probes.joined(separator: "  "), .text)) }
        } else {
            lines += probes.map { ($0, .text) }
        }
        if let step = station.wetsuit, !compact || probes.isEmpty {
            let suit = Wetsuit.text(step: step, language)
            lines.append((wide ? pad(language.say("wear"), width) + suit : language.say("suit") + " " + suit, .text))
        }
        if let letter = station.outlook, !compact {
            // The forecast's sentence, never the card's letter.
            let outlook = Words.text("zambretti", letter, language)
            lines.append((wide ? pad(language.say("outlook"), width) + outlook : "12 h: " + outlook, .text))
        }
        for problem in station.problems { lines.append((wide ? problem : "! " + problem, .warning)) }
        return lines
    }

    /// `text` and spaces to `width` (a space at least).
    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}
