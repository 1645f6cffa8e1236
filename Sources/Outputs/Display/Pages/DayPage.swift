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
            // The field labels as wide as the longest in the language.
            let width = max(10, ["distance", "floors", "active"].map { model.say($0).count + 1 }.max() ?? 0)
            page.field(model.say("distance"), units.distance(day.distance), labelWidth: width)
            page.field(model.say("floors"), model.say("upDown", "\(day.floorsUp)", "\(day.floorsDown)"), labelWidth: width)
            page.field(
                model.say("active"), countdown(day.activeSeconds) + (day.activeSeconds < 60 ? "" : " " + model.say("walkingOrRunning")), labelWidth: width)
            let moving = Words.capitalized(Words.text("motion", day.state, model.language))
            let pace = day.cadence > 0 ? model.say("cadence", moving, fixed(day.cadence, 0)) : moving
            if !pace.isEmpty { page.field(Words.capitalized(Words.text("word", "now", model.language)), pace, ink: .dim, labelWidth: width) }
        } else {
            page.headline(steps)
            page.line(model.say("stepsToday").uppercased(), ink: .accent)
            page.line(model.say("dist").uppercased() + " " + units.distance(day.distance))
            page.line(model.say("floors").uppercased() + " +\(day.floorsUp) -\(day.floorsDown)")
            page.line(model.say("active").uppercased() + " " + countdown(day.activeSeconds, compact: true))
            if day.cadence > 0 { page.line("\(Words.capitalized(Words.text("motion", day.state, model.language))) \(fixed(day.cadence, 0))/min", ink: .dim) }
        }
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
