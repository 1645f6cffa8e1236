import Glibc
import LodestoneCore
import LodestoneDomain

/// The sky chart drawn on a panel: the dome (the horizon its rim, circles at 30° and 60° of
/// altitude), north up and east to the left; the stars as dots sized by brightness, the
/// brightest named; the planets named; the Moon with its lit part; the Sun; a satellite.
enum SkyChartDrawing {
    static func draw(_ model: DisplayModel, canvas: Canvas, top: Int, textScale: Int) {
        guard let chart = model.chart else {
            canvas.text(model.say("noPositionYet").uppercased(), x: textScale, y: top + textScale, scale: textScale, ink: .warning)
            return
        }
        let side = min(canvas.width, canvas.height - top)
        // Room outside the horizon for its letters (4 scales out, half a letter wide).
        let radius = max(10, side / 2 - textScale * 8)
        let (cx, cy) = (side / 2, top + side / 2)
        canvas.circle(cx: cx, cy: cy, radius: radius, ink: .text, thickness: max(1, radius / 100))
        for altitude in [30.0, 60.0] {
            canvas.circle(cx: cx, cy: cy, radius: Int(Double(radius) * (90 - altitude) / 90), ink: .dim)
        }
        // Labels never over one another: the horizon's letters first, then by importance.
        var labels = LabelPlacer(right: side, bottom: canvas.height, top: top)
        for (label, azimuth) in [("N", 0.0), ("E", 90), ("S", 180), ("W", 270)] {
            let p = SkyChart.position(altitude: 0, azimuth: azimuth)
            let out = Double(radius) + Double(textScale * 4)
            canvas.text(label, centredAt: cx + Int(p.x * out), cy + Int(p.y * out), scale: textScale, ink: label == "N" ? .warning : .accent)
            let width = Canvas.textWidth(label, scale: textScale), height = Font5x7.height * textScale
            labels.reserve(x: cx + Int(p.x * out) - width / 2, y: cy + Int(p.y * out) - height / 2, width: width, height: height)
        }
        func at(_ object: SkyChart.Object) -> (Int, Int) {
            let p = SkyChart.position(altitude: object.altitude, azimuth: object.azimuth)
            return (cx + Int((p.x * Double(radius)).rounded()), cy + Int((p.y * Double(radius)).rounded()))
        }
        let stars = chart.objects.filter { if case .star = $0.kind { return true } else { return false } }
        for star in stars {
            guard case .star(let magnitude) = star.kind else { continue }
            let (x, y) = at(star)
            let size = magnitude < 0.5 ? 3 : (magnitude < 1.5 ? 2 : (magnitude < 2.5 ? 1 : 0))
            if size == 0 { canvas.rect(x: x, y: y, width: 1, height: 1, ink: .text) } else { canvas.disc(cx: x, cy: y, radius: size, ink: .text) }
        }
        let body = max(4, radius / 20)
        var listed: [(String, Ink)] = []
        for object in chart.objects {
            let (x, y) = at(object)
            switch object.kind {
            case .star:
                continue
            case .planet:
                canvas.disc(cx: x, cy: y, radius: max(2, body / 2), ink: .good)
            case .satellite:
                canvas.line(x - body, y - body, x + body, y + body, ink: .warning, thickness: 2)
                canvas.line(x - body, y + body, x + body, y - body, ink: .warning, thickness: 2)
            case .moon(let lit, let waxing):
                moon(canvas: canvas, cx: x, cy: y, radius: body, illuminated: lit, waxing: waxing)
            case .sun:
                canvas.disc(cx: x, cy: y, radius: body, ink: .accent)
            }
            listed.append(("\(SkyChartPage.name(object, model.language)) \(fixed(object.altitude, 0))° \(fixed(object.azimuth, 0))°", .text))
        }
        // The names by importance: the satellite, the planets, then the brightest dozen stars
        // (the catalogue is in order of brightness); a name with no free place gives way.
        func name(_ object: SkyChart.Object, scale: Int, ink: Ink, gap: Int) {
            let (x, y) = at(object)
            let text = SkyChartPage.name(object, model.language)
            if let spot = labels.place(width: Canvas.textWidth(text, scale: scale), height: Font5x7.height * scale, nearX: x, nearY: y, gap: gap) {
                canvas.text(text, x: spot.x, y: spot.y, scale: scale, ink: ink)
            }
        }
        for object in chart.objects { if case .satellite = object.kind { name(object, scale: textScale, ink: .warning, gap: body + 2) } }
        for object in chart.objects { if case .planet = object.kind { name(object, scale: max(1, textScale - 1), ink: .good, gap: body) } }
        for star in stars.filter({ !$0.name.isEmpty }).prefix(12) { name(star, scale: max(1, textScale / 2), ink: .dim, gap: textScale * 2) }
        // The list beside the dome on a landscape panel.
        guard canvas.width - side > textScale * 30 else { return }
        var y = top + textScale
        // Wrapped into the room beside the dome (the figures under the name), never cut; an
        // object whose lines no longer fit is left out whole.
        let room = canvas.width - side - textScale * 2
        for (text, ink) in listed {
            let lines = Canvas.wrapped(text, width: room, scale: textScale)
            guard y + (lines.pieces.count - 1) * FramebufferLayout.cellHeight * lines.scale + Font5x7.height * lines.scale <= canvas.height else { break }
            y = canvas.paragraph(text, x: side + textScale * 2, y: y, width: room, bottom: canvas.height, scale: textScale, ink: ink)
        }
    }

    /// The Moon: its dark disc, and the lit part bounded by the terminator (an ellipse whose
    /// half-width is the cosine of the phase), lit on the right when waxing.
    static func moon(canvas: Canvas, cx: Int, cy: Int, radius: Int, illuminated: Double, waxing: Bool) {
        canvas.disc(cx: cx, cy: cy, radius: radius, ink: .dim)
        let lit = canvas.colour(.text)
        for dy in -radius...radius {
            let half = Double(radius * radius - dy * dy).squareRoot()
            let terminator = (1 - 2 * illuminated) * half
            for dx in -Int(half)...Int(half) {
                let side = waxing ? Double(dx) : -Double(dx)
                if side >= terminator { canvas.pixel(cx + dx, cy + dy, lit) }
            }
        }
    }
}
