import LodestoneCore
import LodestoneDomain
import LodestoneEncoding

/// The sky of one local day at a place, as one JSON object: the Sun's events and where it is,
/// the Moon, the planets and the seasons. `lodestone sky --json` prints it and the web app's
/// `GET /api/v1/sky` serves it (with the satellite's passes beside it).
package enum SkyAnswer {
    /// The local day `year-month-day` in `zone`; `reference` is the moment "now" stands for
    /// (the present, or the day's start when another date was asked for).
    package static func json(
        latitude: Double, longitude: Double, elevation: Double, zone: TimeZoneRules,
        date: (year: Int, month: Int, day: Int), reference: Double
    ) -> String {
        let (start, end) = day(date, zone: zone)
        let events = SunEvents.of(dayFrom: start, to: end, latitude: latitude, longitude: longitude, elevation: elevation)
        let sun = SolarPosition.at(reference, latitude: latitude, longitude: longitude, elevation: elevation)
        func time(_ t: Double?) -> String { t.map { JSONObjectWriter.quoted(zone.iso8601($0)) } ?? "null" }
        func span(_ s: SunEvents.Span) -> String { "{\"start\":" + time(s.start) + ",\"end\":" + time(s.end) + "}" }
        var w = JSONObjectWriter()
        w.string("date", zeroPadded(date.year, 4) + "-" + zeroPadded(date.month, 2) + "-" + zeroPadded(date.day, 2))
        w.number("latitude", latitude, decimals: 6)
        w.number("longitude", longitude, decimals: 6)
        w.string("timeZone", zone.name)
        w.string("now", zone.iso8601(reference))
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
        w.raw("moon", moon(reference: reference, start: start, end: end, latitude: latitude, longitude: longitude, zone: zone))
        w.raw("seasons", seasons(Seasons.upcoming(after: reference, count: 4), zone: zone, reference: reference, northern: latitude >= 0))
        w.raw("planets", planets(reference: reference, start: start, end: end, latitude: latitude, longitude: longitude, zone: zone))
        return w.finished
    }

    /// The local day's first and last moment (a day of 23 or 25 hours where the clocks change).
    package static func day(_ date: (year: Int, month: Int, day: Int), zone: TimeZoneRules) -> (start: Double, end: Double) {
        let next = CivilTime.civil(fromDays: CivilTime.days(year: date.year, month: date.month, day: date.day) + 1)
        return (zone.midnight(year: date.year, month: date.month, day: date.day), zone.midnight(year: next.year, month: next.month, day: next.day))
    }

    /// The local date of a moment.
    package static func localDate(_ time: Double, zone: TimeZoneRules) -> (year: Int, month: Int, day: Int) {
        let local = CivilTime(unixSeconds: time + Double(zone.offset(at: time)))
        return (local.year, local.month, local.day)
    }

    package static func moon(reference: Double, start: Double, end: Double, latitude: Double, longitude: Double, zone: TimeZoneRules) -> String {
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
        w.raw(
            "phases",
            "["
                + MoonPhases.upcoming(after: reference, count: 4).map { p in
                    "{\"name\":" + JSONObjectWriter.quoted(p.phase.name) + ",\"time\":" + JSONObjectWriter.quoted(zone.iso8601(p.time)) + "}"
                }.joined(separator: ",") + "]")
        return w.finished
    }

    package static func planets(reference: Double, start: Double, end: Double, latitude: Double, longitude: Double, zone: TimeZoneRules) -> String {
        "["
            + Planet.allCases.map { planet in
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

    package static func seasons(_ upcoming: [(event: Seasons.Event, time: Double)], zone: TimeZoneRules, reference: Double, northern: Bool) -> String {
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

    /// One satellite pass: rise, culmination and set with their directions, and whether it can be seen.
    package static func pass(_ p: SatellitePasses.Pass, satellite: String, catalogNumber: Int?, zone: TimeZoneRules) -> String {
        var w = JSONObjectWriter()
        w.string("satellite", satellite)
        if let catalogNumber { w.integer("catalogNumber", catalogNumber) }
        w.string("rise", zone.iso8601(p.rise))
        w.number("riseAzimuth", p.riseAzimuth, decimals: 1)
        var c = JSONObjectWriter()
        c.string("time", zone.iso8601(p.culmination))
        c.number("altitude", p.maximumAltitude, decimals: 1)
        c.number("azimuth", p.culminationAzimuth, decimals: 1)
        w.raw("culmination", c.finished)
        w.string("set", zone.iso8601(p.set))
        w.number("setAzimuth", p.setAzimuth, decimals: 1)
        w.bool("visible", p.visible)
        return w.finished
    }
}
