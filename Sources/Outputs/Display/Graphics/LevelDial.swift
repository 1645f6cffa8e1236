import LodestoneCore

/// The level page drawn as a bull's-eye level: concentric circles at 1°, 2°, 5° and 10° (the
/// rim is full scale), a cross at the zero, and the bubble where the tilt floats it (to the
/// high side: right when rolled left, up when the nose is down), green when level.
enum LevelDial {
    static let fullScale = 10.0
    static let rings = [1.0, 2.0, 5.0, 10.0]

    struct Geometry: Equatable {
        var centreX: Int, centreY: Int, radius: Int, bubble: Int
        var textLeft: Int, textTop: Int

        init(width: Int, height: Int, header: Int, textScale: Int) {
            let available = height - header
            let landscape = width >= available * 5 / 4
            let side = landscape ? available : min(width, available * 3 / 4)
            radius = max(8, side / 2 - max(3, side / 40))
            centreX = landscape ? side / 2 : width / 2
            centreY = header + side / 2
            bubble = max(3, radius / 9)
            (textLeft, textTop) = landscape ? (side + textScale * 2, header + textScale) : (textScale, header + side + textScale)
        }

        /// Where the bubble's centre is for a roll and pitch (degrees), held inside the rim.
        func bubbleCentre(roll: Double, pitch: Double) -> (x: Int, y: Int) {
            var (dx, dy) = (-roll / LevelDial.fullScale, pitch / LevelDial.fullScale)
            let length = (dx * dx + dy * dy).squareRoot()
            let limit = Double(radius - bubble) / Double(radius)
            if length > limit { (dx, dy) = (dx / length * limit, dy / length * limit) }
            return (centreX + Int((dx * Double(radius)).rounded()), centreY + Int((dy * Double(radius)).rounded()))
        }
    }

    static func draw(_ model: DisplayModel, canvas: Canvas, geometry g: Geometry, textScale: Int) {
        let level = model.level
        guard level.roll.isFinite, level.pitch.isFinite else {
            canvas.message(model.say("noLevel").uppercased(), centredAt: g.centreX, g.centreY, largest: textScale * 2, ink: .warning)
            return
        }
        for ring in rings {
            canvas.circle(
                cx: g.centreX, cy: g.centreY, radius: Int((ring / fullScale * Double(g.radius)).rounded()),
                ink: ring == fullScale ? .text : .dim, thickness: ring == fullScale ? max(2, g.radius / 60) : 1)
        }
        let arm = g.radius / 12
        canvas.line(g.centreX - arm, g.centreY, g.centreX + arm, g.centreY, ink: .dim)
        canvas.line(g.centreX, g.centreY - arm, g.centreX, g.centreY + arm, ink: .dim)
        let centre = g.bubbleCentre(roll: level.roll, pitch: level.pitch)
        canvas.disc(cx: centre.x, cy: centre.y, radius: g.bubble, ink: level.isLevel ? .good : .accent)
        let tilt = (level.roll * level.roll + level.pitch * level.pitch).squareRoot()
        var y = g.textTop
        for (text, ink) in [
            (model.say(level.isLevel ? "isLevel" : "tilt", "\(fixed(tilt, 1))°").uppercased(), level.isLevel ? Ink.good : .accent),
            (model.say("roll", "\(fixed(level.roll, 1))°").uppercased(), .text), (model.say("pitch", "\(fixed(level.pitch, 1))°").uppercased(), .text)
        ] {
            // Every angle keeps its name: where the room beside the dial is narrow, the name
            // goes on its own line above the angle ("PITCH" over "-1.2°").
            y = canvas.paragraph(text, x: g.textLeft, y: y, width: canvas.width - g.textLeft, bottom: canvas.height, scale: textScale, ink: ink)
        }
    }
}
