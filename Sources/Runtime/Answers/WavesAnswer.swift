import LodestoneCore
import LodestoneDomain
import LodestoneEncoding
import LodestoneStorage
import LodestoneReports
import LodestoneServices

/// The day's waves at a stop or at a spot on the shore, as one JSON object: each wave with its
/// ship, points and light, the day's light, the best sessions and the frequency.
/// `lodestone waves --json` prints it and the socket's `?WAVES` answers it (class WAVES).
package enum WavesAnswer {
    package enum Place {
        case stop(Int)
        case spot(latitude: Double, longitude: Double, radius: Double)
    }

    package struct Item {
        package var time: Double
        package var departure: Timetable.Departure
        package var mark: TransitPreferences.Mark?
        package var wave: WaveDay.Wave
        /// With a spot: how close the ship passes, and when it passes.
        package var distance: Double?, passes: Double?
        /// The Zambretti forecast, for a wave within the 12 hours after it was made.
        package var forecast: Zambretti.Forecast?
    }

    package struct Day {
        package var place: Place
        package var zone: TimeZoneRules
        /// Times of day on a 12-hour clock (the `clock` setting).
        package var twelveHour = false
        package var date: (year: Int, month: Int, day: Int)
        package var latitude: Double, longitude: Double
        package var items: [Item]
        package var sessions: [WaveDay.Session]
        package var frequency: WaveDay.Frequency
        package var sun: SunEvents
        /// When the day was asked for: the session under way or next is listed first.
        package var now: Double
    }

    /// The waves of the local date at the place (nil: the date of `now` there), each with the
    /// `outlook`'s forecast in its 12 hours. The zone is the device's (`clock`), else the stop's
    /// (with a spot, the nearest stop's).
    package static func day(
        _ timetable: Timetable, marks: [TransitPreferences.Mark], place: Place,
        date given: (year: Int, month: Int, day: Int)?, now: Double, outlook: WeatherOutlook? = nil, clock: LocalClock? = nil
    ) -> Day? {
        let reference: Int
        let (latitude, longitude): (Double, Double)
        switch place {
        case .stop(let index):
            guard timetable.stops.indices.contains(index) else { return nil }
            (reference, latitude, longitude) = (index, timetable.stops[index].latitude, timetable.stops[index].longitude)
        case .spot(let lat, let lon, _):
            guard
                let nearest = timetable.stops.indices.min(by: { a, b in
                    distance(timetable.position(of: a), lat, lon) < distance(timetable.position(of: b), lat, lon)
                })
            else { return nil }
            (reference, latitude, longitude) = (nearest, lat, lon)
        }
        let zone = clock?.zone ?? (try? TimeZoneRules(timetable.stops[reference].timeZone)) ?? .utc
        let date = given ?? SkyAnswer.localDate(now, zone: zone)
        let (start, end) = SkyAnswer.day(date, zone: zone)
        func item(_ d: Timetable.Departure, at time: Double, distance: Double? = nil, passes: Double? = nil) -> Item {
            let mark = TransitPreferences.mark(for: d, in: marks)
            let wave = WaveDay.Wave(time: time, waves: mark?.waves ?? 1, light: WaveDay.Light.at(time, latitude: latitude, longitude: longitude))
            return Item(time: time, departure: d, mark: mark, wave: wave, distance: distance, passes: passes, forecast: outlook?.forecast(at: time))
        }
        var items: [Item] = []
        switch place {
        case .stop(let index):
            items = timetable.departures(from: index, after: start, count: 5000).filter { $0.time < end }.map { item($0, at: $0.time) }
        case .spot(let lat, let lon, let radius):
            items = passings(timetable, spot: (lat, lon), radius: radius, from: start - 3 * 3600, to: end).filter { $0.arrival >= start && $0.arrival < end }
                .map { item($0.departure, at: $0.arrival, distance: $0.distance, passes: $0.time) }
        }
        items.sort { $0.time < $1.time }
        let waves = items.map(\.wave)
        var day = Day(
            place: place, zone: zone, date: date, latitude: latitude, longitude: longitude, items: items,
            sessions: WaveDay.bestSessions(waves), frequency: WaveDay.frequency(waves, zone: zone),
            sun: SunEvents.of(dayFrom: start, to: end, latitude: latitude, longitude: longitude), now: now)
        day.twelveHour = clock?.twelveHour ?? false
        return day
    }

    static func distance(_ stop: (latitude: Double, longitude: Double), _ latitude: Double, _ longitude: Double) -> Double {
        Geodesy.inverse(latitude1: latitude, longitude1: longitude, latitude2: stop.latitude, longitude2: stop.longitude).distance
    }

    /// Each trip that passes within `radius` of the spot between two moments: placed between
    /// its consecutive calls along its shape (by `shape_dist_traveled`) when the feed draws
    /// one, else along the straight line between the stops; its closest leg's passing and the
    /// wake's arrival.
    static func passings(_ timetable: Timetable, spot: (Double, Double), radius: Double, from start: Double, to end: Double)
        -> [(departure: Timetable.Departure, time: Double, distance: Double, arrival: Double)]
    {
        // Every call of the window, arrivals too (a trip's last leg makes a wake), by trip (a
        // trip runs once in a day), in time order.
        var calls: [String: [(time: Double, stop: Int, departure: Timetable.Departure)]] = [:]
        for stop in timetable.stops.indices {
            for d in timetable.departures(from: stop, after: start, count: 5000, arrivals: true) where d.time < end {
                calls[d.trip + "@" + String(Int(d.time / 86_400)), default: []].append((d.time, stop, d))
            }
        }
        // Each shape in metres about the spot, worked out once for all its trips.
        var shapes: [Int: [(x: Double, y: Double, along: Double)]] = [:]
        func local(_ shape: Int) -> [(x: Double, y: Double, along: Double)] {
            if let done = shapes[shape] { return done }
            let points = (timetable.shapes.indices.contains(shape) ? timetable.shapes[shape].points : []).map { p -> (x: Double, y: Double, along: Double) in
                let xy = Wake.local(latitude: p.latitude, longitude: p.longitude, spot: (spot.0, spot.1))
                return (xy.x, xy.y, p.along)
            }
            shapes[shape] = points
            return points
        }
        func path(_ a: (time: Double, stop: Int, departure: Timetable.Departure), _ b: (time: Double, stop: Int, departure: Timetable.Departure)) -> [(
            x: Double, y: Double
        )] {
            if let shape = a.departure.shape, let from = a.departure.along, let to = b.departure.along, to > from {
                let piece = Wake.piece(of: local(shape), from: from, to: to)
                if piece.count >= 2 { return piece }
            }
            return [timetable.stops[a.stop], timetable.stops[b.stop]].map {
                Wake.local(latitude: $0.latitude, longitude: $0.longitude, spot: (spot.0, spot.1))
            }
        }
        var found: [(Timetable.Departure, Double, Double, Double)] = []
        for (_, list) in calls {
            let ordered = list.sorted { $0.time < $1.time }
            var best: (Timetable.Departure, Wake.Passing)?
            for (a, b) in zip(ordered, ordered.dropFirst()) {
                guard let passing = Wake.passing(path: path(a, b), start: a.time, end: b.time), passing.distance <= radius else { continue }
                if best.map({ passing.distance < $0.1.distance }) ?? true { best = (a.departure, passing) }
            }
            if let (departure, passing) = best { found.append((departure, passing.time, passing.distance, passing.arrival)) }
        }
        return found
    }

    /// The object `lodestone waves --json` prints and `GET /api/v1/waves` answers, its stops
    /// named from the timetable.
    package static func json(_ day: Day, timetable: Timetable) -> String {
        json(day) { (timetable.stops[$0].id, timetable.stops[$0].name) }
    }

    package static func json(_ day: Day, stopName: (Int) -> (id: String, name: String)) -> String {
        "{" + members(day, stopName: stopName).map { JSONObjectWriter.quoted($0.key) + ":" + $0.json }.joined(separator: ",") + "}"
    }

    /// The object's members in order (the socket's WAVES report writes them after its class).
    package static func members(_ day: Day, stopName: (Int) -> (id: String, name: String)) -> [(key: String, json: String)] {
        let zone = day.zone
        func time(_ t: Double?) -> String { t.map { JSONObjectWriter.quoted(zone.iso8601($0)) } ?? "null" }
        var w = Members()
        switch day.place {
        case .stop(let index):
            let stop = stopName(index)
            w.raw("place", "{\"stop\":{\"id\":" + JSONObjectWriter.quoted(stop.id) + ",\"name\":" + JSONObjectWriter.quoted(stop.name) + "}}")
        case .spot(let lat, let lon, let radius):
            var s = JSONObjectWriter()
            s.number("lat", lat, decimals: 6)
            s.number("lon", lon, decimals: 6)
            s.number("radius", radius, decimals: 0)
            w.raw("place", "{\"spot\":" + s.finished + "}")
        }
        w.string("date", zeroPadded(day.date.year, 4) + "-" + zeroPadded(day.date.month, 2) + "-" + zeroPadded(day.date.day, 2))
        w.string("zone", zone.name)
        var light = JSONObjectWriter()
        light.raw("sunrise", time(day.sun.sunrise))
        light.raw("sunset", time(day.sun.sunset))
        light.raw("civilDawn", time(day.sun.civilDawn))
        light.raw("civilDusk", time(day.sun.civilDusk))
        light.number("daylightSeconds", day.sun.dayLength, decimals: 0)
        w.raw("daylight", light.finished)
        w.raw(
            "waves",
            "["
                + day.items.map { item in
                    var o = JSONObjectWriter()
                    o.string("time", zone.iso8601(item.time))
                    o.string("route", item.departure.route)
                    o.string("headsign", item.departure.headsign)
                    o.string("trip", item.departure.trip)
                    if let label = item.mark?.label, !label.isEmpty { o.string("ship", label) } else { o.null("ship") }
                    o.integer("waves", item.wave.waves)
                    o.integer("points", item.wave.points)
                    o.string("light", item.wave.light.rawValue)
                    if let distance = item.distance { o.number("distance", distance, decimals: 0) }
                    if item.distance != nil { o.string("arrival", zone.iso8601(item.time)) }
                    if let passes = item.passes { o.string("passes", zone.iso8601(passes)) }
                    o.raw("forecast", ForecastJSON.object(item.forecast))
                    return o.finished
                }.joined(separator: ",") + "]")
        // The one under way or next first, then the day's best; each says where it stands.
        w.raw(
            "sessions",
            "["
                + WaveDay.forNow(day.sessions, now: day.now).map { s in
                    var o = JSONObjectWriter()
                    o.string("start", zone.iso8601(s.start))
                    o.string("end", zone.iso8601(s.end))
                    o.integer("waves", s.waveCount)
                    o.number("score", s.score, decimals: 1)
                    o.string("when", s.end < day.now ? "over" : (s.start <= day.now ? "now" : "later"))
                    o.bool("best", s == day.sessions.first)
                    return o.finished
                }.joined(separator: ",") + "]")
        var f = JSONObjectWriter()
        f.integer("count", day.frequency.count)
        if let gap = day.frequency.meanGapMinutes { f.number("meanGapMinutes", gap, decimals: 1) } else { f.null("meanGapMinutes") }
        f.raw("byHour", "[" + day.frequency.byHour.map(String.init).joined(separator: ",") + "]")
        w.raw("frequency", f.finished)
        return w.list
    }

    /// Members kept as (key, JSON) pairs, written the way JSONObjectWriter writes them.
    struct Members {
        var list: [(key: String, json: String)] = []
        mutating func raw(_ key: String, _ json: String) { list.append((key, json)) }
        mutating func string(_ key: String, _ value: String) { list.append((key, JSONObjectWriter.quoted(value))) }
    }
}

extension WavesAnswer {
    /// The day as a person reads it: the light, each wave, the best sessions, the frequency.
    package static func text(_ day: Day, placeName: (Place) -> String?) -> String {
        let zone = day.zone
        func clock(_ t: Double?) -> String { t.map { DepartureWords.clock($0, zone: zone) } ?? "--:--" }
        let name: String
        switch day.place {
        case .stop: name = placeName(day.place) ?? "the stop"
        case .spot(let lat, let lon, let radius): name = "the spot \(fixed(lat, 5)), \(fixed(lon, 5)) (ships within \(Int(radius)) m)"
        }
        let date = DepartureWords.day(SkyAnswer.day(day.date, zone: zone).start + 43_200, zone: zone)
        var out = "\(name), \(date) \(day.date.year) (\(zone.name))\n"
        out +=
            "sunrise \(clock(day.sun.sunrise)), sunset \(clock(day.sun.sunset)), civil dawn \(clock(day.sun.civilDawn)), civil dusk \(clock(day.sun.civilDusk)), "
            + "daylight \(Int(day.sun.dayLength) / 3600) h \(Int(day.sun.dayLength) / 60 % 60) min\n"
        if day.items.isEmpty { out += "  no waves that day\n" }
        for item in day.items {
            let ship = item.mark.map { $0.label.isEmpty ? "" : "  " + $0.label } ?? ""
            let near = item.distance.map { "  \(Int($0)) m off" } ?? ""
            out +=
                "  \(clock(item.time))  \(item.departure.route) to \(item.departure.headsign)\(ship)  "
                + "\(String(repeating: "~", count: item.wave.waves))  \(item.wave.points) pts  \(item.wave.light.rawValue)\(near)"
                + (item.forecast.map { "  \($0.letter) \($0.text)" } ?? "") + "\n"
        }
        if day.sessions.isEmpty { out += "no session: no 60 to 120 minutes of waves in the light\n" }
        for (n, s) in WaveDay.forNow(day.sessions, now: day.now).enumerated() {
            let note = s == day.sessions.first ? " (the day's best)" : ""
            let when = s.start <= day.now && day.now <= s.end ? " (now)" : ""
            out += "session \(n + 1): \(clock(s.start))-\(clock(s.end)), \(s.waveCount) waves, score \(fixed(s.score, 1))\(when)\(note)\n"
        }
        let f = day.frequency
        out += "\(f.count) lit waves (the Sun up)" + (f.meanGapMinutes.map { ", one every \(fixed($0, 0)) min on average" } ?? "") + "\n"
        let hours = f.byHour.enumerated().filter { $0.element > 0 }.map { "\(zeroPadded($0.offset, 2))h \($0.element)" }
        if !hours.isEmpty { out += "by hour: " + hours.joined(separator: "  ") + "\n" }
        return out
    }
}

extension WavesAnswer {
    /// `?WAVES` on the running device.
    static func report(_ request: WavesRequest, transit: TransitService, now: Double, outlook: WeatherOutlook?) -> Report {
        let timetable = transit.timetable
        let place: Place
        switch request.place {
        case .stop(let name):
            guard let index = timetable.stops(matching: name).first else { return .error("no stop matches '\(name)'") }
            place = .stop(index)
        case .spot(let lat, let lon, let radius):
            place = .spot(latitude: lat, longitude: lon, radius: radius)
        }
        let date = request.date.flatMap(CivilTime.parseDate).map { ($0.year, $0.month, $0.day) }
        guard let day = day(timetable, marks: transit.marks(now: now), place: place, date: date, now: now, outlook: outlook, clock: transit.localClock) else {
            return .error("the timetable has no stops")
        }
        return .waves(WavesReport(members: members(day) { (timetable.stops[$0].id, timetable.stops[$0].name) }))
    }
}

extension WavesAnswer {
    /// The day laid out for the display's waves page at `now`: the timeline from the earlier of
    /// the first wave and civil dawn to the later of the last wave and civil dusk (whole local
    /// hours; the whole day where the Sun gives neither), the sessions, the next wave.
    package static func panel(_ day: Day, stopName: String, now: Double) -> WavesPanel {
        let zone = day.zone
        let (dayStart, dayEnd) = SkyAnswer.day(day.date, zone: zone)
        func clock(_ t: Double) -> String { LocalClock.timeOfDay(t, zone: zone, twelveHour: day.twelveHour) }
        let earliest = [day.items.first?.time, day.sun.civilDawn].compactMap { $0 }.min() ?? dayStart
        let latest = [day.items.last?.time, day.sun.civilDusk].compactMap { $0 }.max() ?? dayEnd
        // Whole local hours about them (an hour's offset from UTC is whole almost everywhere;
        // where it is not, the marks still fall on the local hour).
        func localHour(_ t: Double, up: Bool) -> Double {
            let offset = Double(zone.offset(at: t))
            let hours = ((t + offset) / 3600).rounded(up ? .up : .down)
            return hours * 3600 - offset
        }
        let start = max(dayStart, localHour(earliest, up: false)), end = min(dayEnd, localHour(latest + 1, up: true))
        let date = DepartureWords.date(dayStart + 43_200, zone: zone)
        var panel = WavesPanel(
            stop: stopName, weekday: date.weekday, date: date.monthAndDay, latitude: day.latitude, longitude: day.longitude,
            now: now, start: start, end: max(end, start + 3600))
        (panel.sunrise, panel.sunset) = (day.sun.sunrise.map(clock), day.sun.sunset.map(clock))
        (panel.litWaves, panel.litGapMinutes) = (day.frequency.count, day.frequency.meanGapMinutes)
        var hour = localHour(start, up: true)
        while hour <= panel.end {
            // "06" on a 24-hour clock, "6a" and "12p" on a 12-hour one.
            let local = Int(DepartureWords.clock(hour, zone: zone).prefix(2)) ?? 0
            panel.hours.append((hour, local, LocalClock.hourMark(local, twelveHour: day.twelveHour)))
            hour += 3600
        }
        panel.waves = day.items.map { item in
            WavesPanel.Wave(
                time: item.time, count: item.wave.waves, clock: clock(item.time), route: item.departure.route, headsign: item.departure.headsign,
                ship: item.mark.flatMap { $0.label.isEmpty ? nil : $0.label }, light: item.wave.light.rawValue)
        }
        func session(_ s: WaveDay.Session) -> WavesPanel.Session {
            WavesPanel.Session(start: s.start, end: s.end, span: clock(s.start) + "-" + clock(s.end), waves: s.waveCount, points: Int(rounding: s.score) ?? 0)
        }
        panel.sessions = day.sessions.map(session)
        // The one a person can still go to comes first; the day's best after it.
        if let soon = WaveDay.forNow(day.sessions, now: now).first, soon.end >= now {
            panel.upcoming = (session(soon), soon.start <= now)
        }
        if let next = day.items.first(where: { $0.time >= now }) {
            panel.next = WavesPanel.NextWave(
                clock: clock(next.time), count: next.wave.waves, minutes: Int(rounding: ((next.time - now) / 60).rounded(.down)) ?? 0,
                days: zone.localDays(from: now, to: next.time))
        }
        return panel
    }
}
