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
    }

    public let columns: Int
    public let rows: Int
    public private(set) var cells: [Cell]
    /// Rows drawn at twice the size on a framebuffer (the row below is left empty for them);
    /// a terminal shows them at the normal size.
    public var largeRows: Set<Int> = []
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

    /// Writes `text` from (`column`, `row`); what falls outside is dropped.
    public mutating func put(_ text: String, column: Int, row: Int, ink: Ink = .text) {
        guard row >= 0, row < rows else { return }
        var x = column
        for (index, character) in text.enumerated() {
            if x >= columns {
                if text.dropFirst(index).contains(where: { $0 != " " }) { cuts.append(text) }
                break
            }
            if x >= 0 { cells[row * columns + x] = Cell(character: character, ink: ink) }
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
