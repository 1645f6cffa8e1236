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
            page.line(page.wide ? model.say("heading") + "  -- (" + model.say("waitingForCompass") + ")" : "--°", ink: .accent)
            return
        }
        guard attitude.magneticHeading.isFinite else {
            // A board without a magnetometer has level and tilt, never a heading.
            page.line(
                page.wide ? model.say("heading") + "  -- (" + model.say("noMagnetometer") + ")" : "--° " + model.say("noCompass").uppercased(),
                ink: .accent)
            page.line(page.wide ? pad(model.say("level"), 9) + rollAndPitch(attitude, model) : rollAndPitch(attitude, model, short: true))
            return
        }
        let showsTrue = Self.showsTrue(model)
        let heading = showsTrue ? (state.trueHeading ?? attitude.magneticHeading) : attitude.magneticHeading
        if page.columns >= 60 && page.remaining >= 9 {
            let radius = min(7, (page.remaining - 2) / 2)
            drawRose(model, heading: heading, locked: model.compass.lockedBearing, radius: radius, top: page.row, on: &page)
            page.indent = radius * 4 + 6
        }
        let compass = model.compass
        // The field labels as wide as the longest in the language.
        let width = max(10, ["magnetic", "true", "accuracy", "level", "steps"].map { model.say($0).count + 1 }.max() ?? 0)
        if page.wide {
            page.line("\(fixed(heading, 0))° \(model.say(showsTrue ? "true" : "magnetic"))  \(model.point(heading))", ink: .accent)
            let declinationText = state.declination.map { "  " + model.say("declinationIs", "\($0 >= 0 ? "+" : "")\(fixed($0, 1))°") } ?? ""
            let magnetic = Words.capitalized(model.say("magnetic")), trueNorth = Words.capitalized(model.say("true"))
            if showsTrue {
                page.field(magnetic, "\(fixed(attitude.magneticHeading, 0))°" + declinationText, labelWidth: width)
            } else if let trueHeading = state.trueHeading {
                page.field(trueNorth, "\(fixed(trueHeading, 0))°" + declinationText, labelWidth: width)
            } else {
                page.field(
                    model.north == .true ? magnetic : trueNorth, model.say(model.north == .true ? "trueAfterFix" : "afterFix"), labelWidth: width)
            }
            if state.headingAccuracy.isFinite { page.field(model.say("accuracy"), "±\(fixed(state.headingAccuracy, 1))°", labelWidth: width) }
        } else {
            page.headline("\(fixed(heading, 0))°\(showsTrue ? "" : " " + model.say("mag")) \(model.point(heading))")
        }
        if let prompt = calibrationPrompt(model, wide: page.wide) { page.line(prompt, ink: .warning) }
        if let bearing = compass.lockedBearing {
            let deviation = compass.deviation ?? 0
            let side = deviation >= 0 ? "R" : "L"
            page.line(
                (page.wide
                    ? pad(model.say("lock"), 9) + "\(fixed(bearing, 0))°  " + model.say("offBy", "\(fixed(abs(deviation), 0))° \(side)")
                    : model.say("lock").uppercased() + " \(fixed(bearing, 0)) \(side)\(fixed(abs(deviation), 0))")
                    + (compass.offCourse ? (page.wide ? "  " + model.say("offCourse") : " " + model.say("off")).uppercased() : ""),
                ink: compass.offCourse ? .warning : .good)
            page.line(band(deviation, width: (min(page.columns, 41) - 1) | 1), ink: compass.offCourse ? .warning : .text)
        }
        if let way = model.navigation {
            let turn = way.relativeBearing.map { ($0 >= 0 ? " R" : " L") + fixed(abs($0), 0) } ?? ""
            page.line(
                page.wide
                    ? LabelPlacer.squeezed(
                        model.say("to", way.waypoint), before: "  \(model.units.distance(way.distance))  \(fixed(way.bearing, 0))°\(turn)", to: page.columns)
                    : LabelPlacer.squeezed(way.waypoint, before: " " + model.units.distance(way.distance) + turn, to: page.columns), ink: .accent)
        }
        if !page.wide {
            if let declination = state.declination {
                let other =
                    showsTrue
                    ? model.say("mag").uppercased() + " \(fixed(attitude.magneticHeading, 0))°"
                    : model.say("true").uppercased() + " \(fixed(state.trueHeading ?? .nan, 0))°"
                page.line("\(other) \(model.say("dec").uppercased()) \(declination >= 0 ? "+" : "")\(fixed(declination, 1))°")
            }
            page.line(rollAndPitch(attitude, model, short: true))
            if let steps = compass.steps {
                let floors = compass.floors.map { " " + model.say("floorsShort").uppercased() + " +\($0.up) -\($0.down)" } ?? ""
                page.line(model.say("steps").uppercased() + " \(steps)" + floors)
            }
        }
        if page.wide {
            page.field(model.say("level"), rollAndPitch(attitude, model), labelWidth: width)
            if let steps = compass.steps {
                let floors = compass.floors.map { "  " + model.say("floorsValue", "\($0.up)", "\($0.down)") } ?? ""
                page.field(model.say("steps"), model.say("stepsValue", "\(steps)") + floors, labelWidth: width)
            }
        }
    }

    /// "roll 2.5°  pitch -1.2°", or short "R 2.5° P -1.2°".
    static func rollAndPitch(_ attitude: TiltCompensatedHeading, _ model: DisplayModel, short: Bool = false) -> String {
        let (roll, pitch) = ("\(fixed(attitude.roll, 1))°", "\(fixed(attitude.pitch, 1))°")
        return short
            ? model.say("rollShort", roll) + " " + model.say("pitchShort", pitch)
            : model.say("roll", roll) + "  " + model.say("pitch", pitch)
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }

    /// What the person should do about the heading's quality, if anything.
    static func calibrationPrompt(_ model: DisplayModel, wide: Bool) -> String? {
        let compass = model.compass, state = model.state
        if compass.calibration == .inProgress {
            if compass.calibratesBySwing {
                // Until the fit can tell how far the circle has come, only the motion is asked for.
                guard let turned = Int(rounding: compass.swingTurned ?? 0, in: 0...360), turned > 0 else {
                    return model.say(wide ? "swingKeepTurning" : "swingKeepTurningShort")
                }
                return wide ? model.say("swingDone", "\(turned)") : model.say("swingDoneShort", "\(turned)°")
            }
            let percent = "\(Int(rounding: compass.calibrationProgress * 100, in: 0...100) ?? 0)%"
            return model.say(wide ? "calibrating" : "calibratingShort", percent)
        }
        if state.magneticInterference { return model.say(wide ? "interference" : "interferenceShort") }
        if compass.calibration == .uncalibrated || compass.calibration == .poor
            || (state.headingAccuracy.isFinite && state.headingAccuracy > promptAccuracy)
        {
            let accuracy = "±\(fixed(state.headingAccuracy, 0))°"
            return wide
                ? model.say("calibrateHow", accuracy, model.say(compass.calibratesBySwing ? "fullCircle" : "figureEights"))
                : model.say("calibrateShort", accuracy)
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
    static func drawRose(_ model: DisplayModel, heading: Double, locked: Double?, radius: Int, top: Int, on page: inout PageWriter) {
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
        for index in 0..<8 {
            let bearing = Double(index) * 45
            place(model.point(bearing, division: .eight), bearing: bearing, scale: index % 2 == 0 ? 1 : 0.8, ink: index == 0 ? .accent : .text)
        }
        if let locked { place("*", bearing: locked, scale: 0.6, ink: .good) }
        page.put("v", column: centreColumn, row: top, ink: .accent)
        page.put("+", column: centreColumn, row: centreRow, ink: .dim)
        page.put(fixed(heading, 0) + "°", column: centreColumn - 1, row: centreRow + 1, ink: .accent)
        page.row = max(page.row, top)
    }
}
