import Glibc
import LodestoneCore
import LodestoneDomain
import LodestoneReports

/// The track page drawn on a panel: the recording's figures at the top, the path as a line
/// (north up, or heading up) with the start (green), the position now (amber) and the
/// waypoints near it (their initials), a north arrow and a scale bar, and under it the
/// elevation profile filled, with a tick at each kilometre's split.
enum TrackDrawing {
    static func draw(_ model: DisplayModel, canvas: Canvas, top: Int, textScale: Int) {
        let lineHeight = FramebufferLayout.cellHeight * textScale
        guard let track = model.track else {
            canvas.paragraph(
                model.say("needsDataDirectory"), x: textScale, y: top + textScale, width: canvas.width - 2 * textScale,
                bottom: canvas.height, scale: textScale, ink: .warning)
            return
        }
        let units = model.units
        var y = top + textScale
        let state = Words.capitalized(Words.text("track", track.autoPaused ? "autoPaused" : track.state, model.language)) + (track.name.map { "  " + $0 } ?? "")
        y = canvas.paragraph(
            state, x: textScale, y: y, width: canvas.width - 2 * textScale, bottom: canvas.height, scale: textScale,
            ink: track.state == "recording" ? .good : .accent)
        guard track.state != "stopped", !track.path.isEmpty else {
            y = canvas.paragraph(
                track.state == "stopped" ? Words.text("track", "howToStartShort", model.language) : model.say("waitingForFirstPoint"), x: textScale, y: y,
                width: canvas.width - 2 * textScale, bottom: canvas.height, scale: textScale, ink: .dim)
            if track.state == "stopped" {
                if let last = track.last {
                    drawLast(last, model, canvas: canvas, y: y + lineHeight, textScale: textScale)
                } else {
                    drawFirstStart(model, canvas: canvas, y: y + lineHeight, textScale: textScale)
                }
            }
            return
        }
        for line in figureLines(track, units: units, columns: (canvas.width - 2 * textScale) / (FramebufferLayout.cellWidth * textScale)) {
            canvas.text(line, x: textScale, y: y, scale: textScale, ink: .text)
            y += lineHeight
        }
        y += textScale
        let profileHeight = track.profile.count > 1 ? max(lineHeight * 2, (canvas.height - y) / 5) : 0
        let mapHeight = canvas.height - y - profileHeight - (profileHeight > 0 ? textScale * 2 : 0)
        guard mapHeight > lineHeight * 2 else { return }
        drawMap(track, units: units, canvas: canvas, x: 0, y: y, width: canvas.width, height: mapHeight, textScale: textScale)
        if profileHeight > 0 {
            drawProfile(
                track, units: units, canvas: canvas, x: textScale, y: canvas.height - profileHeight, width: canvas.width - textScale * 2,
                height: profileHeight - textScale, textScale: textScale)
        }
    }

    /// The distance, the time and the climb, as many to a line as fit in `columns` (a figure
    /// never apart from its unit).
    static func figureLines(_ track: DisplayModel.TrackPanel, units: Units, columns: Int) -> [String] {
        let figures = [
            units.distance(track.distance), countdown(track.elapsed, compact: true),
            "+\(units.altitude(track.elevationGain)) -\(units.altitude(track.elevationLoss))"
        ]
        return TextPacking.packed(figures, columns: columns)
    }

    static func drawMap(_ track: DisplayModel.TrackPanel, units: Units, canvas: Canvas, x: Int, y: Int, width: Int, height: Int, textScale: Int) {
        let marks = track.waypoints.map { ($0.latitude, $0.longitude) } + (track.here.map { [$0] } ?? [])
        let plot = TrackPlot(points: track.path, marks: marks, width: Double(width), height: Double(height), headingUp: track.headingUp)
        // The map is the box the path is scaled to fill.
        canvas.drew(x: x, y: y, width: width, height: height)
        func at(_ latitude: Double, _ longitude: Double) -> (Int, Int) {
            let p = plot.position(latitude: latitude, longitude: longitude)
            return (x + Int(p.x.rounded()), y + Int(p.y.rounded()))
        }
        for (a, b) in zip(track.path, track.path.dropFirst()) {
            let (ax, ay) = at(a.latitude, a.longitude), (bx, by) = at(b.latitude, b.longitude)
            canvas.line(ax, ay, bx, by, ink: .text, thickness: max(1, textScale / 2 + 1))
        }
        let dot = max(3, textScale * 2)
        // North: an arrow in the top left corner (the scale bar is under it), turned with the
        // map; its letter's place is kept clear of the waypoints' names.
        let arrow = max(8, textScale * 6)
        let (nx, ny) = (x + arrow + textScale * 2, y + arrow * 2 + textScale)
        let (letterX, letterY) = (nx - Int(Double(arrow) * 1.7 * sinDegrees(plot.rotation)), ny - Int(Double(arrow) * 1.7 * cosDegrees(plot.rotation)))
        var names = LabelPlacer(right: x + width, bottom: y + height, top: y)
        names.reserve(
            x: letterX - Canvas.textWidth("N", scale: textScale) / 2, y: letterY - Font5x7.height * textScale / 2,
            width: Canvas.textWidth("N", scale: textScale), height: Font5x7.height * textScale)
        for w in track.waypoints {
            let (wx, wy) = at(w.latitude, w.longitude)
            canvas.rect(x: wx - dot / 2, y: wy - dot / 2, width: dot, height: dot, ink: .warning)
            // The name beside the mark where it is free of the others and of north's letter.
            let name = LabelPlacer.shortened(w.name, to: 12)
            if let spot = names.place(
                width: Canvas.textWidth(name, scale: textScale), height: Font5x7.height * textScale, nearX: wx, nearY: wy + Font5x7.height * textScale / 2,
                gap: dot)
            {
                canvas.text(name, x: spot.x, y: spot.y, scale: textScale, ink: .warning)
            }
        }
        // The photos: a camera's outline (a box with its lens), so they read apart from waypoints.
        for photo in track.photos {
            let (px, py) = at(photo.latitude, photo.longitude)
            canvas.rect(x: px - dot, y: py - dot * 2 / 3, width: dot * 2 + 1, height: 1, ink: .accent)
            canvas.rect(x: px - dot, y: py + dot * 2 / 3, width: dot * 2 + 1, height: 1, ink: .accent)
            canvas.rect(x: px - dot, y: py - dot * 2 / 3, width: 1, height: dot * 4 / 3 + 1, ink: .accent)
            canvas.rect(x: px + dot, y: py - dot * 2 / 3, width: 1, height: dot * 4 / 3 + 1, ink: .accent)
            canvas.circle(cx: px, cy: py, radius: max(1, dot / 3), ink: .accent)
        }
        if let start = track.path.first {
            let (sx, sy) = at(start.latitude, start.longitude)
            canvas.disc(cx: sx, cy: sy, radius: dot, ink: .good)
        }
        if let here = track.here ?? track.path.last {
            let (hx, hy) = at(here.latitude, here.longitude)
            canvas.disc(cx: hx, cy: hy, radius: dot + 1, ink: .accent)
        }
        canvas.radial(cx: nx, cy: ny, angle: -plot.rotation, from: -Double(arrow) / 2, to: Double(arrow), ink: .accent, thickness: 2)
        canvas.text("N", centredAt: letterX, letterY, scale: textScale, ink: .accent)
        // The scale bar, bottom left.
        let bar = Int(plot.scaleBarUnits.rounded())
        let by = y + height - textScale * 2
        canvas.rect(x: x + textScale * 2, y: by, width: bar, height: max(2, textScale), ink: .text)
        canvas.text(
            units.distance(plot.scaleBarMetres), x: x + textScale * 3 + bar, y: by - Font5x7.height * textScale / 2,
            scale: textScale, ink: .dim)
    }

    static func drawProfile(_ track: DisplayModel.TrackPanel, units: Units, canvas: Canvas, x: Int, y: Int, width: Int, height: Int, textScale: Int) {
        let known = track.profile.filter(\.isFinite)
        guard let low = known.min(), let high = known.max(), width > 8, height > 4 else { return }
        let span = max(high - low, 10)
        let count = track.profile.count
        for column in 0..<width {
            let value = track.profile[min(count - 1, column * count / width)]
            guard value.isFinite else { continue }
            let top = y + height - 1 - Int(((value - low) / span * Double(height - 1)).rounded())
            canvas.rect(x: x + column, y: top, width: 1, height: y + height - top, ink: .dim)
        }
        canvas.line(x, y + height, x + width, y + height, ink: .text)
        // A tick under the profile at each whole kilometre (the splits' ends).
        if track.distance > 0 {
            for kilometre in 1...max(1, track.splits.count) where Double(kilometre) * 1000 < track.distance {
                let tx = x + Int(Double(kilometre) * 1000 / track.distance * Double(width))
                canvas.line(tx, y + height - textScale * 2, tx, y + height + textScale, ink: .accent)
            }
        }
        canvas.text(units.altitude(high), x: x, y: y, scale: textScale, ink: .text)
        canvas.text(units.altitude(low), x: x, y: y + height - Font5x7.height * textScale - textScale, scale: textScale, ink: .text)
    }

    static func sinDegrees(_ d: Double) -> Double { sin(d * .pi / 180) }
    static func cosDegrees(_ d: Double) -> Double { cos(d * .pi / 180) }

    /// The last track saved, under the way to start the next: its name, then its figures in two
    /// columns, each a label over its value a size up, where the panel has the room; else a list.
    static func drawLast(_ last: DisplayModel.TrackPanel.SavedTrack, _ model: DisplayModel, canvas: Canvas, y top: Int, textScale: Int) {
        let width = canvas.width - 2 * textScale, lineHeight = FramebufferLayout.cellHeight * textScale
        var y = canvas.paragraph(model.say("lastTrack", last.name), x: textScale, y: top, width: width, bottom: canvas.height, scale: textScale, ink: .accent)
        // Its date under its name, the figures after.
        y = canvas.paragraph(last.started, x: textScale, y: y, width: width, bottom: canvas.height, scale: textScale, ink: .dim)
        drawFields(TrackPage.lastTrackFields(last, model), canvas: canvas, y: y, textScale: textScale)
    }

    /// Figures in two columns, each a label over its value a size up, where the panel has the
    /// room; else a list of "label  value" lines.
    static func drawFields(_ fields: [(String, String)], canvas: Canvas, y top: Int, textScale: Int, left: Int? = nil) {
        let margin = left ?? textScale
        let width = canvas.width - 2 * margin, lineHeight = FramebufferLayout.cellHeight * textScale
        var y = top
        let column = width / 2, larger = textScale * 2
        let cellHeight = lineHeight + FramebufferLayout.cellHeight * larger + lineHeight / 2
        let rows = (fields.count + 1) / 2
        let fits = fields.allSatisfy { Canvas.textWidth($0.1, scale: larger) <= column - textScale } && canvas.height - y >= cellHeight * rows
        guard fits else {
            for (label, value) in fields {
                y = canvas.paragraph(label + "  " + value, x: margin, y: y, width: width, bottom: canvas.height, scale: textScale, ink: .text)
            }
            return
        }
        y += lineHeight / 2
        for (index, (label, value)) in fields.enumerated() {
            let x = margin + (index % 2) * column, cellTop = y + (index / 2) * cellHeight
            canvas.text(label, x: x, y: cellTop, scale: textScale, ink: .dim)
            canvas.text(value, x: x, y: cellTop + lineHeight, scale: larger, ink: .text)
        }
    }

    /// A device with no track saved: where the first would begin, the position a size up with
    /// its elevation and accuracy, so the page answers "does it know where I am?" before a start.
    static func drawFirstStart(_ model: DisplayModel, canvas: Canvas, y top: Int, textScale: Int) {
        let width = canvas.width - 2 * textScale, lineHeight = FramebufferLayout.cellHeight * textScale
        var y = canvas.paragraph(model.say("noTrackSaved"), x: textScale, y: top, width: width, bottom: canvas.height, scale: textScale, ink: .accent)
        let fix = model.state.fix
        guard fix.hasPosition else {
            canvas.paragraph(
                model.say("noFixYet", "\(fix.satellitesVisible)"), x: textScale, y: y, width: width, bottom: canvas.height, scale: textScale,
                ink: .warning)
            return
        }
        y += lineHeight / 2
        let coordinates = [CoordinateText.ddm(fix.latitude, latitude: true), CoordinateText.ddm(fix.longitude, latitude: false)]
        // As large as both lines fit across the panel and, with the figures under them, down it.
        let larger =
            [4, 3, 2].map { $0 * textScale }.first { scale in
                coordinates.allSatisfy { Canvas.textWidth($0, scale: scale) <= width }
                    && y + 2 * FramebufferLayout.cellHeight * scale + 4 * lineHeight <= canvas.height
            } ?? textScale
        for line in coordinates {
            canvas.text(line, x: textScale, y: y, scale: larger, ink: .text)
            y += FramebufferLayout.cellHeight * larger
        }
        // What a track would be made of from here: the height, how sure the fix is, from what.
        var fields = [(model.say("elevation"), model.units.altitude(fix.altitudeMSL))]
        if let accuracy = FixErrorModel.horizontal(fix) { fields.append((model.say("accuracy"), "±" + model.units.distance(accuracy))) }
        fields.append((model.say("fixQuality"), model.say("sats", "\(fix.satellitesUsed)")))
        drawFields(fields, canvas: canvas, y: y + lineHeight / 2, textScale: textScale)
    }
}
