/// What a piece of text means on screen; each theme gives every ink its own colour.
public enum Ink: UInt8, Sendable, Equatable {
    case text, dim, accent, warning, good
}

/// A page as a grid of character cells, the one drawing that the terminal and the framebuffer
/// both show: the terminal writes the cells, the framebuffer draws them in its bitmap font.
/// Writing outside the grid is clipped, never an error, so a page can be laid out once and
/// shown on a 21 x 8 mono LCD or a 200-column terminal.
public struct TextScreen: Sendable, Equatable {
    public struct Cell: Sendable, Equatable {
        public var character: Character
        public var ink: Ink
        /// The text this cell belongs to was shortened or cut to fit.
        public var clipped = false
    }

    public let columns: Int
    public let rows: Int
    public private(set) var cells: [Cell]
    /// Rows drawn larger on a framebuffer, each with its factor (2: twice the size; the
    /// factor - 1 rows below are left empty for it): the page's key figure. A terminal shows
    /// them at the normal size.
    public var largeRows: [Int: Int] = [:]
    /// The large rows that hold the page's key figure (the others are its headings).
    public var keyRows: Set<Int> = []
    /// Texts that ran past the right edge and lost characters there: a page shortens its
    /// words to fit (the layout tests hold every page to none).
    public private(set) var cuts: [String] = []

    public init(columns: Int, rows: Int) {
        self.columns = max(0, columns)
        self.rows = max(0, rows)
        cells = Array(repeating: Cell(character: " ", ink: .text), count: self.columns * self.rows)
    }

    public subscript(column: Int, row: Int) -> Cell {
        cells[row * columns + column]
    }

    /// Writes `text` from (`column`, `row`); what falls outside is dropped, and the text is
    /// marked clipped then. `clipped`: the caller already shortened it to fit.
    public mutating func put(_ text: String, column: Int, row: Int, ink: Ink = .text, clipped: Bool = false) {
        guard row >= 0, row < rows else { return }
        let end = column + text.count
        let cut = end > columns && text.dropFirst(max(0, columns - column)).contains { $0 != " " }
        if cut { cuts.append(text) }
        var x = column
        for character in text {
            if x >= columns { break }
            if x >= 0 { cells[row * columns + x] = Cell(character: character, ink: ink, clipped: clipped || cut) }
            x += 1
        }
    }

    /// Writes `text` centred on the row.
    public mutating func centre(_ text: String, row: Int, ink: Ink = .text) {
        put(text, column: (columns - text.count) / 2, row: row, ink: ink)
    }

    /// Writes `text` ending at the right edge.
    public mutating func right(_ text: String, row: Int, ink: Ink = .text) {
        put(text, column: columns - text.count, row: row, ink: ink)
    }

    /// One row as plain text, without trailing spaces.
    public func line(_ row: Int) -> String {
        var text = String(cells[(row * columns)..<((row + 1) * columns)].map(\.character))
        while text.last == " " { text.removeLast() }
        return text
    }

    /// Every row, one per line.
    public var text: String { (0..<rows).map(line).joined(separator: "\n") }
}
