import LodestoneCore

/// The barometer page drawn with graphs: the pressures and the trend as lines of text, then one
/// filled plot per history range with its axes and the range's extremes in the unit set.
enum PressureGraphs {
    static func draw(_ model: DisplayModel, canvas: Canvas, top: Int, textScale: Int) {
        let lineHeight = FramebufferLayout.cellHeight * textScale
        let units = model.units
        let columns = canvas.width / (FramebufferLayout.cellWidth * textScale)
        let stationLines = model.station.map { StationLines.lines($0, units: units, wide: false, compact: true) } ?? []
        guard let weather = model.weather, weather.stationPressure.isFinite else {
            var y = top + textScale
            for (text, ink) in [("WAITING FOR THE BAROMETER", Ink.warning)] + stationLines {
                canvas.text(String(text.prefix(columns)), x: textScale, y: y, scale: textScale, ink: ink)
                y += lineHeight
            }
            return
        }
        var y = top + textScale
        // The sea-level pressure at twice the text's size: the figure a sailor reads first.
        canvas.text(units.pressure(weather.seaLevelPressure).uppercased(), x: textScale, y: y, scale: textScale * 2, ink: .accent)
        y += lineHeight * 2
        var lines: [(String, Ink)] = []
        if let arrow = weather.trendArrow {
            lines.append(("\(arrow) \(units.pressureRate(weather.trendRate)) \(weather.forecast ?? "")".uppercased(), .accent))
        } else {
            lines.append(("TREND AFTER 30 MIN", .dim))
        }
        var station = "STN " + units.pressure(weather.stationPressure)
        if weather.temperature.isFinite { station += "  " + units.temperature(weather.temperature) }
        lines.append((station.uppercased(), .text))
        var altitude = "ALT " + units.altitude(weather.fusedAltitude)
        if let change = weather.threeHourChange { altitude += "  3H " + units.pressureChange(change) }
        lines.append((altitude.uppercased(), .text))
        lines += stationLines
        if let alert = model.alert { lines.append(("! " + alert, .warning)) }
        for (text, ink) in lines {
            canvas.text(String(text.prefix(columns)), x: textScale, y: y, scale: textScale, ink: ink)
            y += lineHeight
        }
        let gap = textScale * 3
        // As many ranges as fit at two lines' height each, the shortest first (with the wind
        // and the water above, a 320x240 panel has room for two).
        let fit = (canvas.height - y - gap) / (lineHeight * 2)
        let graphs = Array(weather.graphs.filter { $0.values.contains(where: \.isFinite) }.prefix(max(0, fit)))
        guard !graphs.isEmpty else { return }
        let each = (canvas.height - y - gap) / graphs.count
        guard each >= lineHeight * 2 else { return }
        for (index, graph) in graphs.enumerated() {
            plot(graph, units: units, canvas: canvas, x: textScale, y: y + gap + index * each, width: canvas.width - textScale * 2,
                 height: each - gap, textScale: textScale)
        }
    }

    /// One range: axes on the left and bottom, the area under the curve filled, the label and
    /// the maximum at the top left, the minimum at the bottom left.
    static func plot(_ graph: (label: String, values: [Double]), units: Units, canvas: Canvas, x: Int, y: Int, width: Int, height: Int, textScale: Int) {
        let known = graph.values.filter(\.isFinite)
        guard let low = known.min(), let high = known.max(), width > 8, height > 4 else { return }
        let labelWidth = Canvas.textWidth("9999.9", scale: textScale) + textScale * 2
        let left = x + labelWidth, right = x + width
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
        canvas.text(graph.label.uppercased(), x: x, y: y, scale: textScale, ink: .text)
        canvas.text(units.pressureFigure(high), x: x, y: y + FramebufferLayout.cellHeight * textScale, scale: textScale, ink: .dim)
        canvas.text(units.pressureFigure(low), x: x, y: y + height - Font5x7.height * textScale, scale: textScale, ink: .dim)
    }
}
