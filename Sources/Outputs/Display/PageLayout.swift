import LodestoneCore
import LodestoneReports
extension DisplayPage {
    /// Draws the page for `model` on a screen of `columns` x `rows` cells: a header with the
    /// page's name and the time, the page's content, and on a terminal tall enough the keys.
    /// `large`: the screen can draw rows at twice the size (a framebuffer).
    public func draw(_ model: DisplayModel, columns: Int, rows: Int, keys: Bool = false, large: Bool = false) -> TextScreen {
        measured(model, columns: columns, rows: rows, keys: keys, large: large).screen
    }

    /// The page drawn, and how many of its essential lines found no row (a list that fills
    /// what is left is not counted).
    func measured(_ model: DisplayModel, columns: Int, rows: Int, keys: Bool = false, large: Bool = false) -> (screen: TextScreen, dropped: Int) {
        var screen = TextScreen(columns: columns, rows: rows)
        let number = "\((Self.allCases.firstIndex(of: self) ?? 0) + 1)/\(Self.allCases.count)"
        // The page's name in the language of the words (the table's "page" entries).
        let title = Words.text("page", rawValue, model.language).uppercased()
        let left = columns >= 40 ? "\(title)  \(number)" : title
        screen.put(left, column: 0, row: 0, ink: .accent)
        var clock = model.clock ?? ""
        if !clock.isEmpty { screen.right(clock, row: 0) }
        // While a track records, every page says so beside the clock.
        if let mark = Self.recordingMark(model.track?.state, columns: columns, model.language) {
            screen.put(mark.text, column: columns - clock.count - (clock.isEmpty ? 0 : 1) - mark.text.count, row: 0, ink: mark.ink)
            clock = mark.text + (clock.isEmpty ? "" : " " + clock)
        }
        // The device's name, centred in the gap between the page and the clock when it fits
        // there with a space either side; never over the page number.
        let gap = columns - left.count - clock.count - 2
        if columns >= 40, gap >= min(model.title.count, 8) {
            let name = String(model.title.prefix(gap))
            let centred = (columns - name.count) / 2
            screen.put(name, column: min(max(centred, left.count + 1), columns - clock.count - 1 - name.count), row: 0, ink: .dim)
        }
        let footer = keys && rows >= 16
        var page = PageWriter(screen: screen, top: 1, bottom: rows - (footer ? 1 : 0))
        page.allowsLarge = large
        page.keyFactor = 2
        var drawn = compose(model, on: page)
        // The key figure grows into the rows the page's other essentials leave free (a list
        // that fills what is left gives way to it), up to two fifths of the page.
        if large, drawn.keyLines > 0 {
            // A heading under it grows by a row when the key figure grows.
            let spare = drawn.bottom - (drawn.essentialEnd ?? drawn.row) - drawn.subheadlines
            let factor = min(2 + max(0, spare) / drawn.keyLines, max(2, rows * 2 / 5 / drawn.keyLines))
            if factor > 2 {
                page.keyFactor = factor
                drawn = compose(model, on: page)
            }
        }
        // Rows still free under a page of fields (a tall panel): spread after the fields (up
        // to three after each), so the page reads down the panel rather than in its top half.
        let spare = drawn.bottom - drawn.row
        if large, drawn.fields > 0, spare > 0 {
            page.fieldSpacing = min(3, spare / drawn.fields)
            page.spacedFields = page.fieldSpacing == 3 ? 0 : spare - page.fieldSpacing * drawn.fields
            drawn = compose(model, on: page)
        }
        screen = drawn.screen
        if footer {
            screen.put(model.say(columns >= 70 ? "keys" : "keysShort"), column: 0, row: rows - 1, ink: .dim)
        }
        return (screen, drawn.dropped)
    }

    /// The page's content written by `page`, from its top row.
    private func compose(_ model: DisplayModel, on start: PageWriter) -> PageWriter {
        var page = start
        switch self {
        case .compass: CompassPage.draw(model, on: &page)
        case .position: PositionPage.draw(model, on: &page)
        case .level: LevelPage.draw(model, on: &page)
        case .barometer: BarometerPage.draw(model, on: &page)
        case .sky: SkyPage.draw(model, on: &page)
        case .chart: SkyChartPage.draw(model, on: &page)
        case .track: TrackPage.draw(model, on: &page)
        case .departures: DeparturesPage.draw(model, on: &page)
        case .waves: WavesPage.draw(model, on: &page)
        case .day: DayPage.draw(model, on: &page)
        case .connect: ConnectPage.draw(model, on: &page)
        case .health: HealthPage.draw(model, on: &page)
        }
        return page
    }
}

extension DisplayPage {
    /// The header's mark of the recording: REC while a track records, "paused" while it is
    /// paused ("II" where a narrow panel has no room for the word), nothing otherwise.
    static func recordingMark(_ state: String?, columns: Int, _ language: Language = .en) -> (text: String, ink: Ink)? {
        switch state {
        case "recording": return (language.say("rec"), .warning)
        case "paused": return (columns >= 30 ? Words.text("track", "paused", language) : "II", .dim)
        default: return nil
        }
    }
}

/// Writes a page's lines top to bottom under the header; lines past the bottom are dropped,
/// so the most important come first.
public struct PageWriter {
    public var screen: TextScreen
    public var row: Int
    /// Where `line` and `field` start: pages with a drawing on the left write beside it.
    public var indent = 0
    let bottom: Int
    /// How many rows the key figure takes (its size): grown by the page when rows are free.
    var keyFactor = 2
    /// How many key-figure lines the page wrote, and the row where its essentials ended (the
    /// lists that fill the rows left begin there).
    private(set) var keyLines = 0, subheadlines = 0
    private(set) var essentialEnd: Int?
    /// Blank rows after each field, and one more after each of the first `spacedFields`; how
    /// many fields the page wrote.
    var fieldSpacing = 0, spacedFields = 0
    private(set) var fields = 0
    /// Essential lines that found no row.
    private(set) var dropped = 0

    private mutating func drop() { if essentialEnd == nil { dropped += 1 } }

    init(screen: TextScreen, top: Int, bottom: Int) {
        self.screen = screen
        row = top
        self.bottom = bottom
    }

    public var columns: Int { screen.columns - indent }
    /// Rows left for content.
    public var remaining: Int { max(0, bottom - row) }
    /// A screen wider than a small LCD's 21 columns gets the longer wording.
    public var wide: Bool { screen.columns - indent >= 32 }

    /// A line of a list, shortened by whole words when it is longer than the page is wide.
    public mutating func line(_ text: String, ink: Ink = .text) {
        guard row < bottom else { return drop() }
        let shown = LabelPlacer.shortened(text, to: columns)
        screen.put(shown, column: indent, row: row, ink: ink, clipped: shown != text)
        row += 1
    }

    /// A message over as many lines as it needs, broken between words (a word longer than a
    /// line is cut): what a page says when it has nothing else, never cut off at the edge.
    public mutating func paragraph(_ text: String, ink: Ink = .text) {
        let pieces = Self.wrapped(text, width: columns)
        let wordCut = text.split(separator: " ").contains { $0.count > columns }
        if pieces.count > remaining { for _ in remaining..<pieces.count { drop() } }
        for (index, piece) in pieces.enumerated() where row < bottom {
            // The last line that fits says so when the rest of the message had no room.
            let lastRoom = row == bottom - 1 && index < pieces.count - 1
            screen.put(piece, column: indent, row: row, ink: ink, clipped: wordCut || lastRoom)
            row += 1
        }
    }

    static func wrapped(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = [], current = ""
        for word in text.split(separator: " ") {
            let word = String(word.prefix(width))
            if current.isEmpty {
                current = word
            } else if current.count + 1 + word.count <= width {
                current += " " + word
            } else {
                lines.append(current)
                current = word
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }

    /// Short items ("max 80 us") as many to a line as fit, two spaces apart: an item is never
    /// broken from its name.
    public mutating func items(_ items: [String], ink: Ink = .text) {
        // An item longer than the page is wide goes on over the next line, never cut.
        for text in TextPacking.packed(items, columns: columns) { lines(text, ink: ink) }
    }

    /// `text` as one line where it fits, else over as many as it needs, broken between words.
    public mutating func lines(_ text: String, ink: Ink = .text) {
        if text.count <= columns { line(text, ink: ink) } else { paragraph(text, ink: ink) }
    }

    /// A label, then its value over as many lines as it needs (the lines after the first
    /// under the value's start), never shortened.
    public mutating func wrappedField(_ label: String, _ value: String, ink: Ink = .text, labelWidth: Int = 10, spaced: Bool = true) {
        let width = columns - max(labelWidth, label.count + 1)
        guard value.count > width, width > 0 else { return field(label, value, ink: ink, labelWidth: labelWidth, spaced: spaced) }
        let pieces = Self.wrapped(value, width: width)
        for (index, piece) in pieces.enumerated() {
            field(index == 0 ? label : "", piece, ink: ink, labelWidth: labelWidth, spaced: spaced && index == pieces.count - 1)
        }
    }

    /// A label in the dim ink, then its value.
    public mutating func field(_ label: String, _ value: String, ink: Ink = .text, labelWidth: Int = 10, spaced: Bool = true) {
        guard row < bottom else { return drop() }
        defer {
            if spaced {
                fields += 1
                row = min(bottom, row + fieldSpacing + (fields <= spacedFields ? 1 : 0))
            }
        }
        let padded = label.count >= labelWidth ? label + " " : label + String(repeating: " ", count: labelWidth - label.count)
        screen.put(padded, column: indent, row: row, ink: .dim)
        let shown = LabelPlacer.shortened(value, to: columns - padded.count)
        screen.put(shown, column: indent + padded.count, row: row, ink: ink, clipped: shown != value)
        row += 1
    }

    public mutating func blank() { if row < bottom { row += 1 } }

    /// Whether `headline` may draw large.
    public var allowsLarge = false

    /// The one figure the page is about (the heading, the position, the next departure), drawn
    /// largest where the screen can: `keyFactor` times the size, as the width allows; otherwise
    /// a normal line.
    public mutating func headline(_ text: String, ink: Ink = .accent) {
        keyLines += 1
        let factor = min(keyFactor, columns / max(1, text.count), remaining)
        guard allowsLarge, factor >= 2 else { return line(text, ink: ink) }
        screen.put(text, column: indent, row: row, ink: ink)
        screen.largeRows[row] = factor
        screen.keyRows.insert(row)
        row += factor
    }

    /// A heading under the key figure (the first departure's time and route), at twice the
    /// size where the width allows and the key figure is larger still; otherwise as lines.
    public mutating func subheadline(_ text: String, ink: Ink = .text) {
        subheadlines += 1
        let factor = min(2, keyLines > 0 ? keyFactor - 1 : 2, columns / max(1, text.count), remaining)
        guard allowsLarge, factor >= 2 else { return lines(text, ink: ink) }
        screen.put(text, column: indent, row: row, ink: ink)
        screen.largeRows[row] = factor
        row += factor
    }

    /// Marks where the page's essentials end: what follows is a list cut to the rows left
    /// (the day's events, the coming waves, the log), which gives way to a larger key figure.
    public mutating func essentialsDone() {
        if essentialEnd == nil { essentialEnd = row }
    }

    /// Writes at a place of the page's own choosing (drawings: the rose, the bubble).
    public mutating func put(_ text: String, column: Int, row: Int, ink: Ink = .text) {
        guard row < bottom else { return }
        screen.put(text, column: column, row: row, ink: ink)
    }
}

/// "2 h 14 min", "9 min", "45 s", as people write a span of time (never "2h14" or "9m": a
/// lone "m" would read as metres beside a distance); compact: the hours alone from a day on.
func countdown(_ seconds: Double, compact: Bool = false) -> String {
    guard seconds.isFinite, seconds >= 0 else { return "--" }
    let minutes = Int(seconds / 60)
    if compact && minutes >= 1440 { return "\(minutes / 60) h" }
    if minutes >= 60 { return minutes % 60 == 0 ? "\(minutes / 60) h" : "\(minutes / 60) h \(minutes % 60) min" }
    if minutes >= 1 { return "\(minutes) min" }
    return "\(Int(seconds)) s"
}

/// Two digits: 7 -> "07".
func format2(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

/// "[#####.....]" for a fraction 0...1 in `width` cells including the brackets.
func progressBar(_ fraction: Double, width: Int) -> String {
    let inside = max(1, width - 2)
    let filled = fraction.isFinite ? max(0, min(inside, Int((fraction * Double(inside)).rounded()))) : 0
    return "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: inside - filled) + "]"
}
