import LodestoneCore
import LodestoneDomain
import LodestoneHAL

/// The field display on a framebuffer: heading large, then level, position, pressure and
/// sensor health, in text sized to the screen (a 128-pixel mono LCD up to an HDMI monitor).
/// Values that are not known show as "--", never as a misleading zero.
public struct FramebufferView {
    public struct Colour: Sendable, Equatable {
        public var red: UInt8, green: UInt8, blue: UInt8
        public init(_ red: UInt8, _ green: UInt8, _ blue: UInt8) {
            self.red = red
            self.green = green
            self.blue = blue
        }
        public static let background = Colour(0, 0, 0)
        public static let text = Colour(255, 255, 255)
        /// Amber reads at night without spoiling dark adaptation as much as white.
        public static let heading = Colour(255, 191, 0)
        public static let warning = Colour(255, 64, 32)
    }

    /// The magnetometer calibration's status as the compass service reports it (uncalibrated,
    /// inProgress, good, poor), for the prompt.
    public var calibration: String?
    /// Calibration progress 0...1 while a guided calibration runs.
    public var calibrationProgress = 0.0

    /// Night theme (toggled by the flip gesture): everything in dim red, which keeps the eyes'
    /// dark adaptation on a night trail or a boat's cockpit.
    public var night = false

    /// The adaptive sampling profile, shown at the foot of the screen.
    public var profile: String?
    /// The way to a waypoint being navigated to, e.g. "TO SUMMIT 2.9 KM 28° R12".
    public var navigation: String?
    /// Small graphs under the text, side by side: a label ("6H") and the values (NaN for gaps),
    /// drawn as columns from the series' minimum to its maximum.
    public var graphs: [(label: String, values: [Double])] = []
    /// The pressure trend, e.g. "→ STABLE CONDITIONS", and the newest alert while it is recent.
    public var trend: String?
    public var alert: String?
    /// The next sun event with its countdown, the Moon and the season.
    public var sky: String?
    /// A GPS warning a person can act on, e.g. "few satellites: move away from buildings".
    public var gpsWarning: String?

    public init(calibration: String? = nil, calibrationProgress: Double = 0, night: Bool = false, profile: String? = nil) {
        self.calibration = calibration
        self.calibrationProgress = calibrationProgress
        self.night = night
        self.profile = profile
    }

    static let nightColour = Colour(160, 0, 0)

    /// Above this one-sigma heading error the screen asks for a calibration.
    public static let promptAccuracy = 5.0

    /// The screen's lines with their colours and relative sizes (the heading is drawn larger).
    public func lines(_ state: NavigationState) -> [(text: String, colour: Colour, large: Bool)] {
        var out: [(String, Colour, Bool)] = []
        if let attitude = state.attitude {
            // True north once the position is known; a trailing M marks a magnetic heading.
            let heading = state.trueHeading ?? attitude.magneticHeading
            let mark = state.trueHeading == nil ? "M" : ""
            out.append(("\(fixed(heading, 0))°\(mark) \(StatusView.cardinal(heading))", .heading, true))
            out.append(("ROLL \(fixed(attitude.roll, 1)) PITCH \(fixed(attitude.pitch, 1))", .text, false))
        } else {
            out.append(("--°", .heading, true))
            out.append(("ROLL -- PITCH --", .text, false))
        }
        let fix = state.fix
        if fix.hasPosition {
            out.append(("\(fixed(abs(fix.latitude), 5)) \(fix.latitude >= 0 ? "N" : "S")  \(fixed(abs(fix.longitude), 5)) \(fix.longitude >= 0 ? "E" : "W")", .text, false))
            out.append(("GPS \(fixed(fix.altitudeMSL, 0)) M  \(fixed(fix.speed * 3.6, 1)) KM/H", .text, false))
        } else {
            out.append(("NO FIX (\(fix.satellitesVisible) SATS SEEN)", .warning, false))
            out.append(("GPS --", .text, false))
        }
        if let pressure = state.pressure {
            out.append(("\(fixed(pressure.pressure / 100, 1)) HPA  \(fixed(state.barometricAltitude, 0)) M", .text, false))
        } else {
            out.append(("-- HPA", .text, false))
        }
        if let trend { out.append((trend.uppercased(), .text, false)) }
        if let alert { out.append(("ALERT: " + alert.uppercased(), .warning, false)) }
        if let sky { out.append((sky.uppercased(), .text, false)) }
        if let gpsWarning { out.append(("GPS: " + gpsWarning.uppercased(), .warning, false)) }
        if let navigation { out.append((navigation.uppercased(), .heading, false)) }
        if calibration == "inProgress" {
            out.append(("CALIBRATING \(Int((calibrationProgress * 100).rounded()))%: FIGURE 8S", .warning, false))
        } else if state.magneticInterference {
            out.append(("MAGNETIC INTERFERENCE", .warning, false))
        } else if calibration == "uncalibrated" || calibration == "poor"
                    || (state.headingAccuracy.isFinite && state.headingAccuracy > Self.promptAccuracy) {
            out.append(("HEADING +-\(fixed(state.headingAccuracy, 0))°: CALIBRATE", .warning, false))
        }
        let health = [("IMU", state.imuHealth), ("MAG", state.magnetometerHealth), ("BARO", state.barometerHealth), ("GPS", state.gpsHealth)]
        let failing = health.filter { $0.1 == .degraded }.map(\.0)
        out.append(failing.isEmpty ? ("SENSORS OK", .text, false) : ("CHECK " + failing.joined(separator: " "), .warning, false))
        if let profile { out.append(("MODE " + profile.uppercased(), .text, false)) }
        return out
    }

    /// Draws the whole screen.
    public func render(_ state: NavigationState, on screen: any Framebuffer) {
        fill(screen, .background)
        let content = lines(state)
        // Scale text so about 22 characters fit across; the heading is twice that size.
        let scale = max(1, screen.width / (22 * (Font5x7.width + 1)))
        var y = scale * 2
        for line in content {
            let size = line.large ? scale * 2 : scale
            draw(line.text, at: scale * 2, y, size: size, colour: night ? Self.nightColour : line.colour, on: screen)
            y += (Font5x7.height + 3) * size
            if y >= screen.height { break }
        }
        drawGraphs(top: y, scale: scale, on: screen)
    }

    /// The graphs in the space left under the text, when there is room for them.
    func drawGraphs(top: Int, scale: Int, on screen: any Framebuffer) {
        let labelHeight = (Font5x7.height + 2) * scale
        let height = screen.height - top - labelHeight - 2 * scale
        guard !graphs.isEmpty, height >= 12 else { return }
        let colour = night ? Self.nightColour : Colour.heading
        let panel = (screen.width - 2 * scale) / graphs.count
        for (index, graph) in graphs.enumerated() {
            let left = scale * 2 + index * panel
            draw(graph.label, at: left, top, size: scale, colour: night ? Self.nightColour : .text, on: screen)
            let known = graph.values.filter(\.isFinite)
            guard let low = known.min(), let high = known.max() else { continue }
            let width = panel - 3 * scale
            for x in 0..<max(0, width) {
                let value = graph.values[min(graph.values.count - 1, x * graph.values.count / max(1, width))]
                guard value.isFinite else { continue }
                let fraction = high > low ? (value - low) / (high - low) : 0.5
                let bar = 1 + Int(fraction * Double(height - 1))
                for dy in 0..<bar {
                    screen.set(x: left + x, y: top + labelHeight + height - dy, red: colour.red, green: colour.green, blue: colour.blue)
                }
            }
        }
    }

    func fill(_ screen: any Framebuffer, _ colour: Colour) {
        for y in 0..<screen.height {
            for x in 0..<screen.width { screen.set(x: x, y: y, red: colour.red, green: colour.green, blue: colour.blue) }
        }
    }

    /// Text in the 5 x 7 font, each font pixel drawn as a `size` x `size` block.
    func draw(_ text: String, at left: Int, _ top: Int, size: Int, colour: Colour, on screen: any Framebuffer) {
        var x = left
        for character in text {
            let r = Font5x7.rows(character)
            let rows = [r.0, r.1, r.2, r.3, r.4, r.5, r.6]
            for (row, bits) in rows.enumerated() {
                for column in 0..<Font5x7.width where bits & (0x10 >> UInt8(column)) != 0 {
                    for dy in 0..<size {
                        for dx in 0..<size {
                            screen.set(x: x + column * size + dx, y: top + row * size + dy,
                                       red: colour.red, green: colour.green, blue: colour.blue)
                        }
                    }
                }
            }
            x += (Font5x7.width + 1) * size
            if x >= screen.width { break }
        }
    }
}
