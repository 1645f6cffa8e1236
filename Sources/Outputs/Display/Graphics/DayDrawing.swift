import LodestoneCore
import LodestoneReports

/// The day page drawn: the day's steps large, the distance, floors, active time and pace under
/// them, and the steps of each local hour as bars across the panel, so a person sees when the
/// day was walked, as a step counter's day view shows it.
enum DayDrawing {
    static func draw(_ model: DisplayModel, canvas: Canvas, top: Int, textScale: Int) {
        let lineHeight = FramebufferLayout.cellHeight * textScale
        let width = canvas.width - 2 * textScale
        guard let day = model.day else {
            canvas.paragraph(model.say("noStepCounter"), x: textScale, y: top + textScale, width: width, bottom: canvas.height, scale: textScale, ink: .warning)
            return
        }
        var y = top + textScale
        // The steps are the key figure, three times the words' size, their unit beside them.
        let steps = DayPage.grouped(day.steps)
        canvas.text(steps, x: textScale, y: y, scale: textScale * 3, ink: .accent, key: true)
        let unitX = textScale * 2 + Canvas.textWidth(steps, scale: textScale * 3) + FramebufferLayout.cellWidth * textScale
        canvas.paragraph(
            model.say("stepsToday"), x: unitX, y: y + lineHeight, width: canvas.width - unitX - textScale, bottom: canvas.height, scale: textScale,
            ink: .accent)
        y += lineHeight * 3
        let fields = DayPage.fields(model, day), labelWidth = (fields.map(\.label.count).max() ?? 0) + 2
        for field in fields {
            let label = field.label + String(repeating: " ", count: labelWidth - field.label.count)
            y = canvas.paragraph(label + field.value, x: textScale, y: y, width: width, bottom: canvas.height, scale: textScale, ink: field.ink)
        }
        // The hours' bars in what is left, their hour marks beneath them.
        let height = canvas.height - y - lineHeight - textScale * 3
        guard day.stepsByHour.count == 24, height >= lineHeight * 2 else { return }
        bars(
            day.stepsByHour, now: day.hourNow, twelveHour: day.twelveHour, canvas: canvas, x: textScale, y: y + textScale * 2, width: width, height: height,
            textScale: textScale)
    }

    /// 24 bars from local midnight, the tallest the busiest hour's (its count on the top line);
    /// the hour now in the accent.
    static func bars(_ hours: [Int], now: Int?, twelveHour: Bool, canvas: Canvas, x: Int, y: Int, width: Int, height: Int, textScale: Int) {
        let most = max(1, hours.max() ?? 1)
        let pitch = max(2, width / 24)
        let barWidth = max(1, pitch - max(1, pitch / 4))
        let base = y + height
        // The chart's frame: a dim line at the busiest hour's height with its count, the
        // baseline across the day and a mark every six hours, so an empty morning reads as
        // hours without steps, not as nothing drawn.
        canvas.drew(x: x, y: y, width: pitch * 24, height: height)
        canvas.rect(x: x, y: y, width: pitch * 24, height: 1, ink: .dim)
        canvas.text(
            DayPage.grouped(hours.max() ?? 0), x: x + pitch * 24 - Canvas.textWidth(DayPage.grouped(hours.max() ?? 0), scale: textScale), y: y + textScale,
            scale: textScale, ink: .dim)
        for (hour, steps) in hours.enumerated() where steps > 0 {
            let tall = max(textScale, Int((Double(steps) / Double(most) * Double(height)).rounded()))
            canvas.rect(x: x + hour * pitch, y: base - tall, width: barWidth, height: tall, ink: hour == now ? .accent : .good)
        }
        canvas.rect(x: x, y: base, width: pitch * 24, height: max(1, textScale / 2), ink: .dim)
        for hour in stride(from: 0, through: 18, by: 6) {
            canvas.text(LocalClock.hourMark(hour, twelveHour: twelveHour), x: x + hour * pitch, y: base + textScale, scale: textScale, ink: .dim)
        }
    }
}
