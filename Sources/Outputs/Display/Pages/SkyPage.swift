import LodestoneCore
import LodestoneReports
/// The sky page: the next sun event with its countdown, the day's events, the Moon, and the
/// season with its countdown and progress.
enum SkyPage {
    /// Names as a person reads them, long and for a 21-column screen, from the table of words:
    /// the morning's and the evening's starts of a span share their span's name.
    static func label(_ name: String, compact: Bool, _ language: Language = .en) -> String {
        let code = name.hasSuffix("Start") ? String(name.dropLast(5)) : name
        return Words.text(compact ? "skyShort" : "sky", code, language)
    }

    static func draw(_ model: DisplayModel, on page: inout PageWriter) {
        guard let sky = model.sky else {
            page.line(model.say(page.wide ? "skyNeedsPlace" : "noPositionYet"), ink: .warning)
            return
        }
        let wide = page.wide
        guard sky.located else {
            if wide {
                page.paragraph(sky.placeNote.map { note(for: $0, model.language) } ?? model.say("noPlaceYet"), ink: .warning)
            } else {
                page.line(model.say("noPlaceFix"), ink: .warning)
                page.line(model.say("noPlaceObserver"), ink: .warning)
            }
            drawMoonAndSeason(sky, wide: wide, model.language, on: &page)
            return
        }
        if let next = sky.next {
            // The next event is the page's key figure: its name and time large, the countdown under it.
            let name = Words.capitalized(label(next.name, compact: !wide, model.language))
            page.headline(name + " " + next.clock)
            page.line(model.say(wide ? "nextSkyEvent" : "next", countdown(next.seconds, compact: !wide)), ink: .accent)
        } else {
            // Only in a polar night or day longer than the half year the device looks ahead.
            page.line(model.say(wide ? "noSunEvent" : "noSunEventShort"), ink: .accent)
        }
        // A place that is not the fix's is said, so nobody reads another place's times as theirs.
        if let place = sky.placeNote { page.paragraph(note(for: place, model.language), ink: .warning) }
        if wide {
            let language = model.language, width = labelWidth(language)
            let sun = language.say("sunPosition", "\(fixed(sky.sunAltitude, 1))°", "\(fixed(sky.sunAzimuth, 0))°")
            page.field(language.say("sun"), sun + "  " + Words.text("light", sky.light, language), labelWidth: width)
            page.field(language.say("day"), sky.dayLength.isFinite ? countdown(sky.dayLength) : "--", labelWidth: width)
        } else {
            let rise = sky.events.first { $0.name == "sunrise" }?.clock ?? "--:--"
            let set = sky.events.first { $0.name == "sunset" }?.clock ?? "--:--"
            page.line(model.say("rise", rise, set))
        }
        drawMoonAndSeason(sky, wide: wide, model.language, on: &page)
        page.essentialsDone()
        guard page.remaining > 0 else { return }
        // The day's events in time order, two to a row when the screen is wide enough.
        let cell = wide ? 30 : page.columns
        let perRow = max(1, page.columns / cell)
        let entries = sky.events.map { event -> (Ink, String) in
            let name = label(event.name, compact: !wide, model.language), clock = event.clock ?? "--"
            // A span ("07:03-07:15") beside a long name on a narrow page keeps its start.
            let shown = name.count + 1 + clock.count > cell ? String(clock.prefix(5)) : clock
            return (event.clock == nil ? .dim : .text, pad(name, max(name.count + 1, min(wide ? 18 : 11, cell - shown.count))) + shown)
        }
        var index = 0
        while index < entries.count, page.remaining > 0 {
            let row = page.row
            // An entry longer than its cell (a long German name) takes the cells after it too.
            var slot = 0
            while slot < perRow, index < entries.count, slot == 0 || slot * cell + entries[index].1.count <= page.columns {
                page.put(entries[index].1, column: slot * cell, row: row, ink: entries[index].0)
                slot += entries[index].1.count / cell + 1
                index += 1
            }
            page.blank()
        }
    }

    static func drawMoonAndSeason(_ sky: SkyPanel, wide: Bool, _ language: Language, on page: inout PageWriter) {
        let percent = sky.moonIllumination.isFinite ? "\(Int((sky.moonIllumination * 100).rounded()))%" : "--"
        let moon = language.say("moon"), season = language.say("season"), width = labelWidth(language)
        if wide {
            let age = sky.moonAge.isFinite ? "  " + language.say("moonAge", fixed(sky.moonAge, 1)) : ""
            page.wrappedField(moon, "\(Words.text("moon", sky.moonPhase, language)) \(percent)\(age)", labelWidth: width)
            let countdown = Words.seasonCountdown(sky.nextSeason, days: sky.daysUntilSeason, language)
            let progress =
                "\(progressBar(sky.seasonProgress, width: 14)) "
                + Words.text(
                    "label", "seasonProgress", language, sky.seasonProgress.isFinite ? "\(Int((sky.seasonProgress * 100).rounded()))%" : "--",
                    Words.text("season", sky.season, language))
            if page.columns >= 60 {
                page.wrappedField(season, countdown + "  " + progress, labelWidth: width)
            } else {
                page.field(season, countdown, labelWidth: width)
                page.wrappedField("", progress, labelWidth: width)
            }
        } else {
            page.paragraph("\(moon) \(percent) \(Words.text("moon", sky.moonPhase, language))")
            page.line(Words.seasonCountdown(sky.nextSeason, days: sky.daysUntilSeason, language))
            page.line(progressBar(sky.seasonProgress, width: 12) + " \(Words.text("season", sky.season, language))")
        }
    }

    /// Where the sky is for, when not at the fix: "at the configured place".
    static func note(for place: SkyPanel.PlaceNote, _ language: Language) -> String {
        switch place {
        case .configured: return language.say("atConfiguredPlace")
        case .lastFix(let date): return language.say("atLastFix", date)
        case .unknown: return language.say("noPlaceAdvice")
        }
    }

    /// The labels' column: as wide as the longest label in the language, and a space.
    static func labelWidth(_ language: Language) -> Int {
        max(7, ["sun", "day", "moon", "season"].map { language.say($0).count + 1 }.max() ?? 0)
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}
