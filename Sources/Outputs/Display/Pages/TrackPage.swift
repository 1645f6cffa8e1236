import LodestoneCore
/// The track page: the recording's state and figures, and the way to a waypoint.
enum TrackPage {
    /// The last track's figures, as the stopped page shows them under its name and date.
    static func lastTrackFields(_ last: DisplayModel.TrackPanel.SavedTrack, _ model: DisplayModel) -> [(String, String)] {
        [
            (model.say("distance"), model.units.distance(last.distance)),
            (model.say("movingTime"), countdown(last.movingTime)),
            (model.say("climb"), "+" + model.units.altitude(last.climb))
        ]
    }

    static func draw(_ model: DisplayModel, on page: inout PageWriter) {
        guard let track = model.track else {
            page.line(page.wide ? model.say("needsDataDirectory") + " (--data-dir)" : model.say("noDataDirectory"), ink: .warning)
            return
        }
        let units = model.units
        let state = Words.capitalized(Words.text("track", track.autoPaused ? "autoPaused" : track.state, model.language))
        page.line(
            page.wide ? state + (track.name.map { "  " + $0 } ?? "") : state,
            ink: track.state == "recording" ? .good : .accent)
        guard track.state != "stopped" else {
            // Which key or button starts one: never a request's syntax.
            page.paragraph(Words.text("track", page.wide ? "howToStart" : "howToStartShort", model.language), ink: .dim)
            if let last = track.last, page.wide {
                page.blank()
                page.paragraph(model.say("lastTrack", last.name), ink: .accent)
                for (label, value) in [(model.say("date"), last.started)] + lastTrackFields(last, model) { page.field(label, value) }
            } else if page.wide, model.state.fix.hasPosition {
                let fix = model.state.fix
                page.blank()
                page.paragraph(model.say("noTrackSaved"), ink: .accent)
                page.line(CoordinateText.ddm(fix.latitude, latitude: true) + "  " + CoordinateText.ddm(fix.longitude, latitude: false))
                page.field(model.say("elevation"), model.units.altitude(fix.altitudeMSL))
            }
            return
        }
        if page.wide {
            // The field labels as wide as the longest in the language.
            let width = max(10, ["distance", "time", "average", "climb", "points"].map { model.say($0).count + 1 }.max() ?? 0)
            page.field(model.say("distance"), units.distance(track.distance), labelWidth: width)
            page.wrappedField(model.say("time"), countdown(track.elapsed) + "  " + model.say("moving", countdown(track.movingTime)), labelWidth: width)
            page.field(model.say("average"), units.speed(track.averageSpeed), labelWidth: width)
            page.field(model.say("climb"), "+" + units.altitude(track.elevationGain) + "  -" + units.altitude(track.elevationLoss), labelWidth: width)
            page.field(model.say("points"), "\(track.points)", labelWidth: width)
        } else {
            page.line(units.distance(track.distance) + " " + countdown(track.elapsed, compact: true))
            page.line("+" + units.altitude(track.elevationGain) + " -" + units.altitude(track.elevationLoss))
        }
        if let way = model.navigation {
            // "To Summit" where it fits, else the waypoint's name alone: a name, never "To" alone.
            let figures = " \(units.distance(way.distance)) \(fixed(way.bearing, 0))°", to = model.say("to", way.waypoint)
            page.line(LabelPlacer.squeezed(to.count + figures.count <= page.columns ? to : way.waypoint, before: figures, to: page.columns), ink: .accent)
            if let remaining = way.remaining {
                page.line(
                    page.wide ? model.say("startAlong", units.distance(remaining)) : model.say("startPoint").uppercased() + " " + units.distance(remaining),
                    ink: .accent)
                let offTrack = model.say("offTrack").uppercased()
                if way.offTrack { page.line(page.wide ? offTrack + ": " + model.say("headBack") : offTrack, ink: .warning) }
            }
        }
        // The path itself, and its elevation profile, in what rows are left.
        let profile = TrackMap.profile(track, units: units, columns: page.columns, model.language)
        let mapRows = page.remaining - profile.count
        if mapRows >= 5 {
            for (text, ink) in TrackMap.lines(track, units: units, columns: page.columns, rows: mapRows, model.language) { page.line(text, ink: ink) }
        }
        for line in profile { page.line(line, ink: .dim) }
    }
}
