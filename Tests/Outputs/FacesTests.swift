import LodestoneCore
import LodestoneDomain
import LodestoneHAL
@testable import LodestoneOutputs
import LodestoneReports
import Testing

/// Every display page, as the panel draws it at 320x240, 480x320 and 800x480 and as the
/// terminal writes it, on the walk, the boat and the lakeside station, in English and in
/// German: no visible text is a code, a JSON fragment, `NaN`, `null`, `nil`, an exponent or a
/// unit in one letter or in capitals (`VisibleText`); and every code a face shows has its
/// words in the one table.
@Suite struct FacesTests {
    static let panels = [(320, 240), (480, 320), (800, 480)]
    static let terminals = [(80, 24), (21, 8), (40, 20)]

    /// The fixtures as the device fills them, with the states a person meets on a day out: an
    /// alert given, a track stopped, the sampling saving power.
    static func models() -> [(String, DisplayModel)] {
        var out: [(String, DisplayModel)] = []
        for (name, base) in [("walk", DisplayFixtures.walk), ("boat", DisplayFixtures.boat), ("lakeside", DisplayFixtures.lakeside)] {
            for language in Language.allCases {
                var model = base
                model.language = language
                out.append(("\(name) \(language.rawValue)", model))
                let alert = AlertRules.Alert(kind: .pressureHigh, value: 1041.2, threshold: 1040, time: 0)
                model.alert = alert.message(language)
                model.track?.state = "stopped"
                model.health.profile = "walking/lowPower+shed"
                model.sky?.daysUntilSeason = 0
                out.append(("\(name) \(language.rawValue), alert and track stopped", model))
            }
        }
        return out
    }

    /// Every text each page draws for `model` on the three panels: where, the text, and
    /// whether the page cut it to fit.
    static func panelTexts(_ name: String, _ model: DisplayModel) -> [(place: String, text: String, clipped: Bool)] {
        var texts: [(place: String, text: String, clipped: Bool)] = []
        for page in DisplayPage.allCases {
            for (width, height) in panels {
                let frame = MemoryFramebuffer(width: width, height: height, format: .rgb565)
                (frame.textRuns, frame.drawnBoxes) = ([], [])
                GraphicPages.draw(page, model, theme: .day, on: frame)
                texts += (frame.textRuns ?? []).map { ("\(name) \(page) \(width)x\(height)", $0.text, $0.clipped) }
            }
        }
        return texts
    }

    /// Every line each page writes for `model` on the three terminals, with the keys.
    static func terminalLines(_ name: String, _ model: DisplayModel) -> [(place: String, text: String)] {
        var lines: [(place: String, text: String)] = []
        for page in DisplayPage.allCases {
            for (columns, rows) in terminals {
                let screen = page.draw(model, columns: columns, rows: rows, keys: true)
                lines += (0..<rows).map { ("\(name) \(page) \(columns)x\(rows)", screen.line($0)) }
            }
        }
        return lines
    }

    @Test func noCodeOnAnyPanel() {
        var problems: [String] = []
        for (name, model) in Self.models() {
            for (place, text, clipped) in Self.panelTexts(name, model) {
                for problem in VisibleText.problems(in: text) { problems.append("\(place) \"\(text)\": \(problem)") }
                // The German words, often longer, fit as the English do: none cut.
                if clipped { problems.append("\(place) \"\(text)\": cut to fit") }
            }
        }
        #expect(problems.isEmpty, "\(problems.count) problems, the first: \(problems.prefix(12).joined(separator: "\n"))")
    }

    @Test func noCodeOnTheTerminal() {
        var problems: [String] = []
        for (name, model) in Self.models() {
            for (place, line) in Self.terminalLines(name, model) {
                for problem in VisibleText.problems(in: line) { problems.append("\(place) \"\(line)\": \(problem)") }
            }
        }
        #expect(problems.isEmpty, "\(problems.count) problems, the first: \(problems.prefix(12).joined(separator: "\n"))")
    }

    /// The track page says which key or button starts a track, never a request's syntax.
    @Test func theTerminalSaysHowToStartATrack() {
        var model = DisplayFixtures.walk
        model.track?.state = "stopped"
        let text = DisplayPage.track.draw(model, columns: 80, rows: 24).text
        #expect(text.contains("track button") && text.contains("r on the terminal") && !text.contains("?TRACK"), "\(text)")
    }

    /// The words on the barometer page: the trend as an arrow and words, the forecast as its
    /// sentence, in the language chosen.
    @Test func theTrendInWords() {
        var model = DisplayFixtures.walk
        let english = DisplayPage.barometer.draw(model, columns: 80, rows: 24).text
        #expect(english.contains("↓ falling, 0.7 hPa an hour") && english.contains("Weather deteriorating"), "\(english)")
        model.language = .de
        let german = DisplayPage.barometer.draw(model, columns: 80, rows: 24).text
        #expect(german.contains("↓ fällt, 0.7 hPa pro Stunde") && german.contains("Wetter verschlechtert sich"), "\(german)")
    }

    /// Every code the device gives a face has its entry: a new band, rule, state or letter
    /// without words fails here, not on a person's screen.
    @Test func everyCodeHasItsWords() {
        var codes: [String] = []
        codes += ["risingFast", "rising", "steady", "falling", "fallingFast"].map { "trend.\($0)" }
        codes += ["risingFast", "rising", "steady", "falling", "fallingFast"].map { "forecast.\($0)" }
        codes += [PressureTrend.Band.risingFast, .rising, .steady, .falling, .fallingFast].map { "trend.\($0.rawValue)" }
        codes += AlertRules.Kind.allCases.map { "alertRule.\($0.rawValue)" }
        codes += MotionState.allCases.map { "motion.\($0.rawValue)" }
        codes += CalibrationStatus.allCases.map { "calibration.\($0.rawValue)" }
        codes += (0..<26).compactMap { UnicodeScalar(65 + $0).map { "zambretti.\(Character($0))" } }
        codes += ["stopped", "recording", "paused"].map { "track.\($0)" }
        codes += [SensorHealth.absent, .ok, .degraded].map { "health.\($0.name)" }
        codes += [SunEvents.Light.day, .civilTwilight, .night].map { "light.\($0.rawValue)" }
        codes += [WaveDay.Light.day, .twilight, .dark].map { "light.\($0.rawValue)" }
        codes += (0..<8).map { "moon.\(MoonPhases.name(elongation: Double($0) * 45 + 20))" }
        codes += ["spring", "summer", "autumn", "winter"].map { "season.\($0)" }
        codes += DisplayFixtures.walk.sky.map { $0.events.map { "sky.\($0.name)" } + $0.events.map { "skyShort.\($0.name)" } } ?? []
        let missing = codes.filter { !Words.has($0) }
        #expect(missing.isEmpty, "no words for \(missing)")
    }

    /// The checker itself: it finds each kind of code it names and leaves figures, units and a
    /// revision hash alone.
    @Test func theCheckFindsCodesAndLeavesFiguresAlone() {
        for code in ["fallingFast", "1e+05", "2.5E-3", "NaN", "{\"a\":1}", "1040 HPA", "6M"] {
            #expect(!VisibleText.problems(in: "pressure \(code) now").isEmpty, "\(code) passed")
        }
        for fine in ["1013.2 hPa", "Version 0.3.0 (280e82ab41f0)", "280e82", "46°41'10.7", "5 min"] {
            #expect(VisibleText.problems(in: "pressure \(fine) now").isEmpty, "\(fine): \(VisibleText.problems(in: fine))")
        }
    }
}
