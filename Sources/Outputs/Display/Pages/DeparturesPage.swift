import LodestoneCore
import LodestoneDomain
/// The departures page: the next three from the favourite or the nearest stop, each with its
/// countdown and the person's own mark ("Panta Rhei *****"), and more after them where the
/// panel has the rows.
enum DeparturesPage {
    static func draw(_ model: DisplayModel, on page: inout PageWriter) {
        guard let panel = model.departures else {
            page.paragraph(page.wide ? model.say("noTimetableDisplay") : model.say("noTimetableShort").uppercased(), ink: .warning)
            return
        }
        if let within = panel.noServiceWithin {
            // The closest stop by distance alone would be one nothing leaves from (or one far
            // away): a stop is found by name instead, where there is a keyboard.
            page.paragraph(
                page.wide ? model.say("noStopWithin", model.units.distance(within)) : model.say("noStopNearbyShort").uppercased(), ink: .dim)
            return
        }
        let way = both(panel.distance.map(model.units.distance), panel.bearing.map { model.point($0, division: .eight) })
            .map { "\($0) \($1)" }
        if page.wide {
            page.lines(panel.stop + (way.map { "  (\($0))" } ?? ""), ink: .accent)
        } else {
            page.lines(panel.stop, ink: .accent)
            if let way { page.line(way, ink: .dim) }
        }
        if panel.onlyMarked { page.line(page.wide ? model.say("onlyMarked") : model.say("onlyMarkedShort").uppercased(), ink: .dim) }
        guard !panel.rows.isEmpty else {
            let none = model.say(panel.onlyMarked ? "noMarkedDeparture" : "noDeparture")
            page.line(page.wide ? none : model.say("none").uppercased(), ink: .dim)
            return
        }
        for (index, row) in panel.rows.enumerated() {
            // The next three are the page's essentials; the later ones fill the rows left.
            if index == DisplayModel.DeparturesPanel.shown { page.essentialsDone() }
            if index >= DisplayModel.DeparturesPanel.shown, page.remaining == 0 { break }
            let stars = row.rating.map { String(repeating: "*", count: max(0, min(5, $0))) } ?? ""
            let togo = Words.text("word", "in", model.language, countdown(row.secondsToGo))
            // The first departure is the one a person hurries for: its countdown is the page's
            // key figure.
            if index == 0 { page.headline(togo) }
            if page.wide {
                // The first departure's time and route under its countdown, large where they
                // fit; a long headsign goes on to the next line, never cut. A mark stays with
                // its departure.
                if index == 0 {
                    page.subheadline(row.clock + "  " + row.route + "  " + row.headsign, ink: .accent)
                } else {
                    page.wrappedField(row.clock, row.route + "  " + row.headsign + "  " + togo, labelWidth: 7, spaced: false)
                }
                if let mark = row.mark { page.wrappedField("", mark + " " + stars, ink: .good, labelWidth: 7) }
            } else {
                // The countdown whole ("4 h 30 min", never cut to "4 h"): the route gives way to
                // the next line when the three do not fit on one.
                let left = countdown(row.secondsToGo, compact: true), ink: Ink = index == 0 ? .accent : .text
                let line = "\(row.clock) \(row.route) \(left)"
                if line.count <= page.columns {
                    page.line(line, ink: ink)
                } else {
                    page.line(row.clock + " " + Words.text("word", "in", model.language, left), ink: ink)
                    page.wrappedField("", row.route, ink: ink, labelWidth: 1)
                }
                // Where it goes, where a medium panel has the room (a 128x64 one has not).
                if page.columns >= 24 { page.wrappedField("", row.headsign, ink: .dim, labelWidth: 1) }
                if let mark = row.mark { page.wrappedField("", mark + " " + stars, ink: .good, labelWidth: 1) }
            }
        }
    }
}
