import Glibc
import LodestoneCore
import LodestoneDomain
import LodestoneHAL
@testable import LodestoneOutputs
import LodestoneReports
import Testing

/// The graphical pages read back from their pixels: for a known heading the lubber line, the
/// tick under it and the numerals where the rose puts them; the level's bubble where a known
/// roll and pitch float it; on three panel sizes; and lines without gaps.
@Suite struct GraphicPagesTests {
    static let sizes = [(320, 240), (480, 320), (800, 480)]

    static func model(heading: Double) -> DisplayModel {
        var model = DisplayFixtures.walk
        model.state.attitude = TiltCompensatedHeading(roll: 0, pitch: 0, magneticHeading: heading)
        model.state.trueHeading = nil
        model.state.declination = nil
        return model
    }

    static func draw(_ page: DisplayPage, _ model: DisplayModel, width: Int, height: Int) -> MemoryFramebuffer {
        let frame = MemoryFramebuffer(width: width, height: height, format: .xrgb8888)
        GraphicPages.draw(page, model, theme: .day, on: frame)
        return frame
    }

    static func isInk(_ frame: MemoryFramebuffer, _ x: Int, _ y: Int, _ ink: Ink) -> Bool {
        let p = frame.get(x: x, y: y), c = Theme.day.colour(ink)
        return p.red == c.red && p.green == c.green && p.blue == c.blue
    }

    /// Pixels of `ink` in the square of half-side `half` around (x, y).
    static func count(_ frame: MemoryFramebuffer, x: Int, y: Int, half: Int, _ ink: Ink) -> Int {
        var n = 0
        for dy in -half...half { for dx in -half...half where isInk(frame, x + dx, y + dy, ink) { n += 1 } }
        return n
    }

    static func header(_ width: Int, _ height: Int) -> Int { FramebufferLayout.cellHeight * FramebufferLayout(width: width, height: height).scale }
    static func textScale(_ width: Int, _ height: Int) -> Int { max(FramebufferLayout(width: width, height: height).scale, height / 160) }

    @Test(arguments: sizes)
    func theRoseTurnsUnderAFixedLubberLine(width: Int, height: Int) {
        let heading = 30.0
        let frame = Self.draw(.compass, Self.model(heading: heading), width: width, height: height)
        let g = CompassDial.Geometry(width: width, height: height, header: Self.header(width, height), textScale: Self.textScale(width, height))
        // The lubber line: accent, straight up from the rim at the top.
        #expect(Self.isInk(frame, g.centreX, g.centreY - g.radius - 2, .accent), "lubber line above the rim")
        // The tick 5° right of the heading (35°, a short one) just right of the lubber line, white.
        let five = 5.0 * .pi / 180
        let (tx, ty) = (
            g.centreX + Int((Double(g.radius - g.shortTick / 2) * sin(five)).rounded()),
            g.centreY - Int((Double(g.radius - g.shortTick / 2) * cos(five)).rounded())
        )
        #expect(Self.count(frame, x: tx, y: ty, half: 1, .text) > 0, "the 35° tick at \(tx),\(ty)")
        // The numeral "30" under the lubber line; "E" (accent) 60° to the right; "N" (warning) 30° left.
        func labelCentre(_ label: String, angle: Double, scale: Int) -> (Int, Int) {
            let a = angle * .pi / 180
            let extent = Double(Canvas.textWidth(label, scale: scale)) / 2 * abs(sin(a)) + Double(Font5x7.height * scale) / 2 * abs(cos(a))
            let at = Double(g.radius - g.longTick - max(2, g.radius / 40)) - extent
            return (g.centreX + Int((at * sin(a)).rounded()), g.centreY - Int((at * cos(a)).rounded()))
        }
        let thirty = labelCentre("30", angle: 0, scale: g.numeralScale)
        #expect(Self.count(frame, x: thirty.0, y: thirty.1, half: 3 * g.numeralScale, .text) > 10, "30 under the lubber line")
        let east = labelCentre("E", angle: 60, scale: g.cardinalScale)
        #expect(Self.count(frame, x: east.0, y: east.1, half: 3 * g.cardinalScale, .accent) > 10, "E at 60° right")
        let north = labelCentre("N", angle: -30, scale: g.cardinalScale)
        #expect(Self.count(frame, x: north.0, y: north.1, half: 3 * g.cardinalScale, .warning) > 10, "N at 30° left")
        // Turned to 120°, the lubber line stays and "120" is under it; "30" is gone from the top.
        let turned = Self.draw(.compass, Self.model(heading: 120), width: width, height: height)
        #expect(Self.isInk(turned, g.centreX, g.centreY - g.radius - 2, .accent))
        let top120 = labelCentre("120", angle: 0, scale: g.numeralScale)
        #expect(Self.count(turned, x: top120.0, y: top120.1, half: 3 * g.numeralScale, .text) > 15)
        // The heading in digits at least a fifth of the panel's height.
        #expect(Font5x7.height * g.digitScale >= height / 5, "digits \(Font5x7.height * g.digitScale) px on \(height)")
        #expect(Self.count(frame, x: g.centreX, y: g.centreY, half: Font5x7.height * g.digitScale / 2, .accent) > 100)
    }

    @Test(arguments: sizes)
    func theBubbleFloatsToTheHighSide(width: Int, height: Int) {
        var model = DisplayFixtures.walk
        (model.level.roll, model.level.pitch, model.level.isLevel) = (3, -2, false)
        let frame = Self.draw(.level, model, width: width, height: height)
        let g = LevelDial.Geometry(width: width, height: height, header: Self.header(width, height), textScale: Self.textScale(width, height))
        let centre = g.bubbleCentre(roll: 3, pitch: -2)
        // Rolled right and nose down: the bubble is left of and above the centre.
        #expect(centre.x < g.centreX && centre.y < g.centreY)
        #expect(abs(Double(g.centreX - centre.x) - 0.3 * Double(g.radius)) <= 1 && abs(Double(g.centreY - centre.y) - 0.2 * Double(g.radius)) <= 1)
        #expect(
            Self.isInk(frame, centre.x, centre.y, .accent) && Self.count(frame, x: centre.x, y: centre.y, half: g.bubble / 2, .accent) > g.bubble * g.bubble / 2
        )
        let mirrored = (2 * g.centreX - centre.x, 2 * g.centreY - centre.y)
        #expect(!Self.isInk(frame, mirrored.0, mirrored.1, .accent))
        // Level: the bubble is green at the centre.
        (model.level.roll, model.level.pitch, model.level.isLevel) = (0.1, 0.1, true)
        let level = Self.draw(.level, model, width: width, height: height)
        let middle = g.bubbleCentre(roll: 0.1, pitch: 0.1)
        #expect(Self.isInk(level, middle.x, middle.y, .good))
        // Far beyond full scale it stays inside the rim.
        let edge = g.bubbleCentre(roll: -40, pitch: 0)
        #expect(edge.x + g.bubble <= g.centreX + g.radius)
    }

    /// Every step of a line touches the last (no gaps at any slope), both ends drawn.
    @Test func linesHaveNoGaps() {
        let frame = MemoryFramebuffer(width: 100, height: 100, format: .xrgb8888)
        let canvas = Canvas(target: frame, theme: .day)
        for (x0, y0, x1, y1) in [(5, 5, 94, 20), (5, 90, 30, 3), (50, 50, 51, 99), (99, 0, 0, 99), (10, 60, 90, 60)] {
            canvas.clear()
            canvas.line(x0, y0, x1, y1, ink: .text)
            var lit = 0
            for y in 0..<100 { for x in 0..<100 where Self.isInk(frame, x, y, .text) { lit += 1 } }
            #expect(lit == max(abs(x1 - x0), abs(y1 - y0)) + 1, "\(x0),\(y0)-\(x1),\(y1): \(lit) pixels")
            #expect(Self.isInk(frame, x0, y0, .text) && Self.isInk(frame, x1, y1, .text))
        }
    }

    /// A 128 x 64 mono panel keeps its text cells; from 240 x 160 the three pages are drawn.
    @Test func smallPanelsKeepTextCells() {
        #expect(!GraphicPages.drawsGraphics(.compass, layout: FramebufferLayout(width: 128, height: 64)))
        #expect(GraphicPages.drawsGraphics(.level, layout: FramebufferLayout(width: 1920, height: 1080)))
        #expect(!GraphicPages.drawsGraphics(.sky, layout: FramebufferLayout(width: 800, height: 480)))
        let g = CompassDial.Geometry(width: 1920, height: 1080, header: Self.header(1920, 1080), textScale: Self.textScale(1920, 1080))
        #expect(Font5x7.height * g.digitScale >= 1080 / 5 && g.radius > 450, "\(g)")
    }

    /// The track page: the start, the position now and the waypoint where the plot puts them,
    /// in their inks; heading up turns the map (a point east of the centre goes to the top).
    @Test(arguments: sizes)
    func theTrackIsDrawnWhereTheMapPutsIt(width: Int, height: Int) throws {
        let model = DisplayFixtures.walk
        let track = try #require(model.track)
        let frame = Self.draw(.track, model, width: width, height: height)
        let textScale = Self.textScale(width, height), lineHeight = FramebufferLayout.cellHeight * textScale
        // The state and the figures above the map, each over as many lines as it needs.
        let state = "RECORDING" + (track.name.map { "  " + $0 } ?? "")
        let columns = (width - 2 * textScale) / (FramebufferLayout.cellWidth * textScale)
        let lines =
            Canvas.wrapped(state, width: width - 2 * textScale, scale: textScale).pieces.count
            + TrackDrawing.figureLines(track, units: model.units, columns: columns).count
        let top = Self.header(width, height) + textScale + lines * lineHeight + textScale
        let profile = max(lineHeight * 2, (height - top) / 5)
        let mapHeight = height - top - profile - textScale * 2
        let plot = TrackPlot(
            points: track.path, marks: track.waypoints.map { ($0.latitude, $0.longitude) } + (track.here.map { [$0] } ?? []),
            width: Double(width), height: Double(mapHeight))
        func pixel(_ place: (latitude: Double, longitude: Double)) -> (Int, Int) {
            let p = plot.position(latitude: place.latitude, longitude: place.longitude)
            return (Int(p.x.rounded()), top + Int(p.y.rounded()))
        }
        let start = pixel(try #require(track.path.first)), here = pixel(try #require(track.here))
        #expect(Self.isInk(frame, start.0, start.1, .good), "the start at \(start)")
        #expect(Self.isInk(frame, here.0, here.1, .accent), "the position now at \(here)")
        let summit = pixel((46.6990, 7.8840))
        #expect(Self.isInk(frame, summit.0, summit.1, .warning), "the waypoint at \(summit)")
        #expect(
            plot.contains(plot.position(latitude: 46.6863, longitude: 7.8635))
                && [1.0, 2, 5].contains(plot.scaleBarMetres / pow(10, floor(log10(plot.scaleBarMetres)))))
        let up = TrackPlot(points: [(46.0, 7.0), (46.0, 7.01)], width: 100, height: 100, headingUp: 90)
        #expect(up.position(latitude: 46.0, longitude: 7.01).y < 50 && abs(up.position(latitude: 46.0, longitude: 7.01).x - 50) < 1)
    }

    /// In text cells (a terminal): S, @, the waypoint's initial, north, a scale bar and the splits.
    @Test func theTrackInTextCells() {
        let text = DisplayPage.track.draw(DisplayFixtures.walk, columns: 80, rows: 30).text
        #expect(text.contains("S") && text.contains("@") && text.contains("H") && text.contains("N↑"), "\(text)")
        #expect(text.contains("|--") && text.contains("splits  1: 18:00") && text.contains("·"), "\(text)")
    }

    /// The sky chart: the waxing Moon where the dome puts it, lit on its right and dark on its
    /// left; a planet in the good ink; in text cells the Moon's D and the list.
    @Test func theSkyChartPlacesTheMoonLitOnTheRight() throws {
        let model = DisplayFixtures.walk
        let chart = try #require(model.chart)
        let moon = try #require(chart.objects.first { $0.name == "Moon" })
        guard case .moon(let lit, let waxing) = moon.kind else { Issue.record("not the Moon"); return }
        #expect(waxing && lit > 0.3 && lit < 0.6, "\(lit)")
        let (width, height) = (800, 480)
        let frame = Self.draw(.chart, model, width: width, height: height)
        let top = Self.header(width, height), textScale = Self.textScale(width, height)
        let side = min(width, height - top), radius = max(10, side / 2 - textScale * 8)
        let p = SkyChart.position(altitude: moon.altitude, azimuth: moon.azimuth)
        let (mx, my) = (side / 2 + Int((p.x * Double(radius)).rounded()), top + side / 2 + Int((p.y * Double(radius)).rounded()))
        let body = max(4, radius / 20)
        #expect(Self.isInk(frame, mx + body - 1, my, .text), "lit limb on the right")
        #expect(Self.isInk(frame, mx - body + 1, my, .dim), "dark limb on the left")
        let text = DisplayPage.chart.draw(model, columns: 80, rows: 30).text
        #expect(text.contains("D") && text.contains("Moon  alt") && text.contains("N"), "\(text)")
    }

    /// A word wider than the text column beside the rose is drawn smaller, never broken; a
    /// long line wraps at its spaces; a word wider even at the smallest size is cut, not lost.
    @Test func wordsBesideTheRoseAreNeverBroken() {
        let cell = FramebufferLayout.cellWidth
        let narrow = Canvas.wrapped("CALIBRATE: ±10°", width: 8 * cell * 2, scale: 2)
        #expect(narrow.scale == 1 && narrow.pieces == ["CALIBRATE: ±10°"], "\(narrow)")
        let wraps = Canvas.wrapped("SUMMIT HUT 2.9 KM 28°", width: 12 * cell * 2, scale: 2)
        #expect(wraps.scale == 2 && wraps.pieces == ["SUMMIT HUT", "2.9 KM 28°"], "\(wraps)")
        let tiny = Canvas.wrapped("INTERFERENCE", width: 5 * cell, scale: 1)
        #expect(tiny.scale == 1 && tiny.pieces.joined() == "INTERFERENCE", "\(tiny)")
    }
}
