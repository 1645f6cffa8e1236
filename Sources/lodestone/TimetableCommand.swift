import Glibc
import LodestoneCore
import LodestoneDomain
import LodestoneOutputs
import LodestoneReports
import LodestoneRuntime
import LodestoneEncoding
import LodestoneSettings
import LodestoneStorage

/// `lodestone timetable import` and `lodestone departures`: a GTFS feed kept on the device,
/// and the next departures from a stop, offline.
enum TimetableCommand {
    static let importHelp = """
        Usage: lodestone timetable import FEED [--near LAT,LON] [--radius KM] [--route-type N] [--data-dir DIR]

        Reads a GTFS static feed (a .zip, or its folder) and keeps it in <data-dir>/timetable: the
        stops, routes, trips, stop times and service calendars. --near with --radius (km, default
        10) keeps only the stops within reach and what serves them; --route-type keeps one kind of
        route (4 ferries, 3 buses, 2 rail), so a national feed fits on a card. It says what it kept
        and what it skipped; a malformed file is refused with its name and line, and the timetable
        kept before stays. The new timetable is written beside the old one and takes its place in
        one step: an import that is interrupted leaves the old timetable, whole.

        Example:
          lodestone timetable import ch-gtfs.zip --near 46.686,7.77 --radius 20 --route-type 4
        """

    static let departuresHelp = """
        Usage: lodestone departures [--stop NAME|ID|nearest|favourite] [--count N] [--at WHEN] [--lat L --lon L] [--json] [--data-dir DIR]
               lodestone departures search WORDS
               lodestone departures favourite add STOP | remove STOP | move STOP POSITION | list
               lodestone departures remind TRIP [--stop STOP] [--minutes N]   [--socket PATH]
               lodestone departures reminders [cancel ID]                     [--socket PATH]

        The next departures from a stop of the imported timetable: the time in the stop's zone
        (named once, under the stop), the route, the headsign and the minutes to go, honouring
        the service calendars and their exceptions and trips past midnight. --stop takes a stop's id or words of its name, or
        nearest (the default): the stop nearest --lat/--lon, else the running instance's position,
        given with its distance and bearing. --at asks for another moment than now: a date
        (2026-12-24: from the start of that day at the stop), a local time at the stop
        (2026-12-24T09:30), or a time with its offset (2026-12-24T09:30:00+01:00). A departure on
        another day than today carries its weekday; the countdown reads "in 37 min",
        "in 1 h 37 min", "tomorrow 09:34" or "in 3 days".
        --json prints {"stop":{"id","name"},"departures":[{"time","route","headsign","trip","next","minutes","light",
        "forecast","mark"}],"validUntil"}: light is day (the Sun's centre at or above -0.833°), twilight (down to
        -6°) or dark, at the stop; forecast is the Zambretti forecast {"letter","text","trend"} from the pressure
        'lodestone run' kept (history.bin, its newest minute at most an hour old), for departures in its 12 hours,
        else null.

        remind sets a reminder on the running device (an EVENT and the buzzer N minutes before the
        trip leaves, default 10; the stop as --stop above, default the favourite or the nearest);
        reminders lists them with their ids, reminders cancel ID cancels one. They are kept in
        <data-dir>/timetable-reminders.json and survive a restart; each sounds once.

        search lists the stops whose name holds every word. favourite keeps stops in an order of
        your own; --stop favourite asks for the first. Marks from <data-dir>/timetable-marks.csv
        ("match,label,rating": a route's id or name, a trip id, or a headsign pattern with *; a
        rating from 0 to 5) are shown with each departure they match.
        """

    static func importFeed(_ arguments: ArraySlice<String>) throws(UsageError) -> Int32 {
        let options = try Options(arguments, spec: OptionSpec(valued: ["near", "radius", "route-type", "data-dir"], flags: []), command: "timetable")
        guard options.positional.first == "import" else { throw UsageError(message: "timetable what? import FEED (see 'lodestone timetable --help')") }
        guard options.positional.count == 2 else { throw UsageError(message: "timetable import takes one feed: a .zip or its folder") }
        var filter = GTFSImport.Filter()
        if let near = options.values["near"] {
            let parts = near.split(separator: ",").compactMap { Double($0) }
            guard parts.count == 2, abs(parts[0]) <= 90, abs(parts[1]) <= 180 else {
                throw UsageError(message: "--near takes LAT,LON in degrees (46.686,7.77), not '\(near)'")
            }
            filter.near = (parts[0], parts[1])
        }
        if let radius = try options.number("radius", in: 0.1...2000) {
            guard filter.near != nil else { throw UsageError(message: "--radius goes with --near") }
            filter.radiusKilometres = radius
        }
        filter.routeType = try options.integer("route-type", in: 0...1700)
        let feed = options.positional[1]
        let store = TimetableStore(dataDirectory: options.values["data-dir"] ?? Configuration.defaultDataDirectory())
        let (timetable, summary): (Timetable, GTFSImport.Summary)
        let progress = TerminalProgress()
        do {
            (timetable, summary) = try GTFSImport.read(feed, filter: filter) { table, done, total in
                progress.update("importing \(table)", done: done, total: total, unit: "MB")
            }
        } catch {
            progress.finish()
            Log.error(error.description + (store.exists ? "; the timetable kept before stays" : ""))
            return 1
        }
        progress.finish()
        guard !timetable.stops.isEmpty else {
            Log.error("\(feed): no stop is left after the filters (widen --radius, or check --near and --route-type)")
            return 1
        }
        guard store.save(timetable) else {
            Log.error("cannot write \(store.directory)" + (store.exists ? "; the timetable kept before stays" : ""))
            return 1
        }
        writeOut("kept " + summary.kept.map { "\($0.count) \($0.table)" }.joined(separator: ", ") + " in \(store.directory)\n")
        for line in summary.skipped { writeOut("skipped " + line + "\n") }
        return 0
    }

    static func departures(_ arguments: ArraySlice<String>) throws(UsageError) -> Int32 {
        let options = try Options(
            arguments, spec: OptionSpec(valued: ["stop", "count", "at", "lat", "lon", "data-dir", "socket", "minutes"], flags: ["json"]),
            command: "departures")
        let count = try options.integer("count", in: 1...100) ?? 5
        if let action = options.positional.first, action == "remind" || action == "reminders" {
            return try reminders(action, Array(options.positional.dropFirst()), options: options)
        }
        var now = OutputClock.unixTime()
        let latitude = try options.number("lat", in: -90...90), longitude = try options.number("lon", in: -180...180)
        let store = TimetableStore(dataDirectory: options.values["data-dir"] ?? Configuration.defaultDataDirectory())
        let timetable: Timetable
        do { timetable = try store.load() } catch {
            Log.error(error.description)
            return 1
        }
        let preferences = TransitPreferences(dataDirectory: options.values["data-dir"] ?? Configuration.defaultDataDirectory())
        if let action = options.positional.first {
            return try manage(action, Array(options.positional.dropFirst()), timetable: timetable, preferences: preferences)
        }
        var wanted = options.values["stop"] ?? "nearest"
        if wanted == "favourite" {
            guard let first = preferences.favourites().first else { Log.error("no favourite stops yet: 'lodestone departures favourite add STOP'"); return 1 }
            wanted = first
        }
        var chosen: Int?
        var way = ""
        if wanted == "nearest" {
            guard let here = latitude.flatMap({ lat in longitude.map { (lat, $0) } }) ?? WaypointCommand.runningPosition(socket: options.values["socket"])
            else {
                Log.error("no position for the nearest stop: give --lat and --lon, --stop NAME, or run 'lodestone run' with a GPS fix")
                return 1
            }
            // The nearest with service, as the running device finds it (`transit.nearestWithinKm`
            // of the configuration file).
            let within = ((try? Configuration.commandConfiguration(nil))?.nearestStopWithinKm ?? 20) * 1000
            var at = now
            if let given = options.values["at"] { at = try moment(given, zone: .utc) }
            guard let found = NearestStop.find(in: timetable, latitude: here.0, longitude: here.1, time: at, within: within) else {
                Log.error("no stop with service in the next 24 hours within \(DecimalText.compact(within / 1000, 1)) km: give --stop NAME to search for one")
                return 1
            }
            chosen = found.index
            way = "\(fixed(found.distance, 0)) m at \(fixed(found.bearing, 0))° \(CompassPoint.name(found.bearing))"
        } else {
            let matches = timetable.stops(matching: wanted)
            guard let first = matches.first else { Log.error("no stop matches '\(wanted)'"); return 1 }
            if matches.count > 1 && !options.flags.contains("json") {
                Log.warning(
                    "\(matches.count) stops match '\(wanted)': \(matches.prefix(5).map { timetable.stops[$0].name }.joined(separator: ", ")); the first is shown"
                )
            }
            chosen = first
        }
        guard let index = chosen else { Log.error("the timetable has no stops"); return 1 }
        let stop = timetable.stops[index]
        let zone = (try? TimeZoneRules(stop.timeZone)) ?? .utc
        if let at = options.values["at"] { now = try moment(at, zone: zone) }
        let list = timetable.departures(from: index, after: now, count: count)
        // The forecast from the kept pressure (made at most an hour ago), for its 12 hours.
        let outlook = HistoryStreams.outlook(
            dataDirectory: options.values["data-dir"] ?? Configuration.defaultDataDirectory(),
            now: OutputClock.unixTime(), latitude: stop.latitude)
        let (marks, problems) = preferences.marks()
        for problem in problems { Log.warning(problem) }
        func mark(_ d: Timetable.Departure) -> TransitPreferences.Mark? { TransitPreferences.mark(for: d, in: marks) }
        if options.flags.contains("json") {
            var w = JSONObjectWriter()
            var s = JSONObjectWriter()
            s.string("id", stop.id)
            s.string("name", stop.name)
            w.raw("stop", s.finished)
            let items = list.map { d -> String in
                var item = JSONObjectWriter()
                item.string("time", zone.iso8601(d.time))
                item.string("route", d.route)
                item.string("headsign", d.headsign)
                item.string("trip", d.trip)
                if let next = d.next { item.string("next", timetable.stops[next].name) }
                item.integer("minutes", Int(((d.time - now) / 60).rounded(.down)))
                item.string("light", WaveDay.Light.at(d.time, latitude: stop.latitude, longitude: stop.longitude).rawValue)
                item.raw("forecast", ForecastJSON.object(outlook?.forecast(at: d.time)))
                if let m = mark(d) {
                    var o = JSONObjectWriter()
                    o.string("label", m.label)
                    o.integer("rating", m.rating)
                    item.raw("mark", o.finished)
                }
                return item.finished
            }
            w.raw("departures", "[" + items.joined(separator: ",") + "]")
            if let until = timetable.validUntil { w.string("validUntil", ServiceEnd.text(until)) } else { w.null("validUntil") }
            writeOut(w.finished + "\n")
            if let warning = ServiceEnd.warning(timetable, now: now) { Log.warning(warning) }
            return 0
        }
        writeOut("\(stop.name)" + (way.isEmpty ? "" : "  (\(way))") + "\n")
        // The times stand alone below: their zone once, by its abbreviation and its name.
        writeOut("  times in \(zone.abbreviation(at: now)), the stop's zone (\(zone.name))\n")
        if list.isEmpty { writeOut("  no departure in the next week\n") }
        if let warning = ServiceEnd.warning(timetable, now: now) { Log.warning(warning) }
        // The weekday and date too when it is not today's (a night boat, a timetable for
        // tomorrow), today's then set in by as much.
        let otherDays = list.contains { zone.localDays(from: now, to: $0.time) != 0 }
        for d in list {
            let days = zone.localDays(from: now, to: d.time)
            let clock =
                (days == 0 ? (otherDays ? String(repeating: " ", count: 10) : "") : DepartureWords.day(d.time, zone: zone) + " ")
                + DepartureWords.clock(d.time, zone: zone)
            let note = mark(d).map { "  " + $0.label + " " + String(repeating: "*", count: $0.rating) } ?? ""
            let next = d.next.map { "  next " + timetable.stops[$0].name } ?? ""
            let forecast = outlook?.forecast(at: d.time).map { "  \($0.text)" } ?? ""
            writeOut(
                "  \(clock)  \(d.route.padding(12))  \(d.headsign.padding(20))  \(DepartureWords.countdown(to: d.time, from: now, zone: zone))\(note)\(next)\(forecast)\n"
            )
        }
        return 0
    }

    /// When the timetable's services end, and the warning when that is within 14 days.
    enum ServiceEnd {
        static func text(_ date: Int) -> String { zeroPadded(date / 10_000, 4) + "-" + zeroPadded(date / 100 % 100, 2) + "-" + zeroPadded(date % 100, 2) }

        static func warning(_ timetable: Timetable, now: Double) -> String? {
            guard let until = timetable.validUntil else { return nil }
            let today = CivilTime(unixSeconds: now)
            let days =
                CivilTime.days(year: until / 10_000, month: until / 100 % 100, day: until % 100)
                - CivilTime.days(year: today.year, month: today.month, day: today.day)
            guard days < 14 else { return nil }
            return days < 0
                ? "the timetable's services ended on \(text(until)): import a newer feed"
                : "the timetable's services end on \(text(until)), in \(days) days: import a newer feed before then"
        }
    }

    /// `--at`: a date (the start of that day at the stop), a local time at the stop without an
    /// offset, or an ISO-8601 time with its offset.
    static func moment(_ text: String, zone: TimeZoneRules) throws(UsageError) -> Double {
        if let date = CivilTime.parseDate(text), (1900...2100).contains(date.year) {
            return zone.midnight(year: date.year, month: date.month, day: date.day)
        }
        if let time = CivilTime.parseISO8601(text) { return time }
        // A local time: read as UTC, then moved by the zone's offset at that moment.
        if let asUTC = CivilTime.parseISO8601(text + "Z") ?? CivilTime.parseISO8601(text + ":00Z") {
            let guess = asUTC - Double(zone.offset(at: asUTC))
            return asUTC - Double(zone.offset(at: guess))
        }
        throw UsageError(
            message: "--at takes a date (2026-12-24), a local time at the stop (2026-12-24T09:30) or a time with its offset "
                + "(2026-12-24T09:30:00+01:00), not '\(text)'")
    }

    /// `remind TRIP`, `reminders`, `reminders cancel ID`: the running device's ?REMINDER.
    static func reminders(_ action: String, _ words: [String], options: Options) throws(UsageError) -> Int32 {
        let request: ReminderRequest
        switch (action, words.first) {
        case ("remind", let trip?) where words.count == 1:
            request = .add(trip: trip, stop: options.values["stop"], minutes: try options.number("minutes", in: 1...180) ?? 10)
        case ("remind", _):
            throw UsageError(message: "remind which trip? 'lodestone departures --json' gives each departure's trip")
        case ("reminders", nil):
            request = .list
        case ("reminders", "cancel"?) where words.count == 2:
            request = .cancel(id: words[1])
        default:
            throw UsageError(message: "reminders takes nothing (the list) or cancel ID")
        }
        return LockCommand.exchange(request.text, socket: options.values["socket"], json: options.flags.contains("json"), answer: [#""class":"REMINDERS""#]) {
            report in
            var lines = (report["message"]?.stringValue).map { [$0] } ?? []
            let list = report["reminders"]?.arrayValue ?? []
            if list.isEmpty && request == .list { lines.append("no reminders set: 'lodestone departures remind TRIP'") }
            for r in list {
                let departure = r["departure"]?.stringValue ?? "", at = r["at"]?.stringValue ?? ""
                lines.append(
                    "\(r["id"]?.stringValue ?? "?")  \(departure.prefix(16).replacing("T", with: " "))  \(r["route"]?.stringValue ?? "") to "
                        + "\(r["headsign"]?.stringValue ?? "") from \(r["stop"]?["name"]?.stringValue ?? "")  (reminded at \(at.dropFirst(11).prefix(5)))")
            }
            return lines.joined(separator: "\n")
        }
    }

    /// `search WORDS` and `favourite add|remove|move|list`.
    static func manage(_ action: String, _ words: [String], timetable: Timetable, preferences: TransitPreferences) throws(UsageError) -> Int32 {
        func stop(_ text: String?) throws(UsageError) -> Timetable.Stop {
            guard let text, let index = timetable.stops(matching: text).first else {
                throw UsageError(message: "which stop? give its id or words of its name ('lodestone departures search WORDS' finds them)")
            }
            return timetable.stops[index]
        }
        switch action {
        case "search":
            let found = timetable.stops(matching: words.joined(separator: " "))
            if found.isEmpty { writeOut("no stop matches '\(words.joined(separator: " "))'\n") }
            for index in found.prefix(50) { writeOut("\(timetable.stops[index].id)  \(timetable.stops[index].name)\n") }
            return 0
        case "favourite", "favorite":
            var list = preferences.favourites()
            switch words.first {
            case "add"?:
                let s = try stop(words.dropFirst().first)
                if !list.contains(s.id) { list.append(s.id) }
            case "remove"?:
                let s = try stop(words.dropFirst().first)
                list.removeAll { $0 == s.id }
            case "move"?:
                let s = try stop(words.dropFirst().first)
                guard words.count == 3, let position = Int(words[2]), position >= 1, let from = list.firstIndex(of: s.id) else {
                    throw UsageError(message: "move STOP POSITION: a favourite stop and its new place, 1 for the first")
                }
                list.remove(at: from)
                list.insert(s.id, at: min(position - 1, list.count))
            case "list"?, nil:
                break
            default:
                throw UsageError(message: "favourite what? add, remove, move or list")
            }
            if words.first != nil && words.first != "list" && !preferences.saveFavourites(list) {
                Log.error("cannot write \(preferences.favouritesPath)")
                return 1
            }
            for (n, id) in list.enumerated() {
                let name = timetable.stop(id: id).map { timetable.stops[$0].name } ?? "(no longer in the timetable)"
                writeOut("\(n + 1). \(id)  \(name)\n")
            }
            return 0
        default:
            throw UsageError(message: "departures takes search, favourite, remind or reminders, or options only (see 'lodestone departures --help')")
        }
    }
}
