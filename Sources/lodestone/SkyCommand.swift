import LodestoneCore
import LodestoneDomain
import LodestoneOutputs
import LodestoneRuntime
import LodestoneEncoding
import LodestoneReports

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
    default the system's zone. Times are ISO-8601 with the zone's offset.

    Examples:
      lodestone sky --lat 46.55 --lon 7.98 --date 2026-06-21 --tz Europe/Zurich
      lodestone sky --lat 69.65 --lon 18.96 --tz +01:00 --json
    """

    static let seasonsHelp = """
    Usage: lodestone seasons [--count N] [--lat L] [--tz ZONE] [--json]

    The next equinoxes and solstices (computed from the Sun's position, 1900-2100), the days
    until each (whole days in the local zone), what each means for the hemisphere of --lat
    (default northern), and how far the current astronomical season has gone.
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
        let start = zone.midnight(year: year, month: month, day: day)
        let next = CivilTime.civil(fromDays: CivilTime.days(year: year, month: month, day: day) + 1)
        let end = zone.midnight(year: next.year, month: next.month, day: next.day)
        let events = SunEvents.of(dayFrom: start, to: end, latitude: latitude, longitude: longitude, elevation: elevation)
        let reference = options.values["date"] == nil ? now : start
        let sun = SolarPosition.at(reference, latitude: latitude, longitude: longitude, elevation: elevation)
        let upcoming = Seasons.upcoming(after: reference, count: 4)
        func time(_ t: Double?) -> String { t.map { JSONObjectWriter.quoted(zone.iso8601($0)) } ?? "null" }
        func span(_ s: SunEvents.Span) -> String { "{\"start\":" + time(s.start) + ",\"end\":" + time(s.end) + "}" }
        if options.flags.contains("json") {
            var w = JSONObjectWriter()
            w.string("date", zeroPadded(year, 4) + "-" + zeroPadded(month, 2) + "-" + zeroPadded(day, 2))
            w.number("latitude", latitude, decimals: 6)
            w.number("longitude", longitude, decimals: 6)
            w.string("timeZone", zone.name)
            var s = JSONObjectWriter()
            for (key, value) in [("astronomicalDawn", events.astronomicalDawn), ("nauticalDawn", events.nauticalDawn), ("civilDawn", events.civilDawn)] {
                s.raw(key, time(value))
            }
            s.raw("blueHourMorning", span(events.blueHourMorning))
            s.raw("sunrise", time(events.sunrise))
            s.raw("goldenHourMorning", span(events.goldenHourMorning))
            s.raw("solarNoon", time(events.solarNoon))
            s.raw("goldenHourEvening", span(events.goldenHourEvening))
            s.raw("sunset", time(events.sunset))
            s.raw("blueHourEvening", span(events.blueHourEvening))
            for (key, value) in [("civilDusk", events.civilDusk), ("nauticalDusk", events.nauticalDusk), ("astronomicalDusk", events.astronomicalDusk)] {
                s.raw(key, time(value))
            }
            s.number("dayLengthSeconds", events.dayLength, decimals: 0)
            s.number("altitude", sun.apparentAltitude, decimals: 2)
            s.number("azimuth", sun.azimuth, decimals: 2)
            s.string("light", SunEvents.light(at: reference, latitude: latitude, longitude: longitude).rawValue)
            w.raw("sun", s.finished)
            w.raw("moon", moonJSON(reference: reference, start: start, end: end, latitude: latitude, longitude: longitude, zone: zone))
            w.raw("seasons", seasonsJSON(upcoming, zone: zone, reference: reference, northern: latitude >= 0))
            w.raw("planets", planetsJSON(reference: reference, start: start, end: end, latitude: latitude, longitude: longitude, zone: zone))
            writeOut(w.finished + "\n")
        } else {
            func line(_ label: String, _ t: Double?) { writeOut(label.padding(18) + (t.map { String(zone.iso8601($0).dropFirst(11).prefix(8)) } ?? "--") + "\n") }
            writeOut("Sun on \(zeroPadded(year, 4))-\(zeroPadded(month, 2))-\(zeroPadded(day, 2)) at \(fixed(latitude, 4)), \(fixed(longitude, 4)) (\(zone.name))\n")
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
                writeOut(planet.name.padding(18) + "mag \(fixed(position.magnitude, 1))  alt \(fixed(sky.altitude, 0))° az \(fixed(sky.azimuth, 0))°"
                         + "  rise \(clock(events.rise))  transit \(clock(events.transit))  set \(clock(events.set))\n")
            }
            if let first = upcoming.first {
                writeOut("next season".padding(18) + "\(first.event.name): \(zone.iso8601(first.time)) (\(zone.localDays(from: reference, to: first.time)) days)\n")
            }
        }
        return 0
    }

    static func seasons(_ arguments: ArraySlice<String>) throws(UsageError) -> Int32 {
        let options = try Options(arguments, spec: OptionSpec(valued: ["count", "lat", "tz"], flags: ["json"]), command: "seasons")
        let count = try options.integer("count", in: 1...400) ?? 4
        let northern = (try options.number("lat", in: -90...90) ?? 1) >= 0
        let zone = try zoneOption(options)
        let now = OutputClock.unixTime()
        let upcoming = Seasons.upcoming(after: now, count: count)
        if options.flags.contains("json") {
            writeOut(seasonsJSON(upcoming, zone: zone, reference: now, northern: northern) + "\n")
        } else {
            if let progress = Seasons.progress(at: now, northern: northern) {
                writeOut("\(progress.season.capitalizedFirst): day \(Int(progress.elapsed)) of \(Int(progress.total.rounded()))\n")
            }
            for (event, time) in upcoming {
                writeOut("\(zone.iso8601(time))  \(event.name.padding(18))  in \(zone.localDays(from: now, to: time)) days  \(event.description(northern: northern))\n")
            }
        }
        return 0
    }

    static func moonJSON(reference: Double, start: Double, end: Double, latitude: Double, longitude: Double, zone: TimeZoneRules) -> String {
        let elongation = MoonPhases.elongation(at: reference)
        let (rise, set) = MoonPhases.riseAndSet(from: start, to: end, latitude: latitude, longitude: longitude)
        var w = JSONObjectWriter()
        w.string("phase", MoonPhases.name(elongation: elongation))
        w.number("illumination", MoonPhases.illumination(at: reference), decimals: 3)
        w.number("age", MoonPhases.age(at: reference), decimals: 2)
        w.number("elongation", elongation, decimals: 2)
        w.raw("moonrise", rise.map { JSONObjectWriter.quoted(zone.iso8601($0)) } ?? "null")
        w.raw("moonset", set.map { JSONObjectWriter.quoted(zone.iso8601($0)) } ?? "null")
        w.string("nextFullMoon", zone.iso8601(MoonPhases.next(.fullMoon, after: reference)))
        w.string("nextNewMoon", zone.iso8601(MoonPhases.next(.newMoon, after: reference)))
        w.raw("phases", "[" + MoonPhases.upcoming(after: reference, count: 4).map { p in
            "{\"name\":" + JSONObjectWriter.quoted(p.phase.name) + ",\"time\":" + JSONObjectWriter.quoted(zone.iso8601(p.time)) + "}"
        }.joined(separator: ",") + "]")
        return w.finished
    }

    static func planetsJSON(reference: Double, start: Double, end: Double, latitude: Double, longitude: Double, zone: TimeZoneRules) -> String {
        "[" + Planet.allCases.map { planet in
            let position = PlanetPosition.of(planet, at: reference)
            let sky = position.horizontal(unixTime: reference, latitude: latitude, longitude: longitude)
            let events = PlanetPosition.events(planet, from: start, to: end, latitude: latitude, longitude: longitude)
            var w = JSONObjectWriter()
            w.string("name", planet.name)
            w.number("altitude", sky.altitude, decimals: 2)
            w.number("azimuth", sky.azimuth, decimals: 2)
            w.number("magnitude", position.magnitude, decimals: 1)
            w.number("rightAscension", position.rightAscension, decimals: 4)
            w.number("declination", position.declination, decimals: 4)
            w.number("distance", position.distance, decimals: 5)
            for (key, t) in [("rise", events.rise), ("transit", events.transit), ("set", events.set)] {
                w.raw(key, t.map { JSONObjectWriter.quoted(zone.iso8601($0)) } ?? "null")
            }
            if planet == .mercury || planet == .venus { w.number("phase", position.illuminated, decimals: 3) }
            return w.finished
        }.joined(separator: ",") + "]"
    }

    static func seasonsJSON(_ upcoming: [(event: Seasons.Event, time: Double)], zone: TimeZoneRules, reference: Double, northern: Bool) -> String {
        func item(_ e: (event: Seasons.Event, time: Double)) -> String {
            var w = JSONObjectWriter()
            w.string("name", e.event.name)
            w.string("time", zone.iso8601(e.time))
            w.integer("daysUntil", zone.localDays(from: reference, to: e.time))
            w.string("begins", e.event.season(northern: northern))
            w.string("description", e.event.description(northern: northern))
            return w.finished
        }
        var w = JSONObjectWriter()
        if let first = upcoming.first { w.raw("next", item(first)) } else { w.null("next") }
        w.raw("upcoming", "[" + upcoming.map(item).joined(separator: ",") + "]")
        if let progress = Seasons.progress(at: reference, northern: northern) {
            var p = JSONObjectWriter()
            p.string("season", progress.season)
            p.number("daysElapsed", progress.elapsed, decimals: 1)
            p.number("daysTotal", progress.total, decimals: 1)
            w.raw("current", p.finished)
        }
        return w.finished
    }

    static func zoneOption(_ options: Options) throws(UsageError) -> TimeZoneRules {
        do { return try TimeZoneRules(options.values["tz"]) } catch { throw UsageError(message: error.description) }
    }

    static func dateOption(_ options: Options, zone: TimeZoneRules, now: Double) throws(UsageError) -> (Int, Int, Int) {
        guard let date = try options.date("date", years: 1900...2100, what: "the sky's models are documented for") else {
            let local = CivilTime(unixSeconds: now + Double(zone.offset(at: now)))
            return (local.year, local.month, local.day)
        }
        return (date.year, date.month, date.day)
    }
}

extension String {
    func padding(_ width: Int) -> String { count >= width ? self + " " : self + String(repeating: " ", count: width - count) }
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
