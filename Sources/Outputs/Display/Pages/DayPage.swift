import LodestoneCore

/// The day page: the day on foot as a step counter app shows it: steps today (large), the
/// distance walked, floors climbed and descended, the time spent walking or running, and the
/// pace now.
enum DayPage {
    static func draw(_ model: DisplayModel, on page: inout PageWriter) {
        guard let day = model.day else {
            page.paragraph(page.wide ? model.say("noStepCounter") : model.say("noStepCounterShort").uppercased(), ink: .warning)
            return
        }
        let units = model.units
        let steps = grouped(day.steps)
        if page.wide {
            // The steps are the page's key figure: the number large, its unit under it.
            page.headline(steps)
            page.line(model.say("stepsToday"), ink: .accent)
            let fields = fields(model, day)
            // The field labels as wide as the longest in the language.
            let width = max(10, (fields.map { $0.label.count + 1 }.max() ?? 0))
            for field in fields { page.field(field.label, field.value, ink: field.ink, labelWidth: width) }
        } else {
            page.headline(steps)
            page.line(model.say("stepsToday").uppercased(), ink: .accent)
            page.line(model.say("dist").uppercased() + " " + units.distance(day.distance))
            page.line(model.say("floors").uppercased() + " +\(day.floorsUp) -\(day.floorsDown)")
            page.line(model.say("active").uppercased() + " " + countdown(day.activeSeconds, compact: true))
            if day.cadence > 0 { page.line("\(Words.capitalized(Words.text("motion", day.state, model.language))) \(fixed(day.cadence, 0))/min", ink: .dim) }
        }
    }

    /// The day's figures under the steps, each with its label: the distance, the floors, the
    /// time active and the pace now (the graphic page writes the same).
    static func fields(_ model: DisplayModel, _ day: DisplayModel.DayPanel) -> [(label: String, value: String, ink: Ink)] {
        var fields: [(label: String, value: String, ink: Ink)] = [
            (model.say("distance"), model.units.distance(day.distance), .text),
            (model.say("floors"), model.say("upDown", "\(day.floorsUp)", "\(day.floorsDown)"), .text),
            (model.say("active"), countdown(day.activeSeconds) + (day.activeSeconds < 60 ? "" : " " + model.say("walkingOrRunning")), .text)
        ]
        let moving = Words.capitalized(Words.text("motion", day.state, model.language))
        let pace = day.cadence > 0 ? model.say("cadence", moving, fixed(day.cadence, 0)) : moving
        if !pace.isEmpty { fields.append((Words.capitalized(Words.text("word", "now", model.language)), pace, .dim)) }
        return fields
    }

    /// 12345 as "12,345".
    static func grouped(_ value: Int) -> String {
        let digits = String(max(0, value))
        var out = ""
        for (n, c) in digits.enumerated() {
            if n > 0 && (digits.count - n) % 3 == 0 { out += "," }
            out.append(c)
        }
        return out
    }
}
