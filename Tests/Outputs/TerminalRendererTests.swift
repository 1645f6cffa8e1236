import LodestoneOutputs
import LodestoneReports
import Testing

/// The terminal display writes only what changed, so it never flickers.
@Suite struct TerminalRendererTests {
    @Test func theFirstFrameClearsThenOnlyChangesAreWritten() {
        var renderer = TerminalRenderer()
        var screen = TextScreen(columns: 20, rows: 5)
        screen.put("HEADING 44", column: 0, row: 1)
        let first = renderer.frame(screen, theme: .day)
        #expect(first.contains("\u{1B}[2J") && first.contains("HEADING 44"))
        #expect(renderer.frame(screen, theme: .day).isEmpty)
        screen.put("45", column: 8, row: 1)
        let change = renderer.frame(screen, theme: .day)
        // Only the changed cell (row 2, column 10 counted from 1), without clearing.
        #expect(
            change.hasPrefix("\u{1B}[2;10H") && change.hasSuffix("5") && !change.contains("2J") && !change.contains("HEADING"), "\(change.debugDescription)")
    }

    @Test func aRepaintRewritesEveryCellWithoutClearing() {
        var renderer = TerminalRenderer()
        var screen = TextScreen(columns: 10, rows: 2)
        screen.put("N", column: 0, row: 0)
        _ = renderer.frame(screen, theme: .day)
        renderer.invalidate()
        let repaint = renderer.frame(screen, theme: .day)
        #expect(!repaint.contains("2J") && repaint.contains("\u{1B}[1;1H") && repaint.contains("\u{1B}[2;1H"))
    }

    /// The night theme is red on black: every colour it sends is red (31) on a black background.
    @Test func theNightThemeIsRedOnBlack() {
        var renderer = TerminalRenderer()
        var screen = TextScreen(columns: 30, rows: 3)
        screen.put("TITLE", column: 0, row: 0, ink: .accent)
        screen.put("ok", column: 0, row: 1, ink: .good)
        screen.put("degraded", column: 0, row: 2, ink: .warning)
        let text = renderer.frame(screen, theme: .night)
        let colours = text.split(separator: "\u{1B}").compactMap { part -> String? in
            guard part.hasPrefix("["), let end = part.firstIndex(of: "m") else { return nil }
            return String(part[part.index(after: part.startIndex)..<end])
        }
        #expect(!colours.isEmpty)
        for sgr in colours { #expect(sgr.contains("31") && sgr.contains("40") && !sgr.contains("32") && !sgr.contains("33"), "\(sgr)") }
        for ink in [Ink.text, .dim, .accent, .warning, .good] {
            let c = Theme.night.colour(ink)
            #expect(c.green == 0 && c.blue == 0 && c.red > 0)
        }
    }

    @Test func keysPickAndStepPages() {
        #expect(TerminalKey.decode(Array("5".utf8)) == [.page(.sky)])
        #expect(TerminalKey.decode([0x1B, 0x5B, 0x43, 0x1B, 0x5B, 0x44, 0x09]) == [.nextPage, .previousPage, .nextPage])
        #expect(
            TerminalKey.decode(Array("tuq9x0".utf8)) == [.toggleTheme, .toggleUnits, .quit, .page(.waves), .page(.day)],
            "9 the ninth page, 0 the tenth; x is no key")
    }
}
