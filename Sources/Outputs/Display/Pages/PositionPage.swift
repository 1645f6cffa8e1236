import LodestoneCore
import LodestoneDomain
/// The position page: coordinates in decimal degrees, DMS and DDM, elevation, accuracy,
/// satellites, speed and course, the fix's confidence and what to do about warnings.
enum PositionPage {
    static func draw(_ model: DisplayModel, on page: inout PageWriter) {
        let fix = model.state.fix, units = model.units
        guard fix.hasPosition else {
            page.lines(model.say(page.wide ? "noFixYet" : "noFixShort", "\(fix.satellitesVisible)"), ink: .warning)
            for warning in model.position.warnings { page.line(model.say(warning.rawValue), ink: .warning) }
            return
        }
        let mode = fix.mode == .threeD ? "3D" : "2D"
        // The receiver's own figure, else its HDOP's: every fix has an accuracy.
        let accuracy = FixErrorModel.horizontal(fix)
        let stated = fix.eph.isFinite && fix.eph > 0
        let confidence = model.position.confidence
        if page.wide {
            // The position is the page's key figure: latitude over longitude, as large as they fit.
            page.headline(CoordinateText.decimal(fix.latitude, latitude: true))
            page.headline(CoordinateText.decimal(fix.longitude, latitude: false))
            page.field("DMS", CoordinateText.dms(fix.latitude, latitude: true) + "  " + CoordinateText.dms(fix.longitude, latitude: false))
            page.field("DDM", CoordinateText.ddm(fix.latitude, latitude: true) + "  " + CoordinateText.ddm(fix.longitude, latitude: false))
            page.field(
                model.say("elevation"),
                units.altitude(fix.altitudeMSL) + " GPS"
                    + (model.state.barometricAltitude.isFinite ? "  " + model.say("barometric", units.altitude(model.state.barometricAltitude)) : ""))
            page.field(
                model.say("accuracy"), accuracy.map { "±" + units.distance($0) + (stated ? "" : " " + model.say("fromHDOP")) } ?? model.say("noHDOP"))
            page.field(
                model.say("fixQuality"),
                "\(mode)  " + model.say("satellitesOfSeen", "\(fix.satellitesUsed)", "\(fix.satellitesVisible)") + "  HDOP \(fixed(fix.hdop, 1))")
            page.field(model.say("speed"), units.speed(fix.speed) + "  " + model.say("courseIs", "\(fixed(fix.course, 0))°"))
            if let confidence {
                page.field(
                    model.say("confidence"), "\(confidence)%", ink: confidence >= 70 ? .good : (confidence >= 40 ? .text : .warning))
            }
        } else {
            page.headline(CoordinateText.ddm(fix.latitude, latitude: true))
            page.headline(CoordinateText.ddm(fix.longitude, latitude: false))
            page.line("\(units.altitude(fix.altitudeMSL)) \(mode) " + model.say("sats", "\(fix.satellitesUsed)"))
            let figures = (accuracy.map { "+-" + units.distance($0) } ?? "+-?") + (confidence.map { " \($0)%" } ?? "") + " " + units.speed(fix.speed)
            page.line(figures, ink: (confidence ?? 100) < 40 ? .warning : .text)
            // A medium panel has the rows for the rest.
            if page.remaining >= 6 {
                page.line("HDOP \(fixed(fix.hdop, 1)) " + model.say("sats", "\(fix.satellitesUsed)/\(fix.satellitesVisible)"), ink: .dim)
                page.line(model.say("courseIs", "\(fixed(fix.course, 0))°").uppercased(), ink: .dim)
                if let confidence {
                    page.line(model.say("confidence").uppercased() + " \(confidence)%", ink: confidence >= 70 ? .good : (confidence >= 40 ? .text : .warning))
                }
            }
        }
        for warning in model.position.warnings { page.line(model.say(warning.rawValue), ink: .warning) }
        if let way = model.navigation {
            let eta = way.eta.map { "  " + model.say("eta", countdown($0)) } ?? ""
            page.line(
                page.wide
                    ? LabelPlacer.squeezed(
                        model.say("to", way.waypoint), before: "  \(units.distance(way.distance))  \(fixed(way.bearing, 0))°\(eta)", to: page.columns)
                    : LabelPlacer.squeezed(way.waypoint, before: " " + units.distance(way.distance), to: page.columns), ink: .accent)
        }
    }
}
