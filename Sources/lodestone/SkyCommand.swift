import LodestoneCore
import LodestoneDomain
import LodestoneOutputs
import LodestoneRuntime
import LodestoneEncoding
import LodestoneReports
import LodestoneSettings

/// `lodestone sky` and `lodestone seasons`: the Sun's day and the seasons, offline, for any
/// place and date.
enum SkyCommand {
    static let skyHelp = """
        Usage: lodestone sky --lat L --lon L [--date YYYY-MM-DD] [--tz ZONE] [--elevation M] [--json]

        The Sun's events of that local calendar day: astronomical, nautical and civil dawn, blue
        hour, sunrise, golden hour, solar noon, golden hour, sunset, blue hour, civil, nautical and
        astronomical dusk, and the day's length; the Sun's altitude and azimuth now; the Moon's
        phase, illumination, age, rise and set and its next phases; the planets' altitude,
        azimuth, magnitude, rise, transit and set (and the phase of Mercury and Venus); the next
        equinox or solstice. Without --date, "now" is the present moment; with it, the day's start. Sunrise and sunset are for the Sun's centre at -0.833° (refraction and
        the semi-diameter); events that do not happen that day (polar day and night, nights that
        never get dark) are null. ZONE is an IANA name (Europe/Zurich) or an offset (+02:00);
        default the device's (timeZone in the configuration), else the system's. Times are
        ISO-8601 with the zone's offset.

        Examples:
          lodestone sky --lat 46.55 --lon 7.98 --date 2026-06-21 --tz Europe/Zurich
          lodestone sky --lat 69.65 --lon 18.96 --tz +01:00 --json
        """

    static let seasonsHelp = """
        Usage: lodestone seasons [--count N] [--from YYYY-MM-DD] [--lat L] [--tz ZONE] [--json]

        The next equinoxes and solstices (computed from the Sun's position, 1900-2100), the days
        until each (whole days in the local zone), what each means for the hemisphere of --lat
        (default northern), and how far the current astronomical season has gone; from now, or
        from the start of --from in the zone. N is 1 to 400 (default 4).
        """

    static func sky(_ arguments: ArraySlice<String>) throws(UsageError) -> Int32 {
        let options = try Options(arguments, spec: OptionSpec(valued: ["lat", "lon", "date", "tz", "elevation"], flags: ["json"]), command: "sky")
        guard let latitude = try options.number("lat", in: -90...90), let longitude = try options.number("lon", in: -180...180) else {
            throw UsageError(message: "sky needs the place: --lat DEGREES --lon DEGREES (north and east positive)")
        }
        let elevation = try options.number("elevation", in: -500...9000) ?? 0
        let zone = try zoneOption(options)
        let now = OutputClock.unixTime()
        let (year, month, day) = try dateOption(options, zone: zone, now: now)
        let (start, end) = SkyAnswer.day((year, month, day), zone: zone)
        let events = SunEvents.of(dayFrom: start, to: end, latitude: latitude, longitude: longitude, elevation: elevation)
        let reference = options.values["date"] == nil ? now : start
        let upcoming = Seasons.upcoming(after: reference, count: 4)
        if options.flags.contains("json") {
            writeOut(
                SkyAnswer.json(
                    latitude: latitude, longitude: longitude, elevation: elevation, zone: zone,
                    date: (year, month, day), reference: reference) + "\n")
        } else {
            func line(_ label: String, _ t: Double?) {
                writeOut(label.padding(18) + (t.map { String(zone.iso8601($0).dropFirst(11).prefix(8)) } ?? "--") + "\n")
            }
            writeOut(
                "Sun on \(zeroPadded(year, 4))-\(zeroPadded(month, 2))-\(zeroPadded(day, 2)) at \(fixed(latitude, 4)), \(fixed(longitude, 4)) (\(zone.name))\n")
            func span(_ label: String, _ s: SunEvents.Span) {
                let clock = { (t: Double?) in t.map { String(zone.iso8601($0).dropFirst(11).prefix(8)) } ?? "--" }
                writeOut(label.padding(18) + clock(s.start) + " - " + clock(s.end) + "\n")
            }
            line("astronomical dawn", events.astronomicalDawn)
            line("nautical dawn", events.nauticalDawn)
            line("civil dawn", events.civilDawn)
            // In the order they begin: the golden hour starts before sunrise (the Sun at -4°).
            span("blue hour", events.blueHourMorning)
            span("golden hour", events.goldenHourMorning)
            line("sunrise", events.sunrise)
            line("solar noon", events.solarNoon)
            span("golden hour", events.goldenHourEvening)
            line("sunset", events.sunset)
            span("blue hour", events.blueHourEvening)
            line("civil dusk", events.civilDusk)
            line("nautical dusk", events.nauticalDusk)
            line("astronomical dusk", events.astronomicalDusk)
            writeOut("day length".padding(18) + "\(Int(events.dayLength) / 3600) h \(Int(events.dayLength) / 60 % 60) min\n")
            let moon = MoonPhases.riseAndSet(from: start, to: end, latitude: latitude, longitude: longitude)
            let elongation = MoonPhases.elongation(at: reference)
            writeOut("moon".padding(18) + "\(MoonPhases.name(elongation: elongation)), \(Int((MoonPhases.illumination(at: reference) * 100).rounded()))% lit\n")
            line("moonrise", moon.rise)
            line("moonset", moon.set)
            writeOut("next full moon".padding(18) + zone.iso8601(MoonPhases.next(.fullMoon, after: reference)) + "\n")
            for planet in Planet.allCases {
                let position = PlanetPosition.of(planet, at: reference)
                let sky = position.horizontal(unixTime: reference, latitude: latitude, longitude: longitude)
                let events = PlanetPosition.events(planet, from: start, to: end, latitude: latitude, longitude: longitude)
                func clock(_ t: Double?) -> String { t.map { String(zone.iso8601($0).dropFirst(11).prefix(5)) } ?? "--:--" }
                writeOut(
                    planet.name.padding(18) + "mag \(fixed(position.magnitude, 1))  alt \(fixed(sky.altitude, 0))° az \(fixed(sky.azimuth, 0))°"
                        + "  rise \(clock(events.rise))  transit \(clock(events.transit))  set \(clock(events.set))\n")
            }
            if let first = upcoming.first {
                writeOut(
                    "next season".padding(18) + "\(first.event.name): \(zone.iso8601(first.time)) (\(zone.localDays(from: reference, to: first.time)) days)\n")
            }
        }
        return 0
    }

    static func seasons(_ arguments: ArraySlice<String>) throws(UsageError) -> Int32 {
        let options = try Options(arguments, spec: OptionSpec(valued: ["count", "from", "lat", "tz"], flags: ["json"]), command: "seasons")
        let count = try options.integer("count", in: 1...400) ?? 4
        let northern = (try options.number("lat", in: -90...90) ?? 1) >= 0
        let zone = try zoneOption(options)
        var now = OutputClock.unixTime()
        if let from = try options.date("from", years: 1900...2100, what: "the seasons are computed for") {
            now = zone.midnight(year: from.year, month: from.month, day: from.day)
        }
        let upcoming = Seasons.upcoming(after: now, count: count)
        if options.flags.contains("json") {
            writeOut(SkyAnswer.seasons(upcoming, zone: zone, reference: now, northern: northern) + "\n")
        } else {
            if let progress = Seasons.progress(at: now, northern: northern) {
                writeOut("\(progress.season.capitalizedFirst): day \(Int(progress.elapsed)) of \(Int(progress.total.rounded()))\n")
            }
            for (event, time) in upcoming {
                writeOut(
                    "\(zone.iso8601(time))  \(event.name.padding(18))  in \(zone.localDays(from: now, to: time)) days  \(event.description(northern: northern))\n"
                )
            }
        }
        return 0
    }

    /// `--tz ZONE`; without it the device's one zone (`timeZone` in the configuration, --config
    /// or the installed one), as its display and web app show times; else the system's.
    static func zoneOption(_ options: Options) throws(UsageError) -> TimeZoneRules {
        let name = options.values["tz"] ?? (try? Configuration.commandConfiguration(options.values["config"]))?.timeZone
        do { return try TimeZoneRules(name) } catch { throw UsageError(message: error.description) }
    }

    static func dateOption(_ options: Options, zone: TimeZoneRules, now: Double) throws(UsageError) -> (Int, Int, Int) {
        guard let date = try options.date("date", years: 1900...2100, what: "the sky's models are documented for") else {
            return SkyAnswer.localDate(now, zone: zone)
        }
        return (date.year, date.month, date.day)
    }
}

extension String {
    func padding(_ width: Int) -> String { count >= width ? self + " " : self + String(repeating: " ", count: width - count) }
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
