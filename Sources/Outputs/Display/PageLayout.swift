import LodestoneReports
extension DisplayPage {
    /// Draws the page for `model` on a screen of `columns` x `rows` cells: a header with the
    /// page's name and the time, the page's content, and on a terminal tall enough the keys.
    /// `large`: the screen can draw rows at twice the size (a framebuffer).
    public func draw(_ model: DisplayModel, columns: Int, rows: Int, keys: Bool = false, large: Bool = false) -> TextScreen {
        var screen = TextScreen(columns: columns, rows: rows)
        let number = "\((Self.allCases.firstIndex(of: self) ?? 0) + 1)/\(Self.allCases.count)"
        let left = columns >= 40 ? "\(title)  \(number)" : title
        screen.put(left, column: 0, row: 0, ink: .accent)
        var clock = model.clock ?? ""
        if !clock.isEmpty { screen.right(clock, row: 0) }
        // While a track records, every page says so beside the clock.
        if let mark = Self.recordingMark(model.track?.state, columns: columns) {
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
        screen = page.screen
        if footer {
            screen.put(
                columns >= 70 ? "0-9/tab pages  t night  u units  m north  q quit" : "tab page t night u units q quit", column: 0, row: rows - 1, ink: .dim)
        }
        return screen
    }
}

extension DisplayPage {
    /// The header's mark of the recording: REC while a track records, "paused" while it is
    /// paused ("II" where a narrow panel has no room for the word), nothing otherwise.
    static func recordingMark(_ state: String?, columns: Int) -> (text: String, ink: Ink)? {
        switch state {
        case "recording": return ("REC", .warning)
        case "paused": return (columns >= 30 ? "paused" : "II", .dim)
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
        guard row < bottom else { return }
        screen.put(LabelPlacer.shortened(text, to: columns), column: indent, row: row, ink: ink)
        row += 1
    }

    /// A message over as many lines as it needs, broken between words (a word longer than a
    /// line is cut): what a page says when it has nothing else, never cut off at the edge.
    public mutating func paragraph(_ text: String, ink: Ink = .text) {
        for piece in Self.wrapped(text, width: columns) { line(piece, ink: ink) }
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

    /// A label in the dim ink, then its value.
    public mutating func field(_ label: String, _ value: String, ink: Ink = .text, labelWidth: Int = 10) {
        guard row < bottom else { return }
        let padded = label.count >= labelWidth ? label + " " : label + String(repeating: " ", count: labelWidth - label.count)
        screen.put(padded, column: indent, row: row, ink: .dim)
        screen.put(LabelPlacer.shortened(value, to: columns - padded.count), column: indent + padded.count, row: row, ink: ink)
        row += 1
    }

    public mutating func blank() { if row < bottom { row += 1 } }

    /// Whether `headline` may draw large.
    public var allowsLarge = false

    /// The one figure the page is about (the heading), at twice the size where the screen can
    /// and there is room; otherwise a normal line.
    public mutating func headline(_ text: String, ink: Ink = .accent) {
        guard allowsLarge, remaining >= 3, text.count * 2 <= columns else { return line(text, ink: ink) }
        screen.put(text, column: indent, row: row, ink: ink)
        screen.largeRows.insert(row)
        row += 2
    }

    /// Writes at a place of the page's own choosing (drawings: the rose, the bubble).
    public mutating func put(_ text: String, column: Int, row: Int, ink: Ink = .text) {
        guard row < bottom else { return }
        screen.put(text, column: column, row: row, ink: ink)
    }
}

/// "2 h 14 min", "9 min", "45 s"; compact: "2h14".
func countdown(_ seconds: Double, compact: Bool = false) -> String {
    guard seconds.isFinite, seconds >= 0 else { return "--" }
    let minutes = Int(seconds / 60)
    if minutes >= 60 { return compact ? "\(minutes / 60)h\(format2(minutes % 60))" : "\(minutes / 60) h \(minutes % 60) min" }
    if minutes >= 1 { return compact ? "\(minutes)m" : "\(minutes) min" }
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
