/// The rows of one of a timetable's tables (its stops, routes or trips): held in memory, as
/// an import builds them, or read from a store one row at a time when asked, so a stored
/// national timetable makes the Strings of the few rows an answer shows, not of its 70,000.
public struct TimetableRows<Row: Sendable>: RandomAccessCollection, ExpressibleByArrayLiteral, Sendable {
    private enum Storage: Sendable {
        case held([Row])
        case stored(count: Int, row: @Sendable (Int) -> Row)
    }

    private var storage: Storage

    public init(_ rows: [Row] = []) { storage = .held(rows) }

    public init(arrayLiteral rows: Row...) { storage = .held(rows) }

    /// `count` rows, row `n` made by `row(n)` each time it is asked for (never with an index
    /// outside `0..<count`).
    public init(count: Int, row: @escaping @Sendable (Int) -> Row) { storage = .stored(count: Swift.max(count, 0), row: row) }

    /// Whether the rows are read from a store when asked (not held).
    public var isStored: Bool {
        if case .stored = storage { return true }
        return false
    }

    public var startIndex: Int { 0 }

    public var endIndex: Int {
        switch storage {
        case .held(let rows): rows.count
        case .stored(let count, _): count
        }
    }

    public subscript(position: Int) -> Row {
        switch storage {
        case .held(let rows): rows[position]
        case .stored(_, let row): row(position)
        }
    }

    /// Adds a row; stored rows are read into memory first (an import appends, a store reads).
    public mutating func append(_ row: Row) {
        var rows = held()
        storage = .held([])
        rows.append(row)
        storage = .held(rows)
    }

    public mutating func reserveCapacity(_ n: Int) {
        var rows = held()
        storage = .held([])
        rows.reserveCapacity(n)
        storage = .held(rows)
    }

    private func held() -> [Row] {
        switch storage {
        case .held(let rows): rows
        case .stored: Array(self)
        }
    }
}

extension TimetableRows: Equatable where Row: Equatable {
    public static func == (a: TimetableRows, b: TimetableRows) -> Bool { a.elementsEqual(b) }
}
