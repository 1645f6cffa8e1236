import LodestoneCore
/// The level page: a bubble in a box (full scale ±10°, the centre cross the level's zero),
/// roll and pitch, and whether it reads level.
enum LevelPage {
    static let fullScale = 10.0

    static func draw(_ model: DisplayModel, on page: inout PageWriter) {
        let level = model.level
        guard level.roll.isFinite, level.pitch.isFinite else {
            // The page's own name: "Level  --".
            let name = Words.text("page", "level", model.language)
            page.line(
                page.wide ? Words.capitalized(name) + "  -- (" + model.say("waitingForAccelerometer") + ")" : name.uppercased() + " --", ink: .warning)
            return
        }
        let tilt = "\(fixed((level.roll * level.roll + level.pitch * level.pitch).squareRoot(), 1))°"
        page.line(level.isLevel ? model.say("isLevel").uppercased() : model.say("tilt", tilt), ink: level.isLevel ? .good : .accent)
        page.line(
            page.wide
                ? model.say("roll", "\(fixed(level.roll, 1))°") + "   " + model.say("pitch", "\(fixed(level.pitch, 1))°")
                : model.say("rollShort", fixed(level.roll, 1)) + " " + model.say("pitchShort", fixed(level.pitch, 1)))
        let height = min(11, page.remaining) | 1
        guard height >= 3 else { return }
        let width = min(page.columns, height * 2 + 1) | 1
        drawBubble(roll: level.roll, pitch: level.pitch, width: width, height: height, top: page.row, on: &page)
        page.row += height
    }

    /// The box: edges, a centre cross, and the bubble `O` where the tilt puts it (the bubble
    /// floats to the high side: right when rolled left, up the box when the nose is down).
    static func drawBubble(roll: Double, pitch: Double, width: Int, height: Int, top: Int, on page: inout PageWriter) {
        let left = page.indent
        page.put("+" + String(repeating: "-", count: width - 2) + "+", column: left, row: top, ink: .dim)
        for row in 1..<(height - 1) {
            page.put("|", column: left, row: top + row, ink: .dim)
            page.put("|", column: left + width - 1, row: top + row, ink: .dim)
        }
        page.put("+" + String(repeating: "-", count: width - 2) + "+", column: left, row: top + height - 1, ink: .dim)
        let centreColumn = left + width / 2, centreRow = top + height / 2
        page.put("+", column: centreColumn, row: centreRow, ink: .dim)
        let halfWidth = Double(width / 2 - 1), halfHeight = Double(height / 2 - 1)
        let x = Int((max(-1, min(1, -roll / fullScale)) * halfWidth).rounded())
        let y = Int((max(-1, min(1, pitch / fullScale)) * halfHeight).rounded())
        let level = abs(roll) < 0.5 && abs(pitch) < 0.5
        page.put("O", column: centreColumn + x, row: centreRow + y, ink: level ? .good : .accent)
    }
}
