import LodestoneCore
import LodestoneReports

/// The barometer page drawn with graphs: the pressures and the trend as lines of text, then one
/// filled plot per history range with its axes and the range's extremes in the unit set.
enum PressureGraphs {
    static func draw(_ model: DisplayModel, canvas: Canvas, top: Int, textScale: Int) {
        let lineHeight = FramebufferLayout.cellHeight * textScale
        let units = model.units
        let columns = canvas.width / (FramebufferLayout.cellWidth * textScale)
        let stationLines = model.station.map { StationLines.lines($0, units: units, wide: false, compact: true, model.language) } ?? []
        guard let weather = model.weather, weather.stationPressure.isFinite else {
            var y = top + textScale
            for (text, ink) in [(model.say("waitingForBarometer"), Ink.warning)] + stationLines {
                canvas.fitted(text, columns: columns, x: textScale, y: y, scale: textScale, ink: ink)
                y += lineHeight
            }
            return
        }
        var y = top + textScale
        // The sea-level pressure at twice the text's size: the figure a sailor reads first.
        canvas.text(units.pressure(weather.seaLevelPressure), x: textScale, y: y, scale: textScale * 2, ink: .accent, key: true)
        y += lineHeight * 2
        var lines: [(String, Ink)] = [(model.say("atSeaLevel"), .dim)]
        if let trend = BarometerPage.trendWords(weather, units: units, model.language) {
            lines.append((trend.words, .accent))
            lines.append((trend.forecast, .accent))
        } else {
            lines.append((model.say("trendAfter30"), .dim))
        }
        var station = model.say("station") + " " + units.pressure(weather.stationPressure)
        if weather.temperature.isFinite { station += "  " + units.temperature(weather.temperature) }
        lines.append((station, .text))
        var altitude = model.say("alt") + " " + units.altitude(weather.fusedAltitude)
        if let change = weather.threeHourChange { altitude += "  3 h " + units.pressureChange(change) }
        lines.append((altitude, .text))
        lines += stationLines
        if let alert = model.alert { lines.append(("! " + alert, .warning)) }
        // Wrapped onto as many lines as they need, never cut ("Weather deteriorating" under the
        // trend on a 320 x 240 panel).
        for (text, ink) in lines {
            y = canvas.paragraph(text, x: textScale, y: y, width: canvas.width - textScale * 2, bottom: canvas.height, scale: textScale, ink: ink)
        }
        let gap = textScale * 3
        // As many ranges as fit at two lines' height each, the shortest first (with the wind
        // and the water above, a 320x240 panel has room for two).
        let fit = (canvas.height - y - gap) / (lineHeight * 2)
        let graphs = Array(shown(weather.graphs).prefix(max(0, fit)))
        guard !graphs.isEmpty else { return }
        let each = (canvas.height - y - gap) / graphs.count
        guard each >= lineHeight * 2 else { return }
        for (index, graph) in graphs.enumerated() {
            plot(
                graph, units: units, canvas: canvas, x: textScale, y: y + gap + index * each, width: canvas.width - textScale * 2,
                height: each - gap, textScale: textScale)
        }
    }

    /// Each range's seconds, by its label.
    static let rangeSeconds: [String: Double] = ["1h": 3600, "6h": 21_600, "24h": 86_400, "7d": 604_800]

    /// The graphs worth drawing: each range from its first reading on (the span it has, from
    /// the first minute, not an empty box for the first hour), labelled with that span when it
    /// is shorter than the range ("12 MIN"); a longer range only once the history is longer
    /// than the range before it (until then it would repeat the same minutes).
    static func shown(_ graphs: [(label: String, values: [Double])]) -> [(label: String, values: [Double])] {
        var out: [(label: String, values: [Double])] = []
        var previousRange = 0.0
        for graph in graphs {
            guard let first = graph.values.firstIndex(where: \.isFinite), let range = rangeSeconds[graph.label.lowercased()] else { continue }
            let values = Array(graph.values[first...])
            let covered = range * Double(values.count) / Double(max(1, graph.values.count))
            guard out.isEmpty || covered > previousRange * 1.05 else { continue }
            previousRange = range
            out.append((covered < range * 0.97 ? spanWords(covered) : rangeWords(graph.label), values))
        }
        return out
    }

    /// "12 min", "3 h", "2 d".
    static func spanWords(_ seconds: Double) -> String {
        seconds < 3600 ? "\(max(1, Int(seconds / 60))) min" : seconds < 172_800 ? "\(Int(seconds / 3600)) h" : "\(Int(seconds / 86_400)) d"
    }

    /// A history range's name as people write it: "24h" reads "24 h", "7d" "7 d".
    static func rangeWords(_ label: String) -> String {
        guard let unit = label.firstIndex(where: \.isLetter), unit > label.startIndex else { return label }
        return String(label[..<unit]) + " " + String(label[unit...])
    }

    /// One range: axes on the left and bottom, the area under the curve filled, the maximum at
    /// the top left and the minimum at the bottom left, the label above the maximum where there
    /// are three lines' room, else at the plot's top right: never text over text.
    static func plot(_ graph: (label: String, values: [Double]), units: Units, canvas: Canvas, x: Int, y: Int, width: Int, height: Int, textScale: Int) {
        let known = graph.values.filter(\.isFinite)
        guard let low = known.min(), let high = known.max(), width > 8, height > 4 else { return }
        let labelWidth = Canvas.textWidth("9999.9", scale: textScale) + textScale * 2
        let left = x + labelWidth, right = x + width
        // The plot is the box its range is scaled to fill, however flat the pressure.
        canvas.drew(x: left, y: y, width: right - left + 1, height: height + 1)
        canvas.line(left, y, left, y + height, ink: .dim)
        canvas.line(left, y + height, right, y + height, ink: .dim)
        // A flat range still shows a level line, a tenth of a hectopascal tall.
        let span = max(high - low, 0.1)
        let count = graph.values.count
        var previous: (Int, Int)?
        for column in (left + 1)...right {
            let index = min(count - 1, (column - left - 1) * count / max(1, right - left))
            let value = graph.values[index]
            guard value.isFinite else { previous = nil; continue }
            let top = y + height - 1 - Int(((value - low) / span * Double(height - 2)).rounded())
            canvas.rect(x: column, y: top, width: 1, height: y + height - top, ink: .dim)
            if let (px, py) = previous { canvas.line(px, py, column, top, ink: .accent) }
            previous = (column, top)
        }
        let line = FramebufferLayout.cellHeight * textScale
        let label = graph.label
        if height >= 3 * line {
            canvas.text(label, x: x, y: y, scale: textScale, ink: .text)
            canvas.text(units.pressureFigure(high), x: x, y: y + line, scale: textScale, ink: .dim)
        } else {
            canvas.text(label, x: right - Canvas.textWidth(label, scale: textScale), y: y, scale: textScale, ink: .text)
            canvas.text(units.pressureFigure(high), x: x, y: y, scale: textScale, ink: .dim)
        }
        // The minimum at the bottom when it is a line below the maximum.
        if height >= 2 * line {
            canvas.text(units.pressureFigure(low), x: x, y: y + height - Font5x7.height * textScale, scale: textScale, ink: .dim)
        }
    }
}
