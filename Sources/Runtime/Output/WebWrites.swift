import LodestoneCore
import LodestoneEncoding
import LodestoneOutputs
import LodestoneReports
import LodestoneStorage

/// The web app's changes to what the device keeps, beyond the socket's requests: a stored
/// track's name and notes, its deletion (which the page confirms first), favourite stops, the
/// zone a phone offers.
enum WebWrites {
    static func routes<Clock: MonotonicClock>(_ loop: OutputLoop<Clock>, dataDirectory: String) -> [String: (HTTPRequest, JSONValue?) -> HTTPResponse] {
        let tracks = TrackStore(dataDirectory: dataDirectory)
        return [
            // POST /api/v1/tracks/ID {"name":..,"notes":..}; POST /api/v1/tracks/ID/delete {"confirm":true}.
            "/api/v1/tracks": { request, body in
                let rest = request.path.dropFirst("/api/v1/tracks/".count).split(separator: "/", omittingEmptySubsequences: false)
                guard request.path.hasPrefix("/api/v1/tracks/"), let id = rest.first.map(String.init), !id.isEmpty, id.utf8.count <= 64,
                    tracks.contains(id: id)
                else {
                    return failure("no such track: GET /api/v1/tracks lists them", status: 404)
                }
                if rest.count == 2 && rest.last == "delete" {
                    guard body?["confirm"]?.boolValue == true else { return failure("deleting a track needs {\"confirm\":true}", status: 422) }
                    guard tracks.delete(id: id) else { return failure("track \(id) could not be deleted", status: 500) }
                    return .json("{\"class\":\"TRACKS\",\"deleted\":" + JSONObjectWriter.quoted(id) + "}")
                }
                guard rest.count == 1 else { return failure("POST /api/v1/tracks/ID (name, notes) or /api/v1/tracks/ID/delete", status: 404) }
                let name = body?["name"]?.stringValue, notes = body?["notes"]?.stringValue
                guard name != nil || notes != nil else { return failure("give the track's new name or notes: {\"name\":..,\"notes\":..}", status: 422) }
                guard (name?.utf8.count ?? 0) <= 200, (notes?.utf8.count ?? 0) <= 4000, name?.isEmpty != true else {
                    return failure("a name is 1 to 200 bytes, notes at most 4000", status: 422)
                }
                do {
                    let summary = try tracks.edit(id: id, name: name, notes: notes)
                    return .json(
                        "{\"class\":\"TRACKS\",\"id\":" + JSONObjectWriter.quoted(summary.id) + ",\"name\":" + JSONObjectWriter.quoted(summary.name)
                            + ",\"notes\":" + JSONObjectWriter.quoted(summary.notes) + "}")
                } catch {
                    return failure("\(error)", status: 500)
                }
            },
            // POST /api/v1/photo: the shutter, as ?PHOTO; (PHOTO, or ERROR without a camera).
            "/api/v1/photo": { [unowned loop] _, _ in
                let report = loop.context.takePhoto()
                if case .error = report { return .json(GPSDReports.line(report), status: 422) }
                return .json(GPSDReports.line(report))
            },
            // POST /api/v1/favourite {"stop":ID,"favourite":true|false}.
            "/api/v1/favourite": { [unowned loop] _, body in
                guard let transit = loop.context.services.transit else { return WebLiveReads.noTimetable }
                guard let wanted = body?["stop"]?.stringValue, wanted.utf8.count <= 200,
                    let index = transit.timetable.stops(matching: wanted).first
                else {
                    return failure("which stop? {\"stop\":ID,\"favourite\":true}", status: 422)
                }
                let id = transit.timetable.stops[index].id
                guard transit.setFavourite(id, body?["favourite"]?.boolValue ?? true) else { return failure("the favourites cannot be written", status: 500) }
                return .json("{\"class\":\"STOPS\",\"favourites\":[" + transit.favourites().map(JSONObjectWriter.quoted).joined(separator: ",") + "]}")
            },
            // POST /api/v1/zone {"timeZone":NAME}: the phone's zone, taken while the configuration sets none.
            "/api/v1/zone": { [unowned loop] _, body in takeZone(loop, body: body, dataDirectory: dataDirectory) },
            // POST /api/v1/settings {"key":..,"value":..}: a live setting, checked by the settings table.
            "/api/v1/settings": { [unowned loop] _, body in WebSettings.change(loop, body: body) }
        ].merging(WebSnapshots.writes(dataDirectory: dataDirectory)) { stored, _ in stored }
    }

    /// The zone a paired phone offered and the person took: in force at once on every face, and
    /// kept for the next start. A zone the configuration sets is the configuration's to change.
    static func takeZone<Clock: MonotonicClock>(_ loop: OutputLoop<Clock>, body: JSONValue?, dataDirectory: String) -> HTTPResponse {
        if let configured = loop.running.timeZone, !DeviceZone.isUTC(configured) {
            return failure(
                "the configuration sets timeZone to \(configured): change it there (lodestone config check shows what a reload changes)", status: 409)
        }
        guard let name = body?["timeZone"]?.stringValue, !name.isEmpty, name.utf8.count <= 64, let zone = try? TimeZoneRules(name) else {
            return failure("which zone? {\"timeZone\":\"Europe/Zurich\"}, an IANA name this device knows", status: 422)
        }
        let clock = loop.context.services.localClock
        clock.set(zone: zone, twelveHour: clock.twelveHour)
        loop.context.services.zone = DeviceZone.Choice(name: name, source: .phone)
        loop.context.services.unsetZone = loop.context.services.zone
        DeviceMemoryFile(dataDirectory: dataDirectory).saveTimeZone(name)
        Log.info("times are shown in \(name) (\(zone.abbreviation(at: loop.context.utcNow()))), as the paired phone offered")
        loop.displayDriver.redrawSoon()
        return WebLiveReads.device(loop, dataDirectory: dataDirectory)
    }

    static func failure(_ message: String, status: Int) -> HTTPResponse {
        .json(GPSDReports.line(.error(message)), status: status)
    }
}
