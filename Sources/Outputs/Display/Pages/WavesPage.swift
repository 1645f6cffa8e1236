import LodestoneCore
import LodestoneDomain

/// The waves page: the day's ferry waves at the favourite or the nearest stop as a timeline
/// across the page (the light as a band, each wave as the number of waves its ship makes, the
/// best sessions under it, the time now marked), with the session under way or next, the
/// day's best and the next wave in words above it.
///
///     Weststeg  Sat 07-04
///     Best 10:00-12:00  5 waves  30 pts
///     Next 10:30  3 waves  in 12 min
///      1 1 1 1 1 3 1 2 2 1 1 1 1 1 1 1 1 1
///     ..--=====|==========================--..
///           [####]   [++++]     [++++]
///     06    09    12    15    18    21
///     sun 05:35-21:25  35 lit waves, every 30 min
enum WavesPage {
    /// The band's marks: dark, twilight, day; the time now.
    static let bands: [WaveDay.Light: Character] = [.dark: ".", .twilight: "-", .day: "="]
    static let nowMark: Character = "|"

    static func draw(_ model: DisplayModel, on page: inout PageWriter) {
        guard let panel = model.waves else {
            // Narrow: the departures page's short words for a page with no stop.
            page.paragraph(page.wide ? model.say("noWaveStop") : model.say("noStopNearbyShort").uppercased(), ink: .warning)
            return
        }
        let language = model.language
        let width = min(page.columns, 96)
        // Narrow panels get the short words, so nothing is cut.
        let day = DepartureWords.weekday(panel.weekday, language) + " " + panel.date
        page.lines((page.wide ? panel.stop + "  " + day : panel.stop), ink: .accent)
        // The next wave is the page's key figure: its time and size large, what it is under it.
        if let next = panel.next {
            let tildes = String(repeating: "~", count: next.count)
            let (words, within) = countdown(next, language)
            page.headline(next.clock + " " + tildes + (within == nil ? " " + words : ""))
            if page.wide {
                // The shorter word for the wave where the longer does not fit ("Nächste" for "Nächste Welle").
                let rest = ": " + next.clock + "  " + waves(next.count, language) + "  " + words
                page.line(model.say("nextWave").count + rest.count <= page.columns ? model.say("nextWave") + rest : model.say("nextWaveShort") + rest)
            } else {
                page.lines(model.say("nextWaveShort") + (within.map { ", " + Words.text("word", "in", language, $0) } ?? ""))
            }
        } else {
            page.line(page.wide ? model.say("noMoreWaves") : model.say("noMoreToday").uppercased(), ink: .dim)
        }
        // The session under way or next first (what one can still go to), then the day's best
        // when that is another (said over once it is).
        if let best = panel.sessions.first {
            let soon = panel.upcoming
            let isBest = soon.map { $0.session.start == best.start && $0.session.end == best.end } ?? false
            if let soon, !isBest {
                let word = soon.underWay ? Words.capitalized(Words.text("word", "now", language)) : model.say(page.wide ? "nextSession" : "session")
                page.line((page.wide ? word : word.uppercased()) + " " + (page.wide ? sessionWords(soon.session, language) : soon.session.span), ink: .good)
            }
            let over = best.end < panel.now
            // Narrow: the points where they fit beside the span.
            let short = model.say("best").uppercased() + " " + best.span, points = " " + model.say("pts", "\(best.points)")
            var text = page.wide ? model.say("best") + " " + sessionWords(best, language) : short + (short.count + points.count <= page.columns ? points : "")
            if over {
                text += page.wide ? " (" + model.say("over") + ")" : " " + model.say("over").uppercased()
            } else if isBest, soon?.underWay == true, page.wide {
                text += ", " + Words.text("word", "now", language)
            }
            page.line(text, ink: over ? .dim : .good)
        } else {
            page.paragraph(page.wide ? model.say("noSession") : model.say("noSessionShort").uppercased(), ink: .dim)
        }
        page.essentialsDone()
        guard width >= 8, panel.end > panel.start, page.remaining >= 2 else { return }
        let (counts, band, sessions) = timeline(panel, width: width)
        if page.remaining >= 4 { page.line(String(counts)) }
        band.write(on: &page)
        if page.remaining >= 2 { sessions.write(on: &page) }
        if page.remaining >= 2 { page.line(hourLabels(panel, width: width), ink: .dim) }
        let sun = panel.sunrise.map { model.say("sunSpan", $0, panel.sunset ?? "--:--") } ?? model.say("noSunrise")
        let lit =
            panel.litGapMinutes.map { model.say("litWavesEvery", "\(panel.litWaves)", fixed($0, 0) + " min") } ?? model.say("litWaves", "\(panel.litWaves)")
        page.items([sun, lit], ink: .dim)
        // Where the panel is tall enough, the coming waves one per line.
        let coming = panel.waves.filter { $0.time >= panel.now }.map { line($0, language) }
        // The heading only with room under it for the first wave.
        guard let first = coming.first, page.remaining >= 2 + PageWriter.wrapped(first, width: page.columns).count else { return }
        page.blank()
        page.line(page.wide ? model.say("coming") : model.say("coming").uppercased(), ink: .dim)
        // Each wave whole, over two lines where it is longer than the page is wide.
        for wave in coming {
            guard PageWriter.wrapped(wave, width: page.columns).count <= page.remaining else { break }
            page.lines(wave)
        }
    }

    /// When the next wave comes, in words: "in 12 min", "now", "tomorrow 08:20", "in 3 days";
    /// `within` the span alone ("12 min") while it is counted down.
    static func countdown(_ next: DisplayModel.WavesPanel.NextWave, _ language: Language) -> (words: String, within: String?) {
        let minutes = next.minutes
        if minutes < 1 { return (Words.text("word", "now", language), nil) }
        if next.days <= 0 || minutes < 180 {
            let within = minutes < 60 ? "\(minutes) min" : "\(minutes / 60) h \(minutes % 60) min"
            return (Words.text("word", "in", language, within), within)
        }
        return (next.days == 1 ? language.say("tomorrowAt", next.clock) : language.say("inDays", "\(next.days)"), nil)
    }

    /// "3 waves", "1 wave".
    static func waves(_ count: Int, _ language: Language) -> String {
        count == 1 ? language.say("oneWave") : language.say("waves", "\(count)")
    }

    /// A session in words: "10:00-12:00  5 waves  30 pts".
    static func sessionWords(_ session: DisplayModel.WavesPanel.Session, _ language: Language) -> String {
        session.span + "  " + waves(session.waves, language) + "  " + language.say("pts", "\(session.points)")
    }

    /// A coming wave's line: "10:30  3730 Thalwil  Panta Rhei  ~~~  day".
    static func line(_ wave: DisplayModel.WavesPanel.Wave, _ language: Language) -> String {
        wave.clock + "  " + wave.route + " " + wave.headsign + (wave.ship.map { "  " + $0 } ?? "") + "  " + String(repeating: "~", count: wave.count)
            + (wave.light.map { "  " + Words.text("light", $0, language) } ?? "")
    }

    /// A row of characters each with its ink.
    struct Row {
        var cells: [(Character, Ink)]
        func write(on page: inout PageWriter) {
            guard page.remaining > 0 else { return }
            for (column, cell) in cells.enumerated() where cell.0 != " " {
                page.put(String(cell.0), column: page.indent + column, row: page.row, ink: cell.1)
            }
            page.row += 1
        }
    }

    /// The timeline's three rows, `width` cells across the panel's span: the waves (the most
    /// any ship in the cell makes), the light band with the time now, the sessions (the best
    /// as #, the others as +).
    static func timeline(_ panel: DisplayModel.WavesPanel, width: Int) -> (counts: [Character], band: Row, sessions: Row) {
        let step = (panel.end - panel.start) / Double(width)
        func column(_ time: Double) -> Int? {
            guard time >= panel.start, time < panel.end else { return nil }
            return min(width - 1, Int((time - panel.start) / step))
        }
        var counts = [Character](repeating: " ", count: width)
        for wave in panel.waves {
            guard let c = column(wave.time) else { continue }
            let shown = max(1, min(3, wave.count))
            if let had = counts[c].wholeNumberValue, had >= shown { continue }
            counts[c] = Character(String(shown))
        }
        var band = (0..<width).map { c -> (Character, Ink) in
            let light = WaveDay.Light.at(panel.start + (Double(c) + 0.5) * step, latitude: panel.latitude, longitude: panel.longitude)
            return (bands[light] ?? " ", light == .day ? .accent : .dim)
        }
        if let now = column(panel.now) { band[now] = (nowMark, .warning) }
        var sessions = [(Character, Ink)](repeating: (" ", .text), count: width)
        for (rank, session) in panel.sessions.enumerated().reversed() {
            guard let first = column(max(session.start, panel.start)), let last = column(min(session.end, panel.end - 1)) else { continue }
            for c in first...max(first, last) { sessions[c] = (rank == 0 ? "#" : "+", rank == 0 ? .good : .dim) }
            sessions[first] = ("[", rank == 0 ? .good : .dim)
            if last > first { sessions[last] = ("]", rank == 0 ? .good : .dim) }
        }
        return (counts, Row(cells: band), Row(cells: sessions))
    }

    /// The hour marks under the timeline, each where its hour falls: every hour, or every 2,
    /// 3, 4, 6 or 12 where the hours are too narrow for their labels; none over another.
    static func hourLabels(_ panel: DisplayModel.WavesPanel, width: Int) -> String {
        var row = [Character](repeating: " ", count: width)
        let cellsPerHour = Double(width) / max(1, (panel.end - panel.start) / 3600)
        let every = [1, 2, 3, 4, 6, 12].first { cellsPerHour * Double($0) >= 4 } ?? 24
        var free = 0
        for mark in panel.hours where mark.hour % every == 0 {
            let c = Int((mark.time - panel.start) / (panel.end - panel.start) * Double(width))
            guard c >= free, c + mark.label.count <= width else { continue }
            for (offset, character) in mark.label.enumerated() { row[c + offset] = character }
            free = c + mark.label.count + 1
        }
        return String(row)
    }
}
