import LodestoneCore
/// The position page: coordinates in decimal degrees, DMS and DDM, elevation, accuracy,
/// satellites, speed and course, the fix's confidence and what to do about warnings.
enum PositionPage {
    static func draw(_ model: DisplayModel, on page: inout PageWriter) {
        let fix = model.state.fix, units = model.units
        guard fix.hasPosition else {
            page.line(page.wide ? "No fix yet: \(fix.satellitesVisible) satellites seen" : "NO FIX (\(fix.satellitesVisible) SATS)", ink: .warning)
            for warning in model.position.warnings { page.line(page.wide ? warning : warning.uppercased(), ink: .warning) }
            return
        }
        let mode = fix.mode == .threeD ? "3D" : "2D"
        if page.wide {
            page.line(CoordinateText.decimal(fix.latitude, latitude: true) + "   " + CoordinateText.decimal(fix.longitude, latitude: false), ink: .accent)
            page.field("DMS", CoordinateText.dms(fix.latitude, latitude: true) + "  " + CoordinateText.dms(fix.longitude, latitude: false))
            page.field("DDM", CoordinateText.ddm(fix.latitude, latitude: true) + "  " + CoordinateText.ddm(fix.longitude, latitude: false))
            page.field("Elevation", units.altitude(fix.altitudeMSL) + " GPS" + (model.state.barometricAltitude.isFinite ? "  " + units.altitude(model.state.barometricAltitude) + " barometric" : ""))
            page.field("Accuracy", fix.eph.isFinite ? "±" + units.distance(fix.eph) : "--")
            page.field("Fix", "\(mode)  \(fix.satellitesUsed)/\(fix.satellitesVisible) satellites  HDOP \(fixed(fix.hdop, 1))")
            page.field("Speed", units.speed(fix.speed) + "  course \(fixed(fix.course, 0))°")
            if let confidence = model.position.confidence {
                page.field("Confidence", "\(confidence)%", ink: confidence >= 70 ? .good : (confidence >= 40 ? .text : .warning))
            }
        } else {
            page.line(CoordinateText.ddm(fix.latitude, latitude: true), ink: .accent)
            page.line(CoordinateText.ddm(fix.longitude, latitude: false), ink: .accent)
            page.line("\(units.altitude(fix.altitudeMSL)) \(mode) \(fix.satellitesUsed) SATS")
            page.line("+-" + units.distance(fix.eph) + " " + units.speed(fix.speed))
        }
        for warning in model.position.warnings { page.line(page.wide ? warning : warning.uppercased(), ink: .warning) }
        if let way = model.navigation {
            let eta = way.eta.map { "  ETA " + countdown($0) } ?? ""
            page.line(page.wide ? "To \(way.waypoint)  \(units.distance(way.distance))  \(fixed(way.bearing, 0))°\(eta)"
                                : "\(way.waypoint.uppercased()) \(units.distance(way.distance))", ink: .accent)
        }
    }
}
