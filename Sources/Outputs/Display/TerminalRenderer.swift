import LodestoneReports
/// Turns successive page frames into the shortest ANSI output that updates the terminal:
/// only cells that changed are written, with a cursor move per changed run, so nothing
/// flickers and a slow serial console keeps up. A new size or theme redraws everything.
public struct TerminalRenderer {
    private var shown: TextScreen?
    private var shownTheme: Theme?
    private var repaint = false

    public init() {}

    /// Writes every cell in the next frame (without clearing, so nothing flickers), in case
    /// something else wrote to the terminal.
    public mutating func invalidate() { repaint = true }

    public mutating func frame(_ screen: TextScreen, theme: Theme) -> String {
        var out = ""
        let same = shown?.columns == screen.columns && shown?.rows == screen.rows && shownTheme == theme
        let previous = same && !repaint ? shown : nil
        repaint = false
        if !same {
            // The background colour of the night theme fills the cleared screen.
            out += "\u{1B}[" + theme.sgr(.text) + "m\u{1B}[2J"
        }
        var ink: Ink? = nil
        for row in 0..<screen.rows {
            var column = 0
            while column < screen.columns {
                if let previous, previous[column, row] == screen[column, row] {
                    column += 1
                    continue
                }
                // A changed run: extend it over gaps of up to three unchanged cells, which
                // costs less than another cursor move.
                var end = column + 1, next = column + 1
                while next < screen.columns, next - end <= 3 {
                    if previous?[next, row] != screen[next, row] { end = next + 1 }
                    next += 1
                }
                out += "\u{1B}[\(row + 1);\(column + 1)H"
                for x in column..<end {
                    let cell = screen[x, row]
                    if cell.ink != ink {
                        out += "\u{1B}[" + theme.sgr(cell.ink) + "m"
                        ink = cell.ink
                    }
                    out.append(cell.character)
                }
                column = end
            }
        }
        shown = screen
        shownTheme = theme
        return out
    }
}

/// A key a person pressed on the terminal display.
public enum TerminalKey: Equatable, Sendable {
    case page(DisplayPage)
    case nextPage, previousPage, toggleTheme, toggleUnits, toggleNorth, toggleTrack, quit

    /// Decodes the bytes read from the terminal (m: true or magnetic north): digits pick a page (1 the first, 0 the tenth), tab, space, n and the
    /// right arrow step forward, p and the left arrow back, t the theme, u the units, r starts or
    /// stops a track (the track button's short press), q quits.
    public static func decode(_ bytes: [UInt8]) -> [TerminalKey] {
        var keys: [TerminalKey] = []
        var i = 0
        while i < bytes.count {
            let byte = bytes[i]
            if byte == 0x1B, i + 2 < bytes.count, bytes[i + 1] == UInt8(ascii: "[") {
                if bytes[i + 2] == UInt8(ascii: "C") { keys.append(.nextPage) }
                if bytes[i + 2] == UInt8(ascii: "D") { keys.append(.previousPage) }
                i += 3
                continue
            }
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                let index = byte == UInt8(ascii: "0") ? 9 : Int(byte - UInt8(ascii: "1"))
                if index < DisplayPage.allCases.count { keys.append(.page(DisplayPage.allCases[index])) }
            case UInt8(ascii: "\t"), UInt8(ascii: " "), UInt8(ascii: "n"): keys.append(.nextPage)
            case UInt8(ascii: "p"): keys.append(.previousPage)
            case UInt8(ascii: "t"): keys.append(.toggleTheme)
            case UInt8(ascii: "u"): keys.append(.toggleUnits)
            case UInt8(ascii: "m"): keys.append(.toggleNorth)
            case UInt8(ascii: "r"): keys.append(.toggleTrack)
            case UInt8(ascii: "q"): keys.append(.quit)
            default: break
            }
            i += 1
        }
        return keys
    }
}
