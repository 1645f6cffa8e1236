import LodestoneCore

/// The day page: the day on foot as a step counter app shows it: steps today (large), the
/// distance walked, floors climbed and descended, the time spent walking or running, and the
/// pace now.
enum DayPage {
    static func draw(_ model: DisplayModel, on page: inout PageWriter) {
        guard let day = model.day else {
            page.paragraph(page.wide ? "No step counter: the day needs the IMU" : "NO STEP COUNTER", ink: .warning)
            return
        }
        let units = model.units
        let steps = grouped(day.steps)
        if page.wide {
            // The steps are the page's key figure: the number large, its unit under it.
            page.headline(steps)
            page.line("steps today", ink: .accent)
            page.field("Distance", units.distance(day.distance))
            page.field("Floors", "\(day.floorsUp) up, \(day.floorsDown) down")
            page.field("Active", countdown(day.activeSeconds) + (day.activeSeconds < 60 ? "" : " walking or running"))
            let moving = Words.capitalized(Words.text("motion", day.state, model.language))
            let pace = day.cadence > 0 ? "\(moving), \(fixed(day.cadence, 0)) steps/min" : moving
            if !pace.isEmpty { page.field("Now", pace, ink: .dim) }
        } else {
            page.headline(steps)
            page.line("STEPS TODAY", ink: .accent)
            page.line("DIST " + units.distance(day.distance))
            page.line("FLOORS +\(day.floorsUp) -\(day.floorsDown)")
            page.line("ACTIVE " + countdown(day.activeSeconds, compact: true))
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
