import LodestoneCore
import LodestoneDomain
import LodestoneReports
import LodestoneEncoding

/// The decoders of Lodestone's own requests: each reads its fields from the JSON argument and
/// range-checks them, so a handler only ever sees values it can use.

/// The fields a request's JSON argument may carry, read with the request's name in every error.
struct RequestFields {
    let request: String
    let json: JSONValue?

    func text(_ key: String, limit: Int = 1000) throws(RequestError) -> String? {
        guard let value = json?[key] else { return nil }
        guard let text = value.stringValue, text.utf8.count <= limit else {
            throw RequestError("?\(request) \(key) must be text of at most \(limit) bytes")
        }
        return text
    }

    func number(_ key: String, in range: ClosedRange<Double>, unit: String) throws(RequestError) -> Double? {
        guard let value = json?[key] else { return nil }
        guard let number = value.numberValue, range.contains(number) else {
            throw RequestError(
                "?\(request) \(key) must be a number from \(DecimalText.format(range.lowerBound, 1)) to "
                    + "\(DecimalText.format(range.upperBound, 1))\(unit.isEmpty ? "" : " " + unit), not \(value.asWritten)")
        }
        return number
    }

    func flag(_ key: String) throws(RequestError) -> Bool? {
        guard let value = json?[key] else { return nil }
        guard let flag = value.boolValue else { throw RequestError("?\(request) \(key) must be true or false") }
        return flag
    }

    /// The `action` field: one of `actions`, or nil when not given.
    func action(_ actions: [String]) throws(RequestError) -> String? {
        guard let value = json?["action"] else { return nil }
        guard let action = value.stringValue, actions.contains(action) else {
            let listed = actions.dropLast().joined(separator: ", ") + (actions.count > 1 ? " or " : "") + (actions.last ?? "")
            throw RequestError("?\(request) action must be \(listed), not '\(value.stringValue ?? "a non-string")'")
        }
        return action
    }
}

extension CalibrateRequest {
    public static func decode(_ json: JSONValue?) throws(RequestError) -> CalibrateRequest {
        let fields = RequestFields(request: "CALIBRATE", json: json)
        if try fields.flag("cancel") == true { return .cancel }
        guard let given = json?["mode"] else { return .start(nil) }
        guard let name = given.stringValue, let mode = CalibrationMode(rawValue: name) else {
            throw RequestError("?CALIBRATE mode must be \"figure8\" or \"swing\"")
        }
        return .start(mode)
    }
}

extension LockRequest {
    public static func decode(_ json: JSONValue?) throws(RequestError) -> LockRequest {
        guard let value = json?["bearing"] else { return LockRequest(bearing: nil) }
        guard let bearing = value.numberValue, (0...360).contains(bearing) else {
            throw RequestError("?LOCK bearing must be a number of degrees from 0 to 360, not \(value.asWritten)")
        }
        return LockRequest(bearing: Angle.heading(bearing))
    }
}

extension LevelRequest {
    public static func decode(_ json: JSONValue?) throws(RequestError) -> LevelRequest {
        let fields = RequestFields(request: "LEVEL", json: json)
        if try fields.flag("clear") == true { return .clear }
        if try fields.flag("zero") == true { return .zero }
        return .report
    }
}

extension TrackRequest {
    public static func decode(_ json: JSONValue?) throws(RequestError) -> TrackRequest {
        let fields = RequestFields(request: "TRACK", json: json)
        switch try fields.action(["start", "pause", "resume", "stop"]) {
        case "start"?:
            var mode: TrackSampler.Mode?
            if let interval = json?["interval"] {
                guard let parsed = TrackSampler.Mode(interval.stringValue ?? interval.numberValue.map { String($0) } ?? "") else {
                    throw RequestError("?TRACK interval must be 1..30 seconds or \"adaptive\"")
                }
                mode = parsed
            }
            var tags: [String] = []
            if let given = json?["tags"] {
                guard let list = given.arrayValue, list.count <= 50,
                    let texts = Optional(list.compactMap(\.stringValue)), texts.count == list.count, texts.allSatisfy({ $0.utf8.count <= 100 })
                else {
                    throw RequestError("?TRACK tags must be a list of at most 50 words of at most 100 bytes")
                }
                tags = texts
            }
            if let given = json?["private"], given.boolValue == nil { throw RequestError("?TRACK private must be true or false") }
            return .start(
                name: try fields.text("name", limit: 200), tags: tags, mode: mode, notes: try fields.text("notes", limit: 4000),
                isPrivate: json?["private"]?.boolValue ?? false)
        case "pause"?: return .pause
        case "resume"?: return .resume
        case "stop"?: return .stop
        default: return .report
        }
    }
}

extension WaypointRequest {
    public static func decode(_ json: JSONValue?) throws(RequestError) -> WaypointRequest {
        let fields = RequestFields(request: "WAYPOINT", json: json)
        switch try fields.action(["add", "goto", "nearest", "stop", "back", "rename", "delete"]) {
        case "add"?:
            // No name: one is given ("Waypoint 3") to be changed later.
            let name = try fields.text("name", limit: 200) ?? ""
            var latitude = try fields.number("lat", in: -90...90, unit: "degrees")
            var longitude = try fields.number("lon", in: -180...180, unit: "degrees")
            if let written = try fields.text("position", limit: 200) {
                guard latitude == nil, longitude == nil else { throw RequestError("?WAYPOINT add takes position or lat and lon, not both") }
                guard let place = CoordinateParser.parse(written) else {
                    throw RequestError(
                        "?WAYPOINT position must be a place as 47.376887, 8.541694 or 47°22.6132' N 8°32.5016' E or 47°22'36.8\" N 8°32'30.1\" E, not \(written)"
                    )
                }
                (latitude, longitude) = (place.latitude, place.longitude)
            }
            return .add(
                name: name, latitude: latitude, longitude: longitude, elevation: try fields.number("ele", in: -500...9000, unit: "metres"),
                symbol: try fields.text("symbol", limit: 100),
                notes: try fields.text("notes"))
        case "goto"?:
            return .goto(name: try fields.text("name", limit: 200) ?? "")
        case "rename"?:
            guard let name = try fields.text("name", limit: 200), let to = try fields.text("to", limit: 200), !to.isEmpty else {
                throw RequestError("?WAYPOINT rename needs the waypoint's name and the new one (to)")
            }
            return .rename(name: name, to: to)
        case "delete"?:
            guard let name = try fields.text("name", limit: 200) else { throw RequestError("?WAYPOINT delete needs the waypoint's name") }
            return .delete(name: name)
        case "nearest"?: return .nearest
        case "back"?: return .back
        case "stop"?: return .stop
        default: return .report
        }
    }
}

extension BaroRequest {
    public static func decode(_ json: JSONValue?) throws(RequestError) -> BaroRequest {
        if let value = json?["qnh"] {
            guard let hPa = value.numberValue, (850...1100).contains(hPa) else {
                throw RequestError("?BARO qnh must be a pressure in hPa from 850 to 1100, not \(value.asWritten)")
            }
            return .qnh(hPa)
        }
        if let value = json?["altitude"] {
            guard let metres = value.numberValue, (-500...9000).contains(metres) else {
                throw RequestError("?BARO altitude must be metres from -500 to 9000, not \(value.asWritten)")
            }
            return .altitude(metres)
        }
        return .report
    }
}

extension AlertRuleChange {
    /// A rule change from `?ALERT`'s argument.
    public static func decode(_ json: JSONValue) throws(RequestError) -> AlertRuleChange {
        guard let name = json["name"]?.stringValue, let kind = AlertRules.Kind(rawValue: name) else {
            throw RequestError("?ALERT name must be one of " + AlertRules.Kind.allCases.map(\.rawValue).joined(separator: ", "))
        }
        let fields = RequestFields(request: "ALERT", json: json)
        func figure(_ key: String, _ range: ClosedRange<Double>, _ unit: String) throws(RequestError) -> Double? {
            do throws(RequestError) {
                return try fields.number(key, in: range, unit: unit)
            } catch {
                throw RequestError(
                    "?ALERT \(key) for \(name) must be a number from \(DecimalText.format(range.lowerBound, 1)) to "
                        + "\(DecimalText.format(range.upperBound, 1)) \(unit), not \(json[key]?.asWritten ?? "?")")
            }
        }
        return AlertRuleChange(
            kind: kind, enabled: try fields.flag("enabled"),
            threshold: try figure("threshold", kind.thresholdRange, kind.unit),
            hysteresis: try figure("hysteresis", AlertRuleChange.hysteresisRange, kind.unit),
            cooldown: try figure("cooldown", AlertRuleChange.cooldownRange, "s"))
    }

    /// `?ALERT;` (nil: list the rules) or a change.
    public static func decodeRequest(_ json: JSONValue?) throws(RequestError) -> AlertRuleChange? {
        guard let json else { return nil }
        return try decode(json)
    }
}

extension LogRequest {
    public static func decode(_ json: JSONValue?) throws(RequestError) -> LogRequest {
        let fields = RequestFields(request: "LOG", json: json)
        switch try fields.action(["start", "stop"]) {
        case "start"?:
            var interval = 10.0
            if let value = json?["interval"] {
                if value.stringValue == "every" {
                    interval = 0
                } else if let seconds = value.numberValue, (1...3600).contains(seconds) {
                    interval = seconds
                } else {
                    throw RequestError("?LOG interval must be 1 to 3600 seconds or \"every\"")
                }
            }
            var names = defaultStreams
            if let given = json?["streams"] {
                guard let list = given.arrayValue, list.count <= streams.count else {
                    throw RequestError("?LOG streams must be a list of stream names: " + streams.joined(separator: ", "))
                }
                names = list.compactMap(\.stringValue)
                if let unknown = list.first(where: { $0.stringValue.map { !streams.contains($0) } ?? true }) {
                    throw RequestError("?LOG stream '\(unknown.stringValue ?? "?")' is not one of " + streams.joined(separator: ", "))
                }
            }
            guard !names.isEmpty else { throw RequestError("?LOG streams must name at least one stream") }
            var duration: Double?
            if let value = json?["duration"] {
                guard let seconds = value.numberValue, seconds > 0, seconds <= 366 * 86_400 else {
                    throw RequestError("?LOG duration must be seconds, more than 0")
                }
                duration = seconds
            }
            return .start(interval: interval, streams: names, duration: duration)
        case "stop"?: return .stop
        default: return .report
        }
    }
}

extension DeparturesRequest {
    public static func decode(_ json: JSONValue?) throws(RequestError) -> DeparturesRequest {
        let fields = RequestFields(request: "DEPARTURES", json: json)
        let count = try fields.number("count", in: 1...20, unit: "departures").map { Int($0) } ?? 3
        var at: Double?, day: String?
        if let text = try fields.text("at", limit: 64) {
            // A date is that day from its start at the stop; a time needs its offset.
            if let date = CivilTime.parseDate(text) {
                guard (1900...2100).contains(date.year) else { throw RequestError("?DEPARTURES at must be a date within 1900-2100, not '\(text)'") }
                day = text
            } else {
                // The timetable's calendars are read for 1900-2100 at most; a year beyond says so.
                guard let time = CivilTime.parseISO8601(text), time > -2_208_988_800, time < 4_102_444_800 else {
                    throw RequestError("?DEPARTURES at must be an ISO-8601 time with its offset (2026-07-24T23:00:00+02:00), not '\(text)'")
                }
                at = time
            }
        }
        return DeparturesRequest(
            stop: try fields.text("stop", limit: 200), count: count, remind: try fields.text("remind", limit: 200),
            minutes: try fields.number("minutes", in: 1...180, unit: "minutes") ?? 10, at: at, day: day)
    }
}

extension WavesRequest {
    public static func decode(_ json: JSONValue?) throws(RequestError) -> WavesRequest {
        let fields = RequestFields(request: "WAVES", json: json)
        var date: String?
        if let text = try fields.text("date", limit: 16) {
            guard let day = CivilTime.parseDate(text), (1900...2100).contains(day.year) else {
                throw RequestError("?WAVES date must be YYYY-MM-DD within 1900-2100")
            }
            date = text
        }
        if let spot = json?["spot"] {
            guard let pair = spot.arrayValue, pair.count == 2, let lat = pair[0].numberValue, let lon = pair[1].numberValue,
                (-90...90).contains(lat), (-180...180).contains(lon)
            else {
                throw RequestError("?WAVES spot must be [LAT,LON] in degrees")
            }
            let radius = try fields.number("radius", in: 10...20_000, unit: "m") ?? 1500
            return WavesRequest(place: .spot(latitude: lat, longitude: lon, radius: radius), date: date)
        }
        guard let stop = try fields.text("stop", limit: 200) else { throw RequestError("?WAVES needs a place: {\"stop\":NAME} or {\"spot\":[LAT,LON]}") }
        return WavesRequest(place: .stop(stop), date: date)
    }
}

extension ReminderRequest {
    public static func decode(_ json: JSONValue?) throws(RequestError) -> ReminderRequest {
        let fields = RequestFields(request: "REMINDER", json: json)
        if let id = try fields.text("cancel", limit: 16) { return .cancel(id: id) }
        guard let trip = try fields.text("trip", limit: 200) else {
            if json?["stop"] != nil || json?["minutes"] != nil { throw RequestError("?REMINDER needs the trip to be reminded of: {\"trip\":ID}") }
            return .list
        }
        return .add(trip: trip, stop: try fields.text("stop", limit: 200), minutes: try fields.number("minutes", in: 1...180, unit: "minutes") ?? 10)
    }
}

extension SnapshotRequest {
    public static func decode(_ json: JSONValue?) throws(RequestError) -> SnapshotRequest {
        let fields = RequestFields(request: "SNAPSHOT", json: json)
        return SnapshotRequest(name: try fields.text("name"), notes: try fields.text("notes"))
    }
}

extension WebForgetRequest {
    public static func decode(_ json: JSONValue?) throws(RequestError) -> WebForgetRequest {
        guard let id = json?["id"]?.stringValue, !id.isEmpty, id.utf8.count <= 16 else {
            throw RequestError("?WEBFORGET needs the browser's id, as 'lodestone web devices' lists it")
        }
        return WebForgetRequest(id: id)
    }
}
