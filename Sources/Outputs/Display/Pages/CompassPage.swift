import Glibc
import LodestoneCore
import LodestoneDomain
import LodestoneReports

/// The compass page: a heading-up rose (on screens with room for it), the heading true and
/// magnetic with its cardinal point, the bearing-lock band, the calibration state and the way
/// to a waypoint.
enum CompassPage {
    /// Above this one-sigma heading error the page asks for a calibration.
    static let promptAccuracy = 5.0

    /// Whether the main heading is the true one: as asked, once a fix gave the declination
    /// (magnetic until then, whatever was asked, and said so).
    static func showsTrue(_ model: DisplayModel) -> Bool { model.north == .true && model.state.trueHeading != nil }

    static func draw(_ model: DisplayModel, on page: inout PageWriter) {
        let state = model.state
        guard let attitude = state.attitude else {
            page.line(page.wide ? "Heading  -- (waiting for the magnetometer and accelerometer)" : "--°", ink: .accent)
            return
        }
        guard attitude.magneticHeading.isFinite else {
            // A board without a magnetometer has level and tilt, never a heading.
            page.line(page.wide ? "Heading  -- (this board has no magnetometer)" : "--° NO COMPASS", ink: .accent)
            page.line(
                page.wide
                    ? "Level    roll \(fixed(attitude.roll, 1))°  pitch \(fixed(attitude.pitch, 1))°"
                    : "R \(fixed(attitude.roll, 1))° P \(fixed(attitude.pitch, 1))°")
            return
        }
        let showsTrue = Self.showsTrue(model)
        let heading = showsTrue ? (state.trueHeading ?? attitude.magneticHeading) : attitude.magneticHeading
        if page.columns >= 60 && page.remaining >= 9 {
            let radius = min(7, (page.remaining - 2) / 2)
            drawRose(heading: heading, locked: model.compass.lockedBearing, radius: radius, top: page.row, on: &page)
            page.indent = radius * 4 + 6
        }
        let compass = model.compass
        if page.wide {
            page.line("\(fixed(heading, 0))° \(showsTrue ? "true" : "magnetic")  \(CompassPoint.name(heading))", ink: .accent)
            let declinationText = state.declination.map { "  declination \($0 >= 0 ? "+" : "")\(fixed($0, 1))°" } ?? ""
            if showsTrue {
                page.field("Magnetic", "\(fixed(attitude.magneticHeading, 0))°" + declinationText)
            } else if let trueHeading = state.trueHeading {
                page.field("True", "\(fixed(trueHeading, 0))°" + declinationText)
            } else {
                page.field(model.north == .true ? "Magnetic" : "True", model.north == .true ? "true north after the first GPS fix" : "after the first GPS fix")
            }
            if state.headingAccuracy.isFinite { page.field("Accuracy", "±\(fixed(state.headingAccuracy, 1))°") }
        } else {
            page.headline("\(fixed(heading, 0))°\(showsTrue ? "" : " mag") \(CompassPoint.name(heading))")
        }
        if let prompt = calibrationPrompt(model, wide: page.wide) { page.line(prompt, ink: .warning) }
        if let bearing = compass.lockedBearing {
            let deviation = compass.deviation ?? 0
            let side = deviation >= 0 ? "R" : "L"
            page.line(
                (page.wide
                    ? "Lock     \(fixed(bearing, 0))°  off by \(fixed(abs(deviation), 0))° \(side)"
                    : "LOCK \(fixed(bearing, 0)) \(side)\(fixed(abs(deviation), 0))")
                    + (compass.offCourse ? (page.wide ? "  OFF COURSE" : " OFF") : ""), ink: compass.offCourse ? .warning : .good)
            page.line(band(deviation, width: (min(page.columns, 41) - 1) | 1), ink: compass.offCourse ? .warning : .text)
        }
        if let way = model.navigation {
            let turn = way.relativeBearing.map { ($0 >= 0 ? " R" : " L") + fixed(abs($0), 0) } ?? ""
            page.line(
                page.wide
                    ? LabelPlacer.squeezed(
                        "To \(way.waypoint)", before: "  \(model.units.distance(way.distance))  \(fixed(way.bearing, 0))°\(turn)", to: page.columns)
                    : LabelPlacer.squeezed(way.waypoint, before: " " + model.units.distance(way.distance) + turn, to: page.columns), ink: .accent)
        }
        if !page.wide {
            if let declination = state.declination {
                let other = showsTrue ? "MAG \(fixed(attitude.magneticHeading, 0))°" : "TRUE \(fixed(state.trueHeading ?? .nan, 0))°"
                page.line("\(other) DEC \(declination >= 0 ? "+" : "")\(fixed(declination, 1))°")
            }
            page.line("R \(fixed(attitude.roll, 1))° P \(fixed(attitude.pitch, 1))°")
            if let steps = compass.steps { page.line("STEPS \(steps)" + (compass.floors.map { " FL +\($0.up) -\($0.down)" } ?? "")) }
        }
        if page.wide {
            page.field("Level", "roll \(fixed(attitude.roll, 1))°  pitch \(fixed(attitude.pitch, 1))°")
            if let steps = compass.steps {
                page.field("Steps", "\(steps) today" + (compass.floors.map { "  floors +\($0.up) -\($0.down)" } ?? ""))
            }
        }
    }

    /// What the person should do about the heading's quality, if anything.
    static func calibrationPrompt(_ model: DisplayModel, wide: Bool) -> String? {
        let compass = model.compass, state = model.state
        if compass.calibration == .inProgress {
            if compass.calibratesBySwing {
                // Until the fit can tell how far the circle has come, only the motion is asked for.
                guard let turned = Int(rounding: compass.swingTurned ?? 0, in: 0...360), turned > 0 else {
                    return wide ? "Swing: keep turning, slowly and steadily" : "Swing: keep turning"
                }
                return wide ? "Swing: keep turning, \(turned) degrees done" : "Swing: \(turned)° done"
            }
            let percent = Int(rounding: compass.calibrationProgress * 100, in: 0...100) ?? 0
            return wide ? "Calibrating \(percent)%: slow figure 8s, turn it over" : "Figure 8s: \(percent)% done"
        }
        if state.magneticInterference {
            return wide ? "Magnetic interference: move away from iron and cables; heading held on the gyro" : "Magnetic interference"
        }
        if compass.calibration == .uncalibrated || compass.calibration == .poor
            || (state.headingAccuracy.isFinite && state.headingAccuracy > promptAccuracy)
        {
            let motion = compass.calibratesBySwing ? "one slow full circle" : "figure 8s"
            return wide ? "±\(fixed(state.headingAccuracy, 0))°: calibrate (\(motion))" : "Calibrate: ±\(fixed(state.headingAccuracy, 0))°"
        }
        return nil
    }

    /// The bearing-lock band: ±30° across, the centre the locked bearing, `^` the heading.
    static func band(_ deviation: Double, width: Int) -> String {
        let cells = max(11, width | 1)
        var band = Array(String(repeating: "-", count: cells))
        let centre = cells / 2
        band[0] = "|"
        band[cells - 1] = "|"
        band[centre] = ":"
        let clamped = max(-30, min(30, deviation))
        let position = centre + Int((clamped / 30 * Double(centre - 1)).rounded())
        band[position] = "^"
        return String(band)
    }

    /// A heading-up compass card: the points where they lie from here, the lubber line `v` at
    /// the top, and `*` on the ring at a locked bearing. Cells are about twice as tall as wide.
    static func drawRose(heading: Double, locked: Double?, radius: Int, top: Int, on page: inout PageWriter) {
        let centreRow = top + 1 + radius, centreColumn = radius * 2 + 2
        func place(_ text: String, bearing: Double, scale: Double, ink: Ink) {
            let angle = Angle.radians(bearing - heading)
            let reach = Double(radius) * scale
            let down = Int((cos(angle) * reach).rounded())
            let across = Int((sin(angle) * reach * 2).rounded())
            let row = centreRow - down
            let column = centreColumn + across - (text.count - 1) / 2
            page.put(text, column: column, row: row, ink: ink)
        }
        for tick in stride(from: 0.0, to: 360, by: 15) { place("·", bearing: tick, scale: 1, ink: .dim) }
        for (index, name) in ["N", "NE", "E", "SE", "S", "SW", "W", "NW"].enumerated() {
            place(name, bearing: Double(index) * 45, scale: index % 2 == 0 ? 1 : 0.8, ink: name == "N" ? .accent : .text)
        }
        if let locked { place("*", bearing: locked, scale: 0.6, ink: .good) }
        page.put("v", column: centreColumn, row: top, ink: .accent)
        page.put("+", column: centreColumn, row: centreRow, ink: .dim)
        page.put(fixed(heading, 0) + "°", column: centreColumn - 1, row: centreRow + 1, ink: .accent)
        page.row = max(page.row, top)
    }
}
