import LodestoneCore
import LodestoneDomain
import Testing

/// The lakeside day's rules, each on waves made here: points, light against the project's own
/// sunrise and sunset, sessions at the edges of 60 and 120 minutes and of a 60-minute gap, dark
/// and twilight waves, the choice of up to three sessions, the frequency by local hour.
@Suite struct WaveDayTests {
    static let start = 1_782_028_800.0  // 2026-06-21 08:00 UTC
    static func wave(_ minutes: Double, _ waves: Int = 1, _ light: WaveDay.Light = .day) -> WaveDay.Wave {
        WaveDay.Wave(time: start + minutes * 60, waves: waves, light: light)
    }

    @Test func pointsPerShip() {
        #expect([1, 2, 3].map(WaveDay.points(waves:)) == [2, 5, 10])
        #expect(Self.wave(0, 3, .twilight).sessionScore == 2 && Self.wave(0, 2).sessionScore == 5)
    }

    /// The light switches where the project's own sky puts sunrise, sunset and civil dusk.
    @Test func lightFollowsTheSunEvents() throws {
        let (lat, lon) = (47.3655, 8.5410)
        let day = SunEvents.of(dayFrom: 1_782_000_000, to: 1_782_086_400, latitude: lat, longitude: lon)
        let sunrise = try #require(day.sunrise), sunset = try #require(day.sunset), dusk = try #require(day.civilDusk)
        #expect(WaveDay.Light.at(sunrise - 60, latitude: lat, longitude: lon) == .twilight)
        #expect(WaveDay.Light.at(sunrise + 60, latitude: lat, longitude: lon) == .day)
        #expect(WaveDay.Light.at(sunset - 60, latitude: lat, longitude: lon) == .day)
        #expect(WaveDay.Light.at(sunset + 60, latitude: lat, longitude: lon) == .twilight)
        #expect(WaveDay.Light.at(dusk + 60, latitude: lat, longitude: lon) == .dark)
    }

    @Test func sessionsLastSixtyToOneHundredTwentyMinutes() {
        // 59 minutes is too short; 60 is a session.
        #expect(WaveDay.bestSessions([Self.wave(0), Self.wave(59)]).isEmpty)
        #expect(WaveDay.bestSessions([Self.wave(0), Self.wave(60)]).map(\.waveCount) == [2])
        // 120 minutes is a session; the wave at 121 is left out of it.
        let long = WaveDay.bestSessions([Self.wave(0), Self.wave(40), Self.wave(80), Self.wave(120), Self.wave(121)])
        // 0-120 and 40-121 both score 8: the earlier start wins, and no other shares none of its waves.
        #expect(long.count == 1 && long.first?.start == Self.start && long.first?.end == Self.start + 120 * 60 && long.first?.score == 8, "\(long)")
        // A gap of 60 minutes is allowed, 61 is not.
        #expect(WaveDay.bestSessions([Self.wave(0), Self.wave(60), Self.wave(100)]).first?.waveCount == 3)
        #expect(WaveDay.bestSessions([Self.wave(0), Self.wave(61), Self.wave(100)]).isEmpty)
    }

    @Test func darkWavesBreakSessionsAndTwilightCountsAFifth() {
        // A dark wave inside: no session across it.
        #expect(WaveDay.bestSessions([Self.wave(0), Self.wave(30, 1, .dark), Self.wave(60)]).isEmpty)
        // Twilight waves count 20%: 10 points of three waves in twilight give 2.
        let session = WaveDay.bestSessions([Self.wave(0, 3, .twilight), Self.wave(60, 1)]).first
        #expect(session?.score == 4, "\(String(describing: session))")
    }

    @Test func theBestThreeShareNoWaveAndTiesGoToTheEarlier() {
        // Three separate clusters; the middle one scores highest.
        var waves = [Self.wave(0), Self.wave(60)]  // 4
        waves += [Self.wave(200, 3), Self.wave(230, 3), Self.wave(260, 2)]  // 25
        waves += [Self.wave(400), Self.wave(460)]  // 4, the same as the first
        let best = WaveDay.bestSessions(waves)
        #expect(best.map(\.score) == [25, 4, 4], "\(best)")
        #expect(best.dropFirst().first?.start == Self.start, "the tie goes to the earlier start")
        #expect(zip(best, best.dropFirst()).allSatisfy { $0.last < $1.first || $0.first > $1.last })
        #expect(WaveDay.bestSessions(waves, count: 1).count == 1)
    }

    /// The rules count lit waves only: the Sun up. A twilight wave, like a dark one, is not in
    /// the frequency (it still counts a fifth in a session).
    @Test func frequencyCountsLitWavesByLocalHour() throws {
        let zone = try TimeZoneRules("Europe/Zurich")
        let waves = [Self.wave(0), Self.wave(30), Self.wave(70), Self.wave(90, 2, .twilight), Self.wave(100, 1, .dark)]
        let f = WaveDay.frequency(waves, zone: zone)
        #expect(f.count == 3 && f.meanGapMinutes == 35, "\(f)")
        // 08:00 UTC is 10:00 in Zurich in June: two at 10, one at 11, none from the twilight.
        let hours = f.byHour.enumerated().filter { $0.element > 0 }.map { [$0.offset, $0.element] }
        #expect(hours == [[10, 2], [11, 1]], "\(f.byHour)")
        #expect(WaveDay.frequency([Self.wave(0)], zone: zone).meanGapMinutes == nil)
        #expect(WaveDay.frequency([Self.wave(0, 3, .twilight), Self.wave(20, 1, .twilight)], zone: zone).count == 0)
    }

    /// The session under way, else the next to start, comes first; then the day's best. The
    /// best of a day is often over by mid-morning: the first thing said is what one can still go to.
    @Test func theSessionUnderWayOrNextComesFirst() {
        func session(_ start: Double, _ end: Double, _ score: Double) -> WaveDay.Session {
            WaveDay.Session(start: Self.start + start * 60, end: Self.start + end * 60, first: Int(start), last: Int(end), score: score)
        }
        let morning = session(0, 120, 30), noon = session(240, 330, 20), evening = session(480, 560, 10)
        let best = [morning, noon, evening]
        // 10:00 local is over the morning's: the noon one is next.
        #expect(WaveDay.forNow(best, now: Self.start + 150 * 60) == [noon, morning, evening])
        // Under way: that one first.
        #expect(WaveDay.forNow(best, now: Self.start + 500 * 60) == [evening, morning, noon])
        #expect(WaveDay.forNow(best, now: Self.start + 60 * 60) == best)
        // Before the day's first: the earliest to come, not the best.
        #expect(WaveDay.forNow([noon, evening, morning], now: Self.start - 60) == [morning, noon, evening])
        // All over: the day's best, as it was.
        #expect(WaveDay.forNow(best, now: Self.start + 600 * 60) == best)
        #expect(WaveDay.forNow([], now: Self.start).isEmpty)
    }

    @Test func wetsuitSteps() {
        // Each band includes its lower bound.
        #expect([24.0, 23.9, 21, 20.9, 17, 16.9, 14, 13.9, 11, 10.9].map { Wetsuit.step(water: $0, air: nil, wind: nil) } == [0, 1, 1, 2, 2, 3, 3, 4, 4, 5])
        #expect(Wetsuit.step(water: 18, air: 11.9, wind: nil) == 3, "air and water below 30: one thicker")
        #expect(Wetsuit.step(water: 18, air: 12, wind: 7.9) == 2)
        #expect(Wetsuit.step(water: 18, air: 5, wind: 8) == 4, "and one more in the wind")
        #expect(Wetsuit.step(water: 12, air: 5, wind: 12) == 5, "never past the thickest")
        #expect(Wetsuit.text(step: 2) == "3/2 mm" && Wetsuit.text(step: 5) == "6/5 mm with hood, boots and gloves")
    }

    /// The wake: a ship at 5 m/s passing 1000 m from the spot; the closest approach half-way
    /// along a straight leg; the Kelvin wedge's delay d / tan(19.47°) / v.
    @Test func theWakeReachesTheShoreAfterTheShipPasses() throws {
        let passing = try #require(Wake.passing(path: [(-3000, 1000), (3000, 1000)], start: 0, end: 1200))
        #expect(abs(passing.time - 600) < 1e-6 && abs(passing.distance - 1000) < 1e-6 && abs(passing.speed - 5) < 1e-9)
        #expect(abs(passing.arrival - (600 + 1000 / 0.35347 / 5)) < 1, "\(passing.arrival)")
        // A spot on either side of the route: the same distance.
        let other = try #require(Wake.passing(path: [(-3000, -1000), (3000, -1000)], start: 0, end: 1200))
        #expect(abs(other.distance - 1000) < 1e-6)
        // Along a bent shape the closest point is on the second piece, found by distance along it.
        let bent = try #require(Wake.passing(path: [(-2000, 2000), (0, 500), (2000, 500)], start: 0, end: 4500))
        #expect(abs(bent.distance - 500) < 1e-6 && bent.time > 0 && bent.time < 4500)
        // A ship waiting at a stop makes no wake.
        #expect(Wake.passing(path: [(0, 0), (0, 0)], start: 0, end: 60) == nil)
        #expect(Wake.passing(path: [(0, 0), (10, 0)], start: 60, end: 60) == nil)
        // The piece of a shape between two distances along it.
        let shape: [(x: Double, y: Double, along: Double)] = [(0, 0, 0), (100, 0, 100), (100, 100, 200)]
        let piece = Wake.piece(of: shape, from: 50, to: 150)
        #expect(piece.count == 3 && piece.first.map { $0.x == 50 && $0.y == 0 } == true && piece.last.map { $0.x == 100 && $0.y == 50 } == true)
    }
}

/// Departures as a person reads them, and searching stop names without their accents.
@Suite struct DepartureWordsTests {
    @Test func countdownsAndDays() throws {
        let zone = try TimeZoneRules("Europe/Zurich")
        let now = CivilTime(year: 2026, month: 11, day: 27, hour: 8).unixSeconds  // Friday 09:00 in Zurich
        #expect(DepartureWords.countdown(to: now + 37 * 60, from: now, zone: zone) == "in 37 min")
        #expect(DepartureWords.countdown(to: now + 97 * 60, from: now, zone: zone) == "in 1 h 37 min")
        #expect(DepartureWords.countdown(to: now + 10 * 3600, from: now, zone: zone) == "in 10 h 0 min")
        #expect(DepartureWords.countdown(to: now + 24 * 3600 + 34 * 60, from: now, zone: zone) == "tomorrow 09:34")
        #expect(DepartureWords.countdown(to: now + 3 * 86_400, from: now, zone: zone) == "in 3 days")
        #expect(DepartureWords.countdown(to: now + 20, from: now, zone: zone) == "now")
        // Late at night a boat just after midnight is counted down, not "tomorrow".
        let late = CivilTime(year: 2026, month: 11, day: 27, hour: 22, minute: 30).unixSeconds  // 23:30 local
        #expect(DepartureWords.countdown(to: late + 90 * 60, from: late, zone: zone) == "in 1 h 30 min")
        #expect(DepartureWords.day(now, zone: zone) == "Fri 11-27" && DepartureWords.clock(now, zone: zone) == "09:00")
    }

    @Test func searchIgnoresCaseAndAccents() {
        #expect(SearchText.folded("Zürich Bürkliplatz") == "zurich burkliplatz")
        #expect(SearchText.folded("Genève ŒUVRE Malmö Łódź Straße") == "geneve oeuvre malmo lodz strasse")
        var timetable = Timetable()
        timetable.stops = [
            Timetable.Stop(id: "ZH", name: "Zürich Bürkliplatz", latitude: 47.3655, longitude: 8.541, timeZone: "Europe/Zurich"),
            Timetable.Stop(id: "GE", name: "Genève Mont-Blanc", latitude: 46.21, longitude: 6.15, timeZone: "Europe/Zurich")
        ]
        #expect(timetable.stops(matching: "zurich") == [0] && timetable.stops(matching: "ZÜRICH bürkli") == [0])
        #expect(timetable.stops(matching: "geneve") == [1] && timetable.stops(matching: "GE") == [1] && timetable.stops(matching: "lausanne").isEmpty)
    }
}
