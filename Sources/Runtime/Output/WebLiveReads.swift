import LodestoneCore
import LodestoneDomain
import LodestoneEncoding
import LodestoneOutputs
import LodestoneReports
import LodestoneStorage

/// The web app's reads of the running device's services: the recording (`WebTrackAnswer`), the streams'
/// history, the sky of a day, the departures, stops, trips and waves of the timetable, the reminders, the alerts. Each answers with the same
/// JSON as the command-line tool or the socket.
enum WebLiveReads {
    static func routes<Clock: MonotonicClock>(_ loop: OutputLoop<Clock>, dataDirectory: String) -> [String: (HTTPRequest) -> HTTPResponse] {
        [
            "/api/v1/history": { [unowned loop] request in history(loop, request) },
            "/api/v1/sky": { [unowned loop] request in sky(loop, request) },
            "/api/v1/departures": { [unowned loop] request in departures(loop, request) },
            "/api/v1/stops": { [unowned loop] request in stops(loop, request) },
            "/api/v1/waves": { [unowned loop] request in waves(loop, request) },
            "/api/v1/trip": { [unowned loop] request in trip(loop, request) },
            // The recording now (as ?TRACK; answers, with its path), whoever started it.
            "/api/v1/track": { [unowned loop] _ in
                guard let tracks = loop.context.services.tracks else {
                    return .json(GPSDReports.line(.error("track recording needs a data directory")), status: 404)
                }
                return .json(WebTrackAnswer.json(tracks, now: loop.context.utcNow()))
            },
            "/api/v1/device": { [unowned loop] _ in device(loop, dataDirectory: dataDirectory) },
            "/api/v1/alerts": { [unowned loop] _ in alerts(loop, dataDirectory: dataDirectory) },
            // The settings a phone may change (the table's live rows) with the values in force.
            "/api/v1/settings": { [unowned loop] _ in .json(WebSettings.list(loop.running)) },
            "/api/v1/reminders": { [unowned loop] _ in
                guard let transit = loop.context.services.transit else { return noTimetable }
                return .json(GPSDReports.line(transit.remindersReport()))
            }
        ].merging(WebSkyReads.routes(loop)) { stored, _ in stored }
    }

    /// `GET /api/v1/device`: what the device page says about the device itself: the version it
    /// runs, how long it has run (seconds since its sensors were opened) and the room left
    /// for its files.
    static func device<Clock: MonotonicClock>(_ loop: OutputLoop<Clock>, dataDirectory: String) -> HTTPResponse {
        var w = JSONObjectWriter()
        w.string("version", Version.number)
        w.string("revision", Version.revision)
        w.number("uptime", max(0, loop.context.utcNow() - loop.started), decimals: 0)
        if let free = FreeSpace.bytes(at: dataDirectory) { w.integer("freeBytes", Int(clamping: free)) }
        // The zone and clock every page writes its times in (never the browser's own).
        let clock = loop.context.services.localClock, now = loop.context.utcNow()
        w.string("timeZone", clock.zone.name)
        w.string("zoneAbbreviation", clock.zone.abbreviation(at: now))
        w.integer("zoneOffset", clock.zone.offset(at: now))
        w.string("clock", clock.twelveHour ? "12h" : "24h")
        // The units the display and the terminal show (the setting, or a key's choice): the web
        // app's too, unless the browser chose its own.
        w.string("units", loop.display.units.rawValue)
        // The words' language when the device sets one (else each browser shows its own).
        if let language = loop.running.languageChoice { w.string("language", language.rawValue) }
        // Where it came from: configuration, phone, scenario or system (a phone offers its own
        // zone only in place of the system's, or of UTC not set by the configuration).
        w.string("zoneSource", loop.context.services.zone.source.rawValue)
        return .json(w.finished)
    }

    static let noTimetable = HTTPResponse.json(
        GPSDReports.line(.error("no timetable imported: 'lodestone timetable import FEED.zip', then restart")), status: 404)

    /// `GET /api/v1/alerts`: the rules (the socket's ALERT) and the newest 20 alerts given, newest first.
    static func alerts<Clock: MonotonicClock>(_ loop: OutputLoop<Clock>, dataDirectory: String) -> HTTPResponse {
        guard let rules = loop.context.fanout.web?.app.requests.answer("ALERT", nil)?.first, case .alertRules = rules else {
            return .json(GPSDReports.line(.error("alerts need a data directory")), status: 404)
        }
        // EVENT lines as the socket wrote them; one that does not parse is left out.
        let given = ((try? AlertStore.lines(dataDirectory: dataDirectory)) ?? []).suffix(20).reversed().filter { (try? JSONValue.parse($0)) != nil }
        return .json(String(GPSDReports.line(rules).dropLast()) + ",\"given\":[" + given.joined(separator: ",") + "]}")
    }

    /// `GET /api/v1/history?stream=NAME&span=1h|6h|24h|7d`: the graph of one stream, ending now.
    static func history<Clock: MonotonicClock>(_ loop: OutputLoop<Clock>, _ request: HTTPRequest) -> HTTPResponse {
        let stream = request.parameter("stream") ?? "seaLevelPressure"
        guard HistoryStreams.names.contains(stream) else {
            return .text(400, "stream is one of " + HistoryStreams.names.joined(separator: ", "))
        }
        let spanText = request.parameter("span") ?? "6h"
        guard let span = History.Range(rawValue: spanText) else { return .text(400, "span is 1h, 6h, 24h or 7d") }
        guard let histories = loop.context.services.chronicle?.history.histories else {
            return .json(GPSDReports.line(.error("the history needs a data directory and a barometer")), status: 404)
        }
        let summary = (histories[stream] ?? History()).summary(span, now: loop.context.utcNow())
        return .json(HistoryAnswer.json(stream: stream, range: span, summary: summary))
    }

    /// `GET /api/v1/sky?date=YYYY-MM-DD[&lat=..&lon=..]`: the Sun, the Moon, the planets, the
    /// seasons and the satellite's passes of that day at the device's place (or the one given).
    static func sky<Clock: MonotonicClock>(_ loop: OutputLoop<Clock>, _ request: HTTPRequest) -> HTTPResponse {
        let services = loop.context.services
        let now = loop.context.utcNow()
        // Which place the sky is for, as the page says it: the fix, the configured observer, the
        // last fix (with its date), or the one asked for.
        let place: (latitude: Double, longitude: Double, source: String?)
        switch WebSkyReads.place(loop, request) {
        case .success(let found): place = found
        case .failure(let refusal): return refusal.response
        }
        let source = place.source
        let zone = services.localClock.zone
        let today = SkyAnswer.localDate(now, zone: zone)
        let date: (year: Int, month: Int, day: Int)
        switch WebSkyReads.date(request, today: today) {
        case .success(let asked): date = asked
        case .failure(let refusal): return refusal.response
        }
        let (start, end) = SkyAnswer.day(date, zone: zone)
        let reference = date == today ? now : start
        var json = SkyAnswer.json(latitude: place.latitude, longitude: place.longitude, elevation: 0, zone: zone, date: date, reference: reference)
        if let source {
            var extra = JSONObjectWriter()
            extra.string("placeSource", source)
            if source == "lastFix", let last = services.sky?.lastKnown { extra.string("lastFixTime", zone.iso8601(last.time)) }
            json = String(json.dropLast()) + "," + extra.finished.dropFirst()
        }
        if let satellites = services.satellites {
            let passes = satellites.passes(place: (place.latitude, place.longitude), from: max(start, reference), to: end + 86_400)
            json =
                String(json.dropLast()) + ",\"passes\":["
                + passes.map {
                    SkyAnswer.pass($0, satellite: satellites.name, catalogNumber: nil, zone: zone)
                }.joined(separator: ",") + "]}"
        }
        return .json(json)
    }

    /// `GET /api/v1/departures?stop=NAME|ID&at=ISO-8601|YYYY-MM-DD&count=N`: the socket's DEPARTURES.
    static func departures<Clock: MonotonicClock>(_ loop: OutputLoop<Clock>, _ request: HTTPRequest) -> HTTPResponse {
        var members: [(String, JSONValue)] = []
        if let stop = request.parameter("stop"), !stop.isEmpty { members.append(("stop", .string(stop))) }
        if let count = request.parameter("count") {
            guard let n = Int(count) else { return .text(400, "count is a whole number from 1 to 20") }
            members.append(("count", .number(Double(n))))
        }
        if let at = request.parameter("at"), !at.isEmpty { members.append(("at", .string(at))) }
        guard let answer = loop.context.fanout.web?.app.requests.answer("DEPARTURES", .object(members)), let report = answer.first else {
            return .text(500, "DEPARTURES is not served")
        }
        if case .error(let message) = report { return .json(GPSDReports.line(.error(message)), status: message.hasPrefix("no timetable") ? 404 : 422) }
        return .json(GPSDReports.line(report))
    }

    /// `GET /api/v1/stops?q=WORDS`: the favourite stops in their order, and the stops whose
    /// name holds every word (at most 50).
    static func stops<Clock: MonotonicClock>(_ loop: OutputLoop<Clock>, _ request: HTTPRequest) -> HTTPResponse {
        guard let transit = loop.context.services.transit else { return noTimetable }
        let timetable = transit.timetable
        func object(_ index: Int) -> String {
            var w = JSONObjectWriter()
            w.string("id", timetable.stops[index].id)
            w.string("name", timetable.stops[index].name)
            w.number("lat", timetable.stops[index].latitude, decimals: 6)
            w.number("lon", timetable.stops[index].longitude, decimals: 6)
            return w.finished
        }
        let favourites = transit.favourites().compactMap { timetable.stop(id: $0) }
        let words = String((request.parameter("q") ?? "").prefix(200))
        let found = words.isEmpty ? [] : Array(timetable.stops(matching: words).prefix(50))
        return .json(
            "{\"class\":\"STOPS\",\"favourites\":[" + favourites.map(object).joined(separator: ",")
                + "],\"stops\":[" + found.map(object).joined(separator: ",") + "]}")
    }

    /// `GET /api/v1/waves?stop=ID|NAME&date=YYYY-MM-DD` or `?lat=..&lon=..[&radius=M]&date=..`:
    /// the day's waves at the stop, or where the wakes reach the spot on the shore; the object
    /// `lodestone waves --json` prints (built by the same code), in the device's zone.
    static func waves<Clock: MonotonicClock>(_ loop: OutputLoop<Clock>, _ request: HTTPRequest) -> HTTPResponse {
        guard let transit = loop.context.services.transit else { return noTimetable }
        let timetable = transit.timetable
        let place: WavesAnswer.Place
        let stop = request.parameter("stop") ?? ""
        if request.parameter("lat") != nil || request.parameter("lon") != nil {
            guard stop.isEmpty else { return .text(400, "either stop, or lat and lon for a spot on the shore, not both") }
            guard let lat = request.parameter("lat").flatMap(Double.init), (-90...90).contains(lat),
                let lon = request.parameter("lon").flatMap(Double.init), (-180...180).contains(lon)
            else {
                return .text(400, "lat and lon are degrees (-90..90, -180..180), both given")
            }
            var radius = 1500.0
            if let text = request.parameter("radius") {
                guard let metres = Double(text), (10...20_000).contains(metres) else {
                    return .text(400, "radius is the metres a ship may pass from the spot, 10 to 20000")
                }
                radius = metres
            }
            place = .spot(latitude: lat, longitude: lon, radius: radius)
        } else {
            guard !stop.isEmpty, stop.count <= 200 else {
                return .text(400, "stop is a stop's id or words of its name (up to 200 characters), or lat and lon give a spot")
            }
            guard request.parameter("radius") == nil else { return .text(400, "radius goes with lat and lon (a spot), not with a stop") }
            guard let index = timetable.stops(matching: stop).first else {
                return .json(GPSDReports.line(.error("no stop matches '\(stop)'")), status: 404)
            }
            place = .stop(index)
        }
        var date: (year: Int, month: Int, day: Int)?
        if let text = request.parameter("date") {
            guard let given = CivilTime.parseDate(text), (1900...2100).contains(given.year) else {
                return .text(400, "date is YYYY-MM-DD, 1900-2100 (the years the sky's models are documented for)")
            }
            date = given
        }
        let now = loop.context.utcNow()
        guard
            let day = WavesAnswer.day(
                timetable, marks: transit.marks(now: now), place: place, date: date, now: now, outlook: loop.context.outlook, clock: transit.localClock)
        else {
            return .json(GPSDReports.line(.error("the timetable has no stops")), status: 404)
        }
        return .json(WavesAnswer.json(day, timetable: timetable))
    }

    /// `GET /api/v1/trip?stop=ID|NAME&trip=ID&time=ISO-8601`: the trip that leaves the stop at
    /// that time (a departure the departures gave), and its calls from there on.
    static func trip<Clock: MonotonicClock>(_ loop: OutputLoop<Clock>, _ request: HTTPRequest) -> HTTPResponse {
        guard let transit = loop.context.services.transit else { return noTimetable }
        guard let stop = request.parameter("stop"), !stop.isEmpty, stop.count <= 200, let trip = request.parameter("trip"), !trip.isEmpty, trip.count <= 200
        else {
            return .text(400, "stop (a stop's id or name) and trip (a trip's id, up to 200 characters) are both needed")
        }
        guard let text = request.parameter("time"), let time = CivilTime.parseISO8601(text), time > -2_208_988_800, time < 4_102_444_800 else {
            return .text(400, "time is when the trip leaves the stop, ISO-8601 with its offset (2026-07-24T23:00:00+02:00), 1900-2100")
        }
        guard let found = transit.trip(trip, from: stop, at: time) else {
            return .json(GPSDReports.line(.error("trip '\(trip)' does not leave '\(stop)' at \(text)")), status: 404)
        }
        let timetable = transit.timetable
        func stopObject(_ index: Int) -> String {
            var w = JSONObjectWriter()
            w.string("id", timetable.stops[index].id)
            w.string("name", timetable.stops[index].name)
            return w.finished
        }
        var w = JSONObjectWriter()
        w.string("class", "TRIP")
        w.string("trip", found.departure.trip)
        w.string("route", found.departure.route)
        w.string("headsign", found.departure.headsign)
        w.raw("stop", stopObject(found.stop))
        w.string("time", found.zone.iso8601(found.departure.time))
        w.raw(
            "calls",
            "["
                + found.calls.map { call in
                    var c = JSONObjectWriter()
                    c.raw("stop", stopObject(call.stop))
                    c.string("time", found.zone.iso8601(call.time))
                    return c.finished
                }.joined(separator: ",") + "]")
        return .json(w.finished)
    }
}
