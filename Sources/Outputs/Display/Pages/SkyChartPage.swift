import Glibc
import LodestoneCore
import LodestoneDomain

/// The sky chart in text cells: a dome with north up and east to the left (the sky seen from
/// below), the horizon its rim: `*` the Sun, `C`/`D`/`O` the Moon (waning, waxing, full), the
/// planets by their initials (`m` Mercury), `X` a satellite, `+` and `.` the stars by brightness; and the
/// Sun, Moon, planets and satellite listed with their altitude and azimuth.
enum SkyChartPage {
    static func draw(_ model: DisplayModel, on page: inout PageWriter) {
        guard let chart = model.chart else {
            page.line(page.wide ? model.say("chartNeedsPlace") : model.say("noPositionYet").uppercased(), ink: .warning)
            return
        }
        let listed = chart.objects.filter { if case .star = $0.kind { return false } else { return true } }
        let rows = max(0, page.remaining - min(listed.count, 4))
        guard rows >= 5 else {
            // Too small for a dome (a 128 x 64 LCD): what is up, as a list.
            if listed.isEmpty { page.line(page.wide ? model.say("nothingUp") : model.say("nothingBrightUp").uppercased(), ink: .dim) }
            for object in listed { page.line(line(object, wide: page.wide, columns: page.columns, model.language), ink: symbol(object).1) }
            return
        }
        // A cell is about twice as tall as wide: the dome is twice as many columns as rows.
        let height = rows | 1 == rows ? rows : rows - 1
        let width = min(page.columns, height * 2 + 1)
        let radius = Double(height / 2)
        var grid = [[(Character, Ink)]](repeating: [(Character, Ink)](repeating: (" ", .text), count: width), count: height)
        let centreX = width / 2, centreY = height / 2
        for step in 0..<72 {
            let angle = Double(step) * 5 * .pi / 180
            let x = centreX + Int((radius * 2 * sin(angle)).rounded()), y = centreY + Int((radius * cos(angle)).rounded())
            if y >= 0, y < height, x >= 0, x < width { grid[y][x] = ("·", .dim) }
        }
        for (label, angle) in [("N", 0.0), ("E", 90), ("S", 180), ("W", 270)] {
            let p = SkyChart.position(altitude: 0, azimuth: angle)
            let x = centreX + Int((p.x * radius * 2).rounded()), y = centreY + Int((p.y * radius).rounded())
            if y >= 0, y < height, x >= 0, x < width, let c = label.first { grid[y][x] = (c, .accent) }
        }
        // Faint first, so the bright and the named are drawn over them.
        let ordered = chart.objects.sorted { brightness($0) < brightness($1) }
        for object in ordered {
            let p = SkyChart.position(altitude: object.altitude, azimuth: object.azimuth)
            let x = centreX + Int((p.x * radius * 2).rounded()), y = centreY + Int((p.y * radius).rounded())
            guard y >= 0, y < height, x >= 0, x < width else { continue }
            grid[y][x] = symbol(object)
        }
        for row in grid {
            guard page.remaining > 0 else { break }
            var column = page.indent
            for (character, ink) in row {
                page.put(String(character), column: column, row: page.row, ink: ink)
                column += 1
            }
            page.row += 1
        }
        for object in listed.prefix(page.remaining) {
            page.line(line(object, wide: page.wide, columns: page.columns, model.language), ink: symbol(object).1)
        }
    }

    /// One object's line, shortened until it fits: "J Jupiter  alt 11°  az 289°", "J JUPITER 11° 289°".
    static func line(_ object: SkyChart.Object, wide: Bool, columns: Int, _ language: Language = .en) -> String {
        let (alt, az) = (fixed(object.altitude, 0) + "°", fixed(object.azimuth, 0) + "°")
        let name = self.name(object, language)
        let long = "\(symbol(object).0) \(name)  " + language.say("altAz", alt, az)
        if wide && long.count <= columns { return long }
        let short = "\(symbol(object).0) \(name) \(alt) \(az)"
        return short.count <= columns ? short : "\(symbol(object).0) \(alt) \(az)"
    }

    /// The Sun's, the Moon's and a planet's name in the language ("Merkur"); a star and a
    /// satellite keep theirs.
    static func name(_ object: SkyChart.Object, _ language: Language) -> String {
        switch object.kind {
        case .sun, .moon, .planet: return Words.lookup("label." + object.name.lowercased(), language) ?? object.name
        case .star, .satellite: return object.name
        }
    }

    static func symbol(_ object: SkyChart.Object) -> (Character, Ink) {
        switch object.kind {
        case .sun: return ("*", .accent)
        case .moon(let lit, let waxing): return (lit > 0.95 ? "O" : (waxing ? "D" : "C"), .text)
        // Mercury in lower case: Mars has the M.
        case .planet: return (object.name == "Mercury" ? "m" : (object.name.first ?? "P"), .good)
        case .satellite: return ("X", .warning)
        case .star(let magnitude): return (magnitude < 1.5 ? "+" : ".", magnitude < 1.5 ? .text : .dim)
        }
    }

    /// Drawing order: stars by magnitude, then planets, satellite, Moon and Sun on top.
    static func brightness(_ object: SkyChart.Object) -> Double {
        switch object.kind {
        case .star(let magnitude): return -magnitude
        case .planet: return 10
        case .satellite: return 11
        case .moon: return 12
        case .sun: return 13
        }
    }
}
