import LodestoneCore
import LodestoneDomain
import LodestoneEncoding
import LodestoneOutputs
import LodestoneReports
import LodestoneStorage

/// The web app's reads of the running device's services: the recording (`WebTrackAnswer`), the streams'
/// history, the sky of a day, the departures and stops of the timetable, the reminders, the alerts. Each answers with the same
/// JSON as the command-line tool or the socket.
enum WebLiveReads {
    static func routes<Clock: MonotonicClock>(_ loop: OutputLoop<Clock>, dataDirectory: String) -> [String: (HTTPRequest) -> HTTPResponse] {
        [
            "/api/v1/history": { [unowned loop] request in history(loop, request) },
            "/api/v1/sky": { [unowned loop] request in sky(loop, request) },
            "/api/v1/departures": { [unowned loop] request in departures(loop, request) },
            "/api/v1/stops": { [unowned loop] request in stops(loop, request) },
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
        ]
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
        let observer = services.sky?.place(loop.context.latest)
        var place = observer.map { ($0.latitude, $0.longitude) }
        // Which place the sky is for, as the page says it: the fix, the configured observer, the
        // last fix (with its date), or the one asked for.
        var source = observer.map { $0.source.rawValue }
        if request.parameter("lat") != nil || request.parameter("lon") != nil {
            guard let lat = request.parameter("lat").flatMap(Double.init), (-90...90).contains(lat),
                let lon = request.parameter("lon").flatMap(Double.init), (-180...180).contains(lon)
            else {
                return .text(400, "lat and lon are degrees (-90..90, -180..180), both given")
            }
            place = (lat, lon)
            source = "asked"
        }
        guard let place else {
            return .json(GPSDReports.line(.error("no place for the sky yet: no GPS fix, and no observer in the configuration")), status: 422)
        }
        let zone = services.localClock.zone
        let today = SkyAnswer.localDate(now, zone: zone)
        var date = today
        if let text = request.parameter("date") {
            guard let given = CivilTime.parseDate(text), (1900...2100).contains(given.year) else {
                return .text(400, "date is YYYY-MM-DD, 1900-2100 (the years the sky's models are documented for)")
            }
            date = given
        }
        let (start, end) = SkyAnswer.day(date, zone: zone)
        let reference = date == today ? now : start
        var json = SkyAnswer.json(latitude: place.0, longitude: place.1, elevation: 0, zone: zone, date: date, reference: reference)
        if let source {
            var extra = JSONObjectWriter()
            extra.string("placeSource", source)
            if source == "lastFix", let last = services.sky?.lastKnown { extra.string("lastFixTime", zone.iso8601(last.time)) }
            json = String(json.dropLast()) + "," + extra.finished.dropFirst()
        }
        if let satellites = services.satellites {
            let passes = satellites.passes(place: (place.0, place.1), from: max(start, reference), to: end + 86_400)
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
}
