import Glibc
import LodestoneCore
import LodestoneDomain

/// The compass page drawn as a marine instrument: a heading-up rose with a tick every 5°
/// (longer every 10°), numerals every 30° and larger cardinal letters, a fixed lubber line at
/// the top, the heading in digits at least a fifth of the panel's height inside the rose, the
/// bearing lock as a coloured arc on the rim and the deviation as a bar under the digits; the
/// rest of the page's lines beside the rose (landscape) or under it (portrait).
enum CompassDial {
    /// Where the rose is and how big its parts are, for a panel below a header.
    struct Geometry: Equatable {
        var centreX: Int, centreY: Int, radius: Int
        /// The first row under the header.
        var top: Int
        /// Tick lengths (5° and 10°), the numerals' and the cardinals' text scale, the digits'.
        var shortTick: Int, longTick: Int, numeralScale: Int, cardinalScale: Int, digitScale: Int
        /// Where the page's lines go: their box's left and top, width and height.
        var textLeft: Int, textTop: Int, textWidth: Int, textHeight: Int

        init(width: Int, height: Int, header: Int, textScale: Int) {
            let available = height - header
            let landscape = width >= available * 5 / 4
            let side = landscape ? available : min(width, available * 3 / 4)
            top = header
            radius = max(8, side / 2 - max(3, side / 40))
            centreX = landscape ? side / 2 : width / 2
            centreY = header + side / 2
            longTick = max(4, radius / 8)
            shortTick = max(2, longTick / 2)
            // Text grows with the rose, in whole pixels; the cardinal letters half as big again.
            numeralScale = max(textScale, radius / 50)
            cardinalScale = numeralScale + max(1, numeralScale / 2)
            // The digits: at least a fifth of the panel's height, as large as fit inside the
            // ring of numerals (three digits are 17 font pixels wide).
            let inner = radius - longTick - max(2, radius / 40) - Font5x7.height * cardinalScale - 3
            let fit = max(1, inner * 2 * 9 / 10 / 17)
            let fifth = (height + 5 * Font5x7.height - 1) / (5 * Font5x7.height)
            digitScale = max(min(fit, max(fifth, textScale)), 1)
            if landscape {
                (textLeft, textTop, textWidth, textHeight) = (side + textScale * 2, header + textScale, width - side - textScale * 2, available)
            } else {
                (textLeft, textTop, textWidth, textHeight) = (textScale, header + side + textScale, width - textScale * 2, available - side)
            }
        }
    }

    static func draw(_ model: DisplayModel, canvas: Canvas, geometry g: Geometry, textScale: Int) {
        let state = model.state
        guard let attitude = state.attitude, attitude.magneticHeading.isFinite else {
            canvas.message(model.say("headingNone").uppercased(), centredAt: g.centreX, g.centreY, largest: textScale * 2, ink: .warning)
            return
        }
        let showsTrue = CompassPage.showsTrue(model)
        let heading = showsTrue ? (state.trueHeading ?? attitude.magneticHeading) : attitude.magneticHeading
        let (cx, cy, r) = (g.centreX, g.centreY, Double(g.radius))
        canvas.circle(cx: cx, cy: cy, radius: g.radius, ink: .dim, thickness: max(1, g.radius / 100))
        // The bearing lock: a coloured arc on the rim around the locked bearing (its tolerance, ±10°).
        if let locked = model.compass.lockedBearing {
            let ink: Ink = model.compass.offCourse ? .warning : .good
            let centre = locked - heading
            canvas.arc(cx: cx, cy: cy, inner: r - Double(g.shortTick), outer: r + 2, start: centre - 10, end: centre + 10, ink: ink)
        }
        // The heading's digits and the north's name under them come first: a numeral of the
        // rose turning past them gives way.
        let digits = String(Int(heading.rounded()) % 360)
        let reference = model.say(showsTrue ? "true" : "mag").uppercased()
        let referenceY = cy + Font5x7.height * g.digitScale / 2 + Font5x7.height * g.numeralScale
        let digitsWidth = Canvas.textWidth(digits, scale: g.digitScale), gap = g.numeralScale
        let kept = (
            left: cx - digitsWidth / 2 - gap, top: cy - Font5x7.height * g.digitScale / 2 - gap,
            right: cx + digitsWidth / 2 + gap, bottom: referenceY + Font5x7.height * g.numeralScale / 2 + gap
        )
        for degrees in stride(from: 0, to: 360, by: 5) {
            let angle = Double(degrees) - heading
            let long = degrees % 10 == 0
            canvas.radial(
                cx: cx, cy: cy, angle: angle, from: r - Double(long ? g.longTick : g.shortTick), to: r,
                ink: degrees % 90 == 0 ? .accent : .text, thickness: long ? max(1, g.radius / 60) : 1)
            // The numerals where the rose is large enough for them to stand apart; a small
            // rose keeps its cardinal letters.
            guard degrees % 30 == 0, degrees % 90 == 0 || g.radius >= 70 else { continue }
            let cardinal = degrees % 90 == 0
            let label = cardinal ? model.point(Double(degrees), division: .four) : String(degrees)
            let scale = cardinal ? g.cardinalScale : g.numeralScale
            // Inside the long ticks by the label's own extent in that direction (a wide "240" at
            // the side needs more room than at the top).
            let (s, c) = (sin(angle * .pi / 180), cos(angle * .pi / 180))
            let extent = Double(Canvas.textWidth(label, scale: scale)) / 2 * abs(s) + Double(Font5x7.height * scale) / 2 * abs(c)
            let at = r - Double(g.longTick) - Double(max(2, g.radius / 40)) - extent
            let x = cx + Int((at * s).rounded()), y = cy - Int((at * c).rounded())
            let halfWidth = Canvas.textWidth(label, scale: scale) / 2, halfHeight = Font5x7.height * scale / 2
            if !cardinal && x + halfWidth > kept.left && x - halfWidth < kept.right && y + halfHeight > kept.top && y - halfHeight < kept.bottom {
                continue
            }
            canvas.text(label, centredAt: x, y, scale: scale, ink: degrees == 0 ? .warning : (cardinal ? .accent : .text))
        }
        // The lubber line: fixed at the top, across the rim into the ring of ticks.
        canvas.line(
            cx, max(g.top + 2, cy - g.radius - max(3, g.radius / 12)), cx, cy - g.radius + g.longTick, ink: .accent,
            thickness: max(3, g.radius / 30))
        // The heading in digits, and the deviation from a locked bearing as a bar under them.
        canvas.text(digits, centredAt: cx, cy, scale: g.digitScale, ink: .accent, key: true)
        canvas.text(reference, centredAt: cx, referenceY, scale: g.numeralScale, ink: .dim)
        if model.compass.lockedBearing != nil, let deviation = model.compass.deviation {
            let half = g.radius / 2
            let top = cy - Font5x7.height * g.digitScale / 2 - g.numeralScale * 4 - max(4, g.radius / 20)
            canvas.rect(x: cx - half, y: top, width: half * 2, height: 1, ink: .dim)
            let length = Int((max(-30, min(30, deviation)) / 30 * Double(half)).rounded())
            canvas.rect(
                x: length >= 0 ? cx : cx + length, y: top - max(2, g.radius / 40), width: max(1, abs(length)),
                height: max(4, g.radius / 20), ink: model.compass.offCourse ? .warning : .good)
        }
        drawLines(model, heading: heading, canvas: canvas, geometry: g, scale: textScale)
    }

    /// The page's words beside or under the rose: reference, magnetic heading, accuracy, the
    /// calibration prompt, the lock, the way to a waypoint, the day's steps.
    static func drawLines(_ model: DisplayModel, heading: Double, canvas: Canvas, geometry g: Geometry, scale: Int) {
        let state = model.state
        let columns = max(1, g.textWidth / (FramebufferLayout.cellWidth * scale))
        let showsTrue = CompassPage.showsTrue(model)
        var lines: [(String, Ink)] = [("\(model.point(heading)) \(model.say(showsTrue ? "true" : "magnetic"))", .accent)]
        // The other north beside it.
        if let attitude = state.attitude, showsTrue { lines.append((model.say("mag").uppercased() + " \(fixed(attitude.magneticHeading, 0))°", .text)) }
        if let trueHeading = state.trueHeading, !showsTrue { lines.append((model.say("true").uppercased() + " \(fixed(trueHeading, 0))°", .text)) }
        if state.headingAccuracy.isFinite { lines.append(("±\(fixed(state.headingAccuracy, 1))°", .text)) }
        if let prompt = CompassPage.calibrationPrompt(model, wide: columns >= 32) { lines.append((prompt, .warning)) }
        if let locked = model.compass.lockedBearing {
            lines.append(
                (
                    model.say("lock").uppercased() + " \(fixed(locked, 0))°"
                        + (model.compass.deviation.map { " \($0 >= 0 ? "R" : "L")\(fixed(abs($0), 0))" } ?? ""),
                    model.compass.offCourse ? .warning : .good
                ))
        }
        if let way = model.navigation {
            lines.append(("\(way.waypoint) \(model.units.distance(way.distance)) \(fixed(way.bearing, 0))°", .accent))
            if let remaining = way.remaining { lines.append((model.say("startPoint").uppercased() + " " + model.units.distance(remaining), .accent)) }
            if way.offTrack { lines.append((model.say("offTrack").uppercased(), .warning)) }
        }
        if let steps = model.compass.steps { lines.append((model.say("steps").uppercased() + " \(steps)", .dim)) }
        var y = g.textTop
        for (text, ink) in lines {
            y = canvas.paragraph(text, x: g.textLeft, y: y, width: g.textWidth, bottom: g.textTop + g.textHeight, scale: scale, ink: ink)
        }
    }
}
