import Glibc
import LodestoneCore
import LodestoneHAL
@testable import LodestoneOutputs
import LodestoneReports
import Testing

/// Every page's text at every panel size, day and night, checked from the runs the frame
/// records (what `lodestone screenshot --layout-json` writes): text drawn over other text, text
/// past the panel's edge, characters the font has no glyph for.
@Suite struct TextLayoutTests {
    static let sizes = [(128, 64), (240, 160), (320, 240), (480, 320), (800, 480), (1280, 800), (1920, 1080)]

    struct Problems {
        var overlaps: [String] = [], outside: [String] = [], missing: [String] = [], cut: [String] = []
    }

    /// The problems of one frame's runs on a `width` x `height` panel.
    static func problems(_ runs: [TextRun], width: Int, height: Int, name: String) -> Problems {
        var found = Problems()
        for (i, a) in runs.enumerated() {
            if a.x < 0 || a.y < 0 || a.x + a.width > width || a.y + a.height > height { found.outside.append("\(name): '\(a.text)' at \(a.x),\(a.y)") }
            if a.missingGlyphs > 0 { found.missing.append("\(name): '\(a.text)'") }
            for b in runs.dropFirst(i + 1) where a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height {
                found.overlaps.append("\(name): '\(a.text)' over '\(b.text)'")
            }
        }
        return found
    }

    static func runs(_ page: DisplayPage, _ model: DisplayModel, width: Int, height: Int, theme: Theme) -> [TextRun] {
        let frame = MemoryFramebuffer(width: width, height: height, format: .rgb565)
        frame.textRuns = []
        GraphicPages.draw(page, model, theme: theme, on: frame)
        return frame.textRuns ?? []
    }

    /// The recorder itself: a page's words where they are drawn, with their boxes.
    @Test func theRunsAreWhereTheTextIs() throws {
        let runs = Self.runs(.position, DisplayFixtures.walk, width: 320, height: 240, theme: .day)
        let header = try #require(runs.first)
        #expect(header.text == "POSITION" && header.x == 0 && header.y == 0 && header.height == 14 && header.width == 8 * 12 - 2, "\(header)")
        #expect(runs.contains { $0.text.contains("sats") && $0.y > 0 })
        let overlapping = [
            TextRun(text: "A", x: 0, y: 0, width: 10, height: 10, missingGlyphs: 0), TextRun(text: "B", x: 9, y: 9, width: 10, height: 10, missingGlyphs: 1),
            TextRun(text: "C", x: 315, y: 0, width: 10, height: 10, missingGlyphs: 0)
        ]
        let found = Self.problems(overlapping, width: 320, height: 240, name: "made")
        #expect(found.overlaps.count == 1 && found.outside.count == 1 && found.missing.count == 1)
    }

    /// Every page, every size, day and night on the walk's, the boat's and the lakeside
    /// station's fixed models (long names with accents, no fix, other units): no text over
    /// text, none past the edge, no missing glyph (on the walk before the labels were placed:
    /// 50 overlaps, 62 runs past the edge).
    @Test(arguments: ["walk", "boat", "lakeside"])
    func everyPageAtEverySize(_ name: String) {
        let model = name == "boat" ? DisplayFixtures.boat : (name == "lakeside" ? DisplayFixtures.lakeside : DisplayFixtures.walk)
        var all = Problems()
        for (width, height) in Self.sizes {
            for theme in [Theme.day, .night] {
                for page in DisplayPage.allCases {
                    let found = Self.problems(
                        Self.runs(page, model, width: width, height: height, theme: theme),
                        width: width, height: height, name: "\(name) \(page.rawValue) \(width)x\(height) \(theme.rawValue)")
                    let shots = getenv("LODESTONE_LAYOUT_SHOTS").map { String(cString: $0) }
                    if let shots, shots == "all" || !(found.overlaps + found.outside + found.missing).isEmpty {
                        // The failing frame (or, with "all", every frame) as a picture, to look at.
                        let frame = MemoryFramebuffer(width: width, height: height, format: .rgb565)
                        GraphicPages.draw(page, model, theme: theme, on: frame)
                        let png = PNGEncoder.encode(frame)
                        let fd = open("/tmp/layout-\(name)-\(page.rawValue)-\(width)x\(height).png", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
                        if fd >= 0 { _ = png.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }; close(fd) }
                    }
                    all.overlaps += found.overlaps
                    let layout = FramebufferLayout(width: width, height: height)
                    if !GraphicPages.drawsGraphics(page, layout: layout) {
                        let screen = page.draw(model, columns: layout.columns, rows: layout.rows, large: true)
                        all.cut += screen.cuts.map { "\(name) \(page.rawValue) \(width)x\(height): '\($0)'" }
                    }
                    all.outside += found.outside
                    all.missing += found.missing
                }
            }
        }
        print(
            "text layout, \(name): \(all.overlaps.count) overlaps, \(all.outside.count) runs past the edge, \(all.missing.count) runs with missing glyphs, \(all.cut.count) texts cut at the edge"
        )
        for line in (all.overlaps + all.outside + all.missing + all.cut).prefix(60) { print("  " + line) }
        #expect(
            all.overlaps.isEmpty && all.outside.isEmpty && all.missing.isEmpty && all.cut.isEmpty,
            "\(all.overlaps.count) overlaps, \(all.outside.count) outside, \(all.missing.count) missing, \(all.cut.count) cut")
    }

    /// Lists shorten words before they cut them: whole words from the end, a dangling separator
    /// with them, a single word abbreviated with a full stop; a name gives way to its figures.
    @Test func wordsAreShortenedNotCut() {
        #expect(LabelPlacer.shortened("Meersburg – Hagnau – Immenstaad", to: 25) == "Meersburg – Hagnau")
        #expect(LabelPlacer.shortened("Bluemlisalp", to: 9) == "Bluemlis.")
        #expect(LabelPlacer.shortened("SATURN 4° 120°", to: 10) == "SATURN 4°")
        #expect(LabelPlacer.shortened("Thun", to: 10) == "Thun")
        #expect(LabelPlacer.squeezed("To Rüschlikon Schiffstation Süd", before: "  2 nm  212°", to: 30) == "To Rüschlikon  2 nm  212°")
        // A text written past the screen's edge is recorded as cut; a page's lines never are.
        var screen = TextScreen(columns: 10, rows: 2)
        screen.put("Interlaken West", column: 0, row: 0)
        screen.put("Thun      ", column: 0, row: 1)
        #expect(screen.cuts == ["Interlaken West"])
        var page = PageWriter(screen: TextScreen(columns: 10, rows: 3), top: 1, bottom: 3)
        page.line("Interlaken West")
        #expect(page.screen.cuts.isEmpty && page.screen.line(1) == "Interlaken")
    }
}
