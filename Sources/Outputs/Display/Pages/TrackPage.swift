import LodestoneCore
/// The track page: the recording's state and figures, and the way to a waypoint.
enum TrackPage {
    static func draw(_ model: DisplayModel, on page: inout PageWriter) {
        guard let track = model.track else {
            page.line(page.wide ? "Tracks need a data directory (--data-dir)" : "No data directory", ink: .warning)
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
            return
        }
        if page.wide {
            page.field("Distance", units.distance(track.distance))
            page.field("Time", countdown(track.elapsed) + "  moving " + countdown(track.movingTime))
            page.field("Average", units.speed(track.averageSpeed))
            page.field("Climb", "+" + units.altitude(track.elevationGain) + "  -" + units.altitude(track.elevationLoss))
            page.field("Points", "\(track.points)")
        } else {
            page.line(units.distance(track.distance) + " " + countdown(track.elapsed, compact: true))
            page.line("+" + units.altitude(track.elevationGain) + " -" + units.altitude(track.elevationLoss))
        }
        if let way = model.navigation {
            page.line(
                LabelPlacer.squeezed("To \(way.waypoint)", before: " \(units.distance(way.distance)) \(fixed(way.bearing, 0))°", to: page.columns), ink: .accent
            )
            if let remaining = way.remaining {
                page.line((page.wide ? "Start \(units.distance(remaining)) along the track" : "START \(units.distance(remaining))"), ink: .accent)
                if way.offTrack { page.line(page.wide ? "OFF TRACK: head back to the path" : "OFF TRACK", ink: .warning) }
            }
        }
        // The path itself, and its elevation profile, in what rows are left.
        let profile = TrackMap.profile(track, units: units, columns: page.columns)
        let mapRows = page.remaining - profile.count
        if mapRows >= 5 {
            for (text, ink) in TrackMap.lines(track, units: units, columns: page.columns, rows: mapRows) { page.line(text, ink: ink) }
        }
        for line in profile { page.line(line, ink: .dim) }
    }
}
