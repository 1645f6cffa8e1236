import LodestoneCore
import LodestoneDomain
import LodestoneReports

/// The sky on the running device, for the observer's place (the GPS position, else the
/// configured one): a SUN report each minute, EVENTs at sunrise, sunset and the start of the
/// golden and blue hours, and the lines the display shows.
package final class SkyService {
    /// The device's local time, whose zone the sky's days and times are in.
    package let localClock: LocalClock
    package var zone: TimeZoneRules { localClock.zone }
    /// The local clock's change the cached day was worked out in.
    private var dayGeneration = 0
    let configured: (latitude: Double, longitude: Double)?
    /// The last place a fix gave (kept across restarts), the sky's place when there is
    /// neither a fix nor a configured observer.
    package var lastKnown: (latitude: Double, longitude: Double, time: Double)?
    /// Today's sky at the observer's place, worked out once a day (and on a move of 10 km);
    /// and without a place, the figures that need none, once a UTC day.
    private var day: SkyDay?
    private var placelessDay: SkyDay?
    /// The day's events a person is told about (`marks`), worked out with the day.
    private var todayMarks: [(String, Double)] = []
    private var lastTick = Double.nan
    private var lastReport = -Double.infinity
    /// The sky page's figures, recomputed every 30 s (the seasons and the Moon take thousands
    /// of series terms; a display redrawing four times a second needs only the countdown).
    private var cachedPanel: (panel: SkyPanel, time: Double, next: Double?, latitude: Double, longitude: Double)?

    package init(clock: LocalClock, observer: (latitude: Double, longitude: Double)?) {
        localClock = clock
        configured = observer
    }

    package convenience init(zone: TimeZoneRules, observer: (latitude: Double, longitude: Double)?) {
        self.init(clock: LocalClock(zone: zone), observer: observer)
    }

    /// Where the observer's place comes from, as SUN and the sky page say it.
    package enum PlaceSource: String {
        case fix, configured, lastFix
    }

    /// The observer: the fix's position, else the configured place, else the last fix's.
    package func observer(_ state: NavigationState) -> (latitude: Double, longitude: Double)? {
        place(state).map { ($0.latitude, $0.longitude) }
    }

    package func place(_ state: NavigationState) -> (latitude: Double, longitude: Double, source: PlaceSource)? {
        // The fix, else the last one (kept across restarts), else the configured place.
        if state.fix.hasPosition { return (state.fix.latitude, state.fix.longitude, .fix) }
        if let lastKnown { return (lastKnown.latitude, lastKnown.longitude, .lastFix) }
        return configured.map { ($0.latitude, $0.longitude, .configured) }
    }

    /// Once a second: EVENTs for the sun events passed since the last call, and a SUN report
    /// once a minute.
    package func tick(_ state: NavigationState, time: Double) -> [Report] {
        var reports: [Report] = []
        tick(state, time: time) { reports.append($0) }
        return reports
    }

    /// `tick`, each report handed to `send` as it is made (nothing gathered: the output thread
    /// calls this every second).
    package func tick(_ state: NavigationState, time: Double, send: (Report) -> Void) {
        guard let located = place(state) else { return }
        let place = (latitude: located.latitude, longitude: located.longitude)
        let day = today(time: time, place: place)
        if lastTick.isFinite && time > lastTick && time - lastTick < 120 {
            for (kind, instant) in todayMarks where instant > lastTick && instant <= time {
                send(.event(EventReport(.sky(kind: kind, at: instant, zone: zone), time: time)))
            }
        }
        lastTick = time
        if time - lastReport >= 60 {
            lastReport = time
            var sun = report(day, time: time)
            sun.placeSource = located.source.rawValue
            send(.sun(sun))
        }
    }

    /// The events a person is told about, by name.
    static func marks(_ e: SunEvents) -> [(String, Double)] {
        [
            ("blueHourMorningStart", e.blueHourMorning.start), ("sunrise", e.sunrise), ("goldenHourMorningStart", e.goldenHourMorning.start),
            ("goldenHourEveningStart", e.goldenHourEvening.start), ("sunset", e.sunset), ("blueHourEveningStart", e.blueHourEvening.start)
        ]
        .compactMap { name, t in t.map { (name, $0) } }
    }

    /// The local day's sky, worked out once a day (or when the observer moved 10 km).
    private func today(time: Double, place: (latitude: Double, longitude: Double)) -> SkyDay {
        // A day worked out in another zone (the setting changed) is another day.
        if let day, dayGeneration == localClock.generation, day.holds(time, latitude: place.latitude, longitude: place.longitude) { return day }
        dayGeneration = localClock.generation
        let (start, end) = localDay(containing: time)
        let fresh = SkyDay(dayFrom: start, to: end, latitude: place.latitude, longitude: place.longitude)
        day = fresh
        todayMarks = Self.marks(fresh.events)
        later = nil
        return fresh
    }

    /// The local day holding `time`: its first and last instants.
    private func localDay(containing time: Double) -> (start: Double, end: Double) {
        let local = CivilTime(unixSeconds: time + Double(zone.offset(at: time)))
        let start = zone.midnight(year: local.year, month: local.month, day: local.day)
        let next = CivilTime.civil(fromDays: CivilTime.days(year: local.year, month: local.month, day: local.day) + 1)
        return (start, zone.midnight(year: next.year, month: next.month, day: next.day))
    }

    /// The first events after today's: of each kind, those of the next local day that has any
    /// (tomorrow, except in a polar night or day, which can last months), found once a day.
    private var later: (marks: [(String, Double)], others: [(String, Double)])?
    static let lookAheadDays = 200

    private func laterEvents(place: (latitude: Double, longitude: Double)) -> (marks: [(String, Double)], others: [(String, Double)]) {
        if let later { return later }
        var found: (marks: [(String, Double)], others: [(String, Double)]) = ([], [])
        var end = day?.end ?? 0
        for _ in 0..<Self.lookAheadDays {
            let (start, next) = localDay(containing: end + 1)
            let events = SunEvents.of(dayFrom: start, to: next, latitude: place.latitude, longitude: place.longitude)
            if found.marks.isEmpty { found.marks = Self.marks(events) }
            if found.others.isEmpty { found.others = Self.others(events) }
            if !found.marks.isEmpty && !found.others.isEmpty { break }
            end = next
        }
        later = found
        return found
    }

    /// Twilight's ends and noon: the page counts down to these too.
    static func others(_ e: SunEvents) -> [(String, Double)] {
        [("civilDusk", e.civilDusk), ("civilDawn", e.civilDawn), ("solarNoon", e.solarNoon)].compactMap { name, t in t.map { (name, $0) } }
    }

    /// The first of `events` after `time`.
    private static func first(after time: Double, _ events: [(String, Double)]) -> (name: String, time: Double)? {
        var first: (name: String, time: Double)?
        for (name, instant) in events where instant > time && instant < first?.time ?? .infinity { first = (name, instant) }
        return first
    }

    /// The next sun event after `time`: today's, else the next day's (after the day's last
    /// event the page counts down to tomorrow's dawn, never to nothing).
    func nextEvent(time: Double, state: NavigationState) -> (name: String, time: Double)? {
        guard let place = observer(state) else { return nil }
        let events = today(time: time, place: place).events
        if let next = Self.first(after: time, Self.marks(events) + Self.others(events)) { return next }
        let later = laterEvents(place: place)
        return Self.first(after: time, later.marks + later.others)
    }

    /// SUN: the Sun now, the day's rise and set, the next event (tomorrow's after the day's
    /// last), the Moon's phase.
    func report(_ day: SkyDay, time: Double) -> SunReport {
        let sun = day.sunPosition(at: time)
        let events = day.events
        let place = (latitude: day.latitude, longitude: day.longitude)
        // Today's marks are kept with the day (made once, not at each minute's report).
        let isToday = self.day.map { $0.start == day.start && $0.latitude == day.latitude && $0.longitude == day.longitude } ?? false
        let marks = isToday ? todayMarks : Self.marks(events)
        let next = Self.first(after: time, marks) ?? Self.first(after: time, laterEvents(place: place).marks)
        return SunReport(
            time: time, zone: zone, latitude: place.latitude, longitude: place.longitude, altitude: sun.apparentAltitude,
            azimuth: sun.azimuth, light: SunEvents.light(altitude: sun.altitude).rawValue,
            sunrise: events.sunrise, sunset: events.sunset, dayLength: events.dayLength,
            next: next.map { SunReport.Next(event: $0.name, time: $0.time) },
            moonPhase: MoonPhases.name(elongation: day.moonElongation(at: time)), moonIllumination: day.moonIllumination(at: time))
    }

    /// What the sky page shows: the next event with its countdown, the day's events, the Sun,
    /// the Moon and the season's countdown and progress.
    package func panel(_ state: NavigationState, time: Double) -> SkyPanel? {
        guard let place = observer(state) else { return placeless(time: time) }
        if let cached = cachedPanel, dayGeneration == localClock.generation, time >= cached.time, time - cached.time < 30,
            cached.next.map({ time < $0 }) ?? true,
            abs(cached.latitude - place.latitude) < 0.01, abs(cached.longitude - place.longitude) < 0.01
        {
            var panel = cached.panel
            if let next = panel.next, let at = cached.next { panel.next = (next.name, next.clock, at - time) }
            return panel
        }
        let fresh = computePanel(place, state: state, time: time)
        cachedPanel = (fresh, time, fresh.next.map { time + $0.seconds }, place.latitude, place.longitude)
        return fresh
    }

    private func computePanel(_ place: (latitude: Double, longitude: Double), state: NavigationState, time: Double) -> SkyPanel {
        let day = today(time: time, place: place)
        let events = day.events
        func clock(_ t: Double?) -> String? { t.map(localClock.timeOfDay) }
        func span(_ s: SunEvents.Span) -> String? {
            guard let start = clock(s.start), let end = clock(s.end) else { return clock(s.start) ?? clock(s.end) }
            return start + "-" + end
        }
        var panel = SkyPanel()
        if let next = nextEvent(time: time, state: state) { panel.next = (next.name, clock(next.time) ?? "--:--", next.time - time) }
        panel.events = [
            ("astronomicalDawn", clock(events.astronomicalDawn)), ("nauticalDawn", clock(events.nauticalDawn)),
            ("civilDawn", clock(events.civilDawn)), ("blueHourMorning", span(events.blueHourMorning)),
            ("sunrise", clock(events.sunrise)), ("goldenHourMorning", span(events.goldenHourMorning)),
            ("solarNoon", clock(events.solarNoon)), ("goldenHourEvening", span(events.goldenHourEvening)),
            ("sunset", clock(events.sunset)), ("blueHourEvening", span(events.blueHourEvening)),
            ("civilDusk", clock(events.civilDusk)), ("nauticalDusk", clock(events.nauticalDusk)),
            ("astronomicalDusk", clock(events.astronomicalDusk))
        ].map { SkyPanel.Moment(name: $0.0, clock: $0.1) }
        panel.dayLength = events.dayLength
        let sun = day.sunPosition(at: time)
        (panel.sunAltitude, panel.sunAzimuth) = (sun.apparentAltitude, sun.azimuth)
        switch self.place(state)?.source {
        case .configured?: panel.placeNote = .configured
        case .lastFix?: panel.placeNote = .lastFix(date: String(zone.iso8601(lastKnown?.time ?? time).prefix(10)))
        default: break
        }
        panel.light = SunEvents.light(altitude: sun.altitude).rawValue
        fillMoonAndSeason(&panel, day: day, time: time, northern: place.latitude >= 0)
        return panel
    }

    /// Without any place: what needs none (the Moon, the season as the north has it), and how
    /// to give one.
    private func placeless(time: Double) -> SkyPanel {
        var panel = SkyPanel()
        panel.located = false
        panel.placeNote = .unknown
        if placelessDay.map({ !$0.holds(time, latitude: 0, longitude: 0) }) ?? true {
            let midnight = (time / 86_400).rounded(.down) * 86_400
            placelessDay = SkyDay(dayFrom: midnight, to: midnight + 86_400, latitude: 0, longitude: 0)
        }
        if let placelessDay { fillMoonAndSeason(&panel, day: placelessDay, time: time, northern: true) }
        return panel
    }

    /// The Moon's phase and the season with its countdown and progress: the parts of the page
    /// that need no place but the hemisphere.
    private func fillMoonAndSeason(_ panel: inout SkyPanel, day: SkyDay, time: Double, northern: Bool) {
        panel.moonPhase = MoonPhases.name(elongation: day.moonElongation(at: time))
        panel.moonIllumination = day.moonIllumination(at: time)
        panel.moonAge = day.moonAge(at: time)
        if let season = day.nextSeason(after: time) {
            panel.nextSeason = season.event.season(northern: northern)
            panel.daysUntilSeason = zone.localDays(from: time, to: season.time)
        }
        if let progress = day.season(at: time, northern: northern) {
            panel.season = progress.season
            panel.seasonProgress = progress.elapsed / progress.total
        }
    }
}
