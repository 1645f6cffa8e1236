import LodestoneHAL
import LodestoneReports

/// Draws a page's cells on a framebuffer in the 5 x 7 font. The layout follows the screen:
/// small panels (128 x 64 mono LCDs) get one-pixel glyphs and 21 columns, medium ones (240 x 240,
/// 320 x 240 TFTs) doubled glyphs and about 20-26 columns, large ones (480 x 320 and up) 40 or
/// more columns, their glyphs as large as 40 x 20 cells allow (doubled at 480 x 320, tripled at
/// 800 x 480, five times on a 1280 x 800 monitor).
public struct FramebufferLayout: Sendable, Equatable {
    public var scale: Int
    public var columns: Int
    public var rows: Int

    /// A cell is 6 x 8 font pixels: the glyph and one pixel of space right and below.
    public static let cellWidth = Font5x7.width + 1, cellHeight = Font5x7.height + 1

    public init(width: Int, height: Int) {
        if width < 240 || height < 160 {
            scale = 1
        } else {
            // The cell grows with the panel until about 40 x 20 cells fill it (the pages'
            // largest layout): a 800 x 480 panel draws its words three times the font's size,
            // not twice in its top half.
            scale = max(2, min(width / (Self.cellWidth * Self.monitorColumns), height / (Self.cellHeight * Self.monitorRows)))
        }
        columns = width / (Self.cellWidth * scale)
        rows = height / (Self.cellHeight * scale)
    }

    /// A large panel's layout at `scale` (a page with little to say in larger cells).
    public init(width: Int, height: Int, scale: Int) {
        self.scale = max(1, scale)
        columns = width / (Self.cellWidth * self.scale)
        rows = height / (Self.cellHeight * self.scale)
    }

    /// The grid a large panel's cell is scaled to fill.
    static let monitorColumns = 40, monitorRows = 20

    /// The layout's name, as the README describes it.
    public var name: String { scale == 1 ? "small" : (columns < 32 ? "medium" : "large") }
}

public enum FramebufferRenderer {
    /// Draws `screen` with `theme` on `target`. Mono panels show every ink lit: red on black
    /// would be dark on a one-bit display.
    public static func draw(_ screen: TextScreen, theme: Theme, layout: FramebufferLayout, on target: any Framebuffer) {
        let mono = target.format == .mono
        let background = theme.background
        fill(target, background)
        let scale = layout.scale
        let recorder = target as? MemoryFramebuffer
        for row in 0..<screen.rows {
            // A large row's text is drawn at its factor's size from where its first character is.
            let factor = screen.largeRows[row] ?? 1
            let start = factor > 1 ? (0..<screen.columns).first { screen[$0, row].character != " " } ?? 0 : 0
            if recorder?.textRuns != nil {
                record(screen, row: row, factor: factor, key: screen.keyRows.contains(row), start: start, scale: scale, on: recorder)
            }
            for column in 0..<screen.columns {
                let cell = screen[column, row]
                guard cell.character != " " else { continue }
                let colour = mono ? Theme.Colour(255, 255, 255) : theme.colour(cell.ink)
                let x = start + (column - start) * factor
                glyph(
                    cell.character, x: x * FramebufferLayout.cellWidth * scale, y: row * FramebufferLayout.cellHeight * scale,
                    scale: scale * factor, colour: colour, on: target)
            }
        }
        // A rule under the header keeps the page's title apart from its content.
        let ruleY = FramebufferLayout.cellHeight * scale - 1
        let rule = mono ? Theme.Colour(255, 255, 255) : theme.colour(.dim)
        for x in 0..<min(target.width, screen.columns * FramebufferLayout.cellWidth * scale) {
            target.set(x: x, y: ruleY, red: rule.red, green: rule.green, blue: rule.blue)
        }
    }

    /// The row's runs of text (characters between spaces; a single space joins words) into the
    /// recording frame, each clipped when a character of it was, and key on a key row.
    static func record(_ screen: TextScreen, row: Int, factor: Int, key: Bool, start: Int, scale: Int, on recorder: MemoryFramebuffer?) {
        guard let recorder else { return }
        let cellWidth = FramebufferLayout.cellWidth * scale * factor
        var column = 0
        while column < screen.columns {
            guard screen[column, row].character != " " else { column += 1; continue }
            var end = column
            var text = ""
            var clipped = false
            while end < screen.columns,
                screen[end, row].character != " " || (end + 1 < screen.columns && screen[end + 1, row].character != " " && !text.isEmpty)
            {
                text.append(screen[end, row].character)
                clipped = clipped || screen[end, row].clipped
                end += 1
            }
            let x = (start + (column - start) * factor) * FramebufferLayout.cellWidth * scale
            recorder.textRuns?.append(
                TextRun(
                    text: text, x: x, y: row * FramebufferLayout.cellHeight * scale,
                    width: text.count * cellWidth - scale * factor, height: Font5x7.height * scale * factor,
                    missingGlyphs: Font5x7.missingGlyphs(in: text), clipped: clipped, key: key))
            column = end
        }
    }

    static func fill(_ target: any Framebuffer, _ colour: Theme.Colour) {
        target.fill(x: 0, y: 0, width: target.width, height: target.height, red: colour.red, green: colour.green, blue: colour.blue)
    }

    /// One character at `scale` times the font's size (a hollow box when the font lacks it).
    static func glyph(_ character: Character, x left: Int, y top: Int, scale: Int, colour: Theme.Colour, on target: any Framebuffer) {
        GlyphPainter.draw(Font5x7.glyph(character), x: left, y: top, scale: scale, colour: colour, on: target)
    }
}
