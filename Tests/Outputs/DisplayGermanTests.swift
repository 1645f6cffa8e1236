import LodestoneCore
import LodestoneDomain
import LodestoneHAL
@testable import LodestoneOutputs
import LodestoneReports
import Testing

/// Every word the display and the terminal show is the table of words', in German too: every
/// page drawn in German on the panels and the terminals of `FacesTests` (the walk, the boat and
/// the lakeside station) shows no English word, and every key a page says has its entry. The
/// fixtures' names (stops, ships, waypoints, probes, tasks, stars, the device) are data, and
/// shown as they are.
@Suite struct DisplayGermanTests {
    /// The English a German page must not show, in lower case: each word of four letters or
    /// more of the table's English entries where the German differs (and no German entry has
    /// the word too), and the common words of a label.
    static let english: Set<String> = {
        var german: Set<String> = []
        for entry in Words.table { german.formUnion(words(entry.de ?? "").map { $0.lowercased() }) }
        var out: Set<String> = []
        for entry in Words.table where entry.de != nil && entry.de != entry.en {
            out.formUnion(words(entry.en).map { $0.lowercased() }.filter { $0.count >= 4 && !german.contains($0) })
        }
        return out.union(common.map { $0.lowercased() })
    }()

    /// The words of a label a person would read in English, whether or not the table has them.
    static let common = [
        "Distance", "Speed", "Accuracy", "Elevation", "Steps", "Floors", "Active", "Clients", "Loop", "Lateness", "Water", "Air", "Next", "Best",
        "Coming", "Calibrate", "Scan", "Waiting", "satellites", "sats", "course", "moving", "Points", "Average", "Climb", "Time", "waves", "wave",
        "today", "none", "Heading", "Level", "Lock", "Pressure", "Sampling", "Magnetic", "True", "Confidence", "Fix", "Wear", "Suit", "Log", "task",
        "overrun", "overruns", "skip", "skips", "Swing", "tilt", "roll", "pitch", "Mercury", "Sun", "Moon", "Only", "marked", "departure", "stop",
        "phone", "good", "once", "more", "sunrise", "lit", "every", "over", "pts", "up", "down", "walking", "running", "off", "data", "directory",
        "late", "retrying", "rejected", "the", "and", "with", "from", "yet", "for", "no"
    ]

    /// Runs of letters: the words of a text.
    static func words(_ text: String) -> [String] {
        var out: [String] = [], word = ""
        for character in text + " " {
            if character.isLetter {
                word.append(character)
            } else if !word.isEmpty {
                out.append(word)
                word = ""
            }
        }
        return out
    }

    /// The names a fixture carries, each word of them in lower case: shown as they are in
    /// every language.
    static func names(_ model: DisplayModel) -> Set<String> {
        var texts = [model.title]
        if let departures = model.departures {
            texts += [departures.stop] + departures.rows.flatMap { [$0.route, $0.headsign, $0.mark ?? ""] }
        }
        if let waves = model.waves { texts += [waves.stop] + waves.waves.flatMap { [$0.route, $0.headsign, $0.ship ?? ""] } }
        if let track = model.track { texts += [track.name ?? ""] + track.waypoints.map(\.name) }
        if let navigation = model.navigation { texts.append(navigation.waypoint) }
        // A probe is named by its owner, except the water and the air the table has words for.
        texts += (model.station?.temperatures ?? []).map(\.name).filter { !["water", "air"].contains($0) }
        texts += model.health.tasks.map(\.name) + model.health.log
        // The stars and a satellite keep their names; the Sun, the Moon and the planets have words.
        for object in model.chart?.objects ?? [] {
            switch object.kind {
            case .star, .satellite: texts.append(object.name)
            case .sun, .moon, .planet: break
            }
        }
        return Set(texts.flatMap(words).map { $0.lowercased() })
    }

    /// The English words in `text` that are not the fixture's names; a command's option
    /// ("--data-dir") is what a person types, not words.
    static func english(in text: String, names: Set<String>) -> [String] {
        let prose = text.split(separator: " ").filter { !$0.drop { "(\"'".contains($0) }.hasPrefix("--") }.joined(separator: " ")
        return words(prose).filter { english.contains($0.lowercased()) && !names.contains($0.lowercased()) && !points.contains($0) }
    }

    /// The compass points as German writes them, in capitals as they stand ("NO" is north-east,
    /// not the English "no").
    static let points = Set(Words.table.filter { $0.key.hasPrefix("point.") }.compactMap(\.de))

    static var germanModels: [(String, DisplayModel)] { FacesTests.models().filter { $0.1.language == .de } }

    @Test func noEnglishOnAGermanPanel() {
        var problems: [String] = []
        for (name, model) in Self.germanModels {
            let names = Self.names(model)
            for (place, text, _) in FacesTests.panelTexts(name, model) {
                let found = Self.english(in: text, names: names)
                if !found.isEmpty { problems.append("\(place) \"\(text)\": \(found)") }
            }
        }
        #expect(problems.isEmpty, "\(problems.count) English texts in German, the first: \(problems.prefix(20).joined(separator: "\n"))")
    }

    @Test func noEnglishOnAGermanTerminal() {
        var problems: [String] = []
        for (name, model) in Self.germanModels {
            let names = Self.names(model)
            for (place, line) in FacesTests.terminalLines(name, model) {
                let found = Self.english(in: line, names: names)
                if !found.isEmpty { problems.append("\(place) \"\(line)\": \(found)") }
            }
        }
        #expect(problems.isEmpty, "\(problems.count) English lines in German, the first: \(problems.prefix(20).joined(separator: "\n"))")
    }

    /// The German words where English would be: the check itself finds English and lets the
    /// German and the fixture's names pass.
    @Test func theCheckFindsEnglish() {
        let names = Self.names(DisplayFixtures.walk)
        #expect(Self.english(in: "Distance 5.2 km", names: names) == ["Distance"])
        #expect(Self.english(in: "Next wave: 15:20  3 waves  in 20 min", names: names) == ["Next", "wave", "waves"])
        #expect(Self.english(in: "Calibrate: ±19°", names: names) == ["Calibrate"])
        #expect(Self.english(in: "Tracks brauchen ein Datenverzeichnis (--data-dir)", names: names).isEmpty)
        #expect(Self.english(in: "Strecke 5.2 km", names: names).isEmpty)
        #expect(Self.english(in: "Nächste Welle: 15:20  3 Wellen  in 20 min", names: names).isEmpty)
        // A name is data: the waypoint "Summit", the stop, a ship.
        #expect(Self.english(in: "Nach Summit  2.9 km  28°", names: names).isEmpty)
        #expect(Self.english(in: "Interlaken West  Do 11-26", names: names).isEmpty)
    }

    /// Every key a page, a drawing or the terminal says (`say("…")`, either key of a choice, a
    /// list said one by one, the scheduler table's columns) has its entry: a missing one fails
    /// here, never reads as a key on a person's page.
    @Test func everyKeyTheDisplaySaysHasItsWords() throws {
        var root = #filePath
        for _ in 0..<3 { root = String(root[..<(root.lastIndex(of: "/") ?? root.startIndex)]) }
        var files: [String] = []
        for folder in ["Sources/Outputs/Display", "Sources/Outputs/Display/Pages", "Sources/Outputs/Display/Graphics", "Sources/Outputs/Terminal"] {
            files += directoryEntries(root + "/" + folder).filter { $0.hasSuffix(".swift") }.map { root + "/" + folder + "/" + $0 }
        }
        #expect(files.count > 20, "the display's sources under \(root)")
        var keys: [String] = []
        for file in files { keys += Self.keys(in: try readTextFile(file, limit: 1 << 22)) }
        #expect(keys.count > 100, "\(keys.count) keys found")
        // The codes a page says through a figure: the fix's warnings, the planets, the suits, the weekdays.
        keys += ["sun", "moon"] + Planet.allCases.prefix(5).map(\.rawValue)
        keys += (0...5).map { "wetsuit\($0)" } + ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"].map { "weekday" + $0 } + ["water", "air"]
        var missing = Set(keys.filter { !Words.has("label." + $0) }).sorted()
        missing += FixQuality.Warning.allCases.map(\.rawValue).filter { !Words.has("fixAdvice." + $0) }
        #expect(missing.isEmpty, "no entry label.<key> for \(missing)")
    }

    /// The keys said in `source`: the literals of each `.say(` call's first argument, the
    /// literals of a list each of whose items is said (`[...].map { model.say($0)`), and the
    /// scheduler table's columns (`("task", 10)`).
    static func keys(in source: String) -> [String] {
        let characters = Array(source)
        var keys: [String] = []
        func isKey(_ text: String) -> Bool { text.first?.isLowercase == true && text.allSatisfy { $0.isLetter || $0.isNumber } }
        func literals(_ text: ArraySlice<Character>) -> [String] {
            String(text).split(separator: "\"", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
        }
        var index = 0
        while index + 4 < characters.count {
            defer { index += 1 }
            guard index > 0, characters[index - 1] == ".", String(characters[index..<(index + 4)]) == "say(" else { continue }
            // The first argument: to the first comma or closing parenthesis outside a string.
            var end = index + 4, depth = 0, inString = false
            while end < characters.count {
                let character = characters[end]
                if character == "\\" {
                    end += 2
                    continue
                }
                if character == "\"" { inString.toggle() }
                if !inString {
                    if character == "(" { depth += 1 }
                    if character == ")" || character == "," {
                        if depth == 0 { break }
                        if character == ")" { depth -= 1 }
                    }
                }
                end += 1
            }
            keys += literals(characters[(index + 4)..<min(end, characters.count)]).filter(isKey)
        }
        // Lists said item by item.
        for piece in source.split(separator: "\n") where piece.contains("].map { model.say($0)") || piece.contains("].map { language.say($0)") {
            guard let open = piece.firstIndex(of: "["), let close = piece.firstIndex(of: "]"), open < close else { continue }
            keys += literals(Array(piece[open...close])[...]).filter(isKey)
        }
        // The scheduler table's columns, by their keys ("Hz" is a unit).
        for piece in source.split(separator: "(\"").dropFirst() {
            let parts = piece.split(separator: "\"", maxSplits: 1)
            guard parts.count == 2, let key = parts.first, let rest = parts.last, rest.hasPrefix(", "), rest.dropFirst(2).first?.isNumber == true else {
                continue
            }
            if isKey(String(key)) && key != "hz" { keys.append(String(key)) }
        }
        return keys
    }
}
