import LodestoneCore
import LodestoneHAL
@testable import LodestoneOutputs
import Testing

/// Every page's text at every panel size, day and night, checked from the runs the frame
/// records (what `lodestone screenshot --layout-json` writes): text drawn over other text, text
/// past the panel's edge, characters the font has no glyph for.
@Suite struct TextLayoutTests {
    static let sizes = [(128, 64), (240, 160), (320, 240), (480, 320), (800, 480), (1280, 800), (1920, 1080)]

    struct Problems {
        var overlaps: [String] = [], outside: [String] = [], missing: [String] = []
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
        #expect(runs.contains { $0.text.contains("SATS") && $0.y > 0 })
        let overlapping = [TextRun(text: "A", x: 0, y: 0, width: 10, height: 10, missingGlyphs: 0), TextRun(text: "B", x: 9, y: 9, width: 10, height: 10, missingGlyphs: 1),
                           TextRun(text: "C", x: 315, y: 0, width: 10, height: 10, missingGlyphs: 0)]
        let found = Self.problems(overlapping, width: 320, height: 240, name: "made")
        #expect(found.overlaps.count == 1 && found.outside.count == 1 && found.missing.count == 1)
    }

    /// Every page, every size, day and night on the walk's fixed model: no text over text, none
    /// past the edge, no missing glyph (before the labels were placed: 50 overlaps, 62 runs
    /// past the edge).
    @Test func everyPageAtEverySize() {
        var all = Problems()
        for (width, height) in Self.sizes {
            for theme in [Theme.day, .night] {
                for page in DisplayPage.allCases {
                    let found = Self.problems(Self.runs(page, DisplayFixtures.walk, width: width, height: height, theme: theme),
                                              width: width, height: height, name: "\(page.rawValue) \(width)x\(height) \(theme.rawValue)")
                    all.overlaps += found.overlaps
                    all.outside += found.outside
                    all.missing += found.missing
                }
            }
        }
        print("text layout: \(all.overlaps.count) overlaps, \(all.outside.count) runs past the edge, \(all.missing.count) runs with missing glyphs")
        for line in (all.overlaps + all.outside + all.missing).prefix(40) { print("  " + line) }
        #expect(all.overlaps.isEmpty && all.outside.isEmpty && all.missing.isEmpty,
                "\(all.overlaps.count) overlaps, \(all.outside.count) outside, \(all.missing.count) missing")
    }
}
