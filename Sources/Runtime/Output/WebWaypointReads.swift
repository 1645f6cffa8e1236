import LodestoneCore
import LodestoneDomain
import LodestoneEncoding
import LodestoneOutputs
import LodestoneStorage

/// The saved waypoints as the phone lists them: nearest first, each with its distance and
/// bearing from where the device is now (by name when there is no fix), and as GPX to share.
enum WebWaypointReads {
    static func routes<Clock: MonotonicClock>(_ loop: OutputLoop<Clock>, dataDirectory: String) -> [String: (HTTPRequest) -> HTTPResponse] {
        let store = WaypointStore(dataDirectory: dataDirectory)
        return [
            // GET /api/v1/waypoints, ?format=gpx for all of them, ?format=gpx&name=NAME for one.
            "/api/v1/waypoints": { [unowned loop] request in
                let saved = store.loadLogging()
                switch request.parameter("format") {
                case nil, "json"?: return .json(json(saved, fix: loop.context.latest.fix))
                case "gpx"?:
                    guard let name = request.parameter("name") else { return gpx(saved, file: "waypoints") }
                    guard let one = saved.first(where: { $0.name == name }) else {
                        return .text(404, "no waypoint named '\(name)': GET /api/v1/waypoints lists them")
                    }
                    return gpx([one], file: name)
                default: return .text(400, "format is json or gpx")
                }
            }
        ]
    }

    /// `{"class":"WAYPOINTS","waypoints":[...]}`: nearest first with `distance` (m) and
    /// `bearing` (degrees true) when the fix is known, else by name.
    static func json(_ saved: [Waypoint], fix: GPSFix) -> String {
        let rows: [(Waypoint, Double?, Double?)] =
            fix.hasPosition
            ? Navigation.sorted(saved, latitude: fix.latitude, longitude: fix.longitude).map { ($0.waypoint, $0.distance, $0.bearing) }
            : saved.sorted { $0.name < $1.name }.map { ($0, nil, nil) }
        let items = rows.map { point, distance, bearing -> String in
            var w = JSONObjectWriter()
            w.string("name", point.name)
            w.number("lat", point.latitude, decimals: 7)
            w.number("lon", point.longitude, decimals: 7)
            if point.elevation.isFinite { w.number("ele", point.elevation, decimals: 1) }
            w.string("symbol", point.symbol)
            w.string("notes", point.notes)
            if let distance { w.number("distance", distance, decimals: 1) }
            if let bearing { w.number("bearing", bearing, decimals: 1) }
            return w.finished
        }
        return "{\"class\":\"WAYPOINTS\",\"waypoints\":[" + items.joined(separator: ",") + "]}"
    }

    /// GPX 1.1 as a file to save or share, named for what it holds.
    static func gpx(_ waypoints: [Waypoint], file: String) -> HTTPResponse {
        // A name is the person's: only letters, digits, spaces and dashes go into the file's name.
        let safe = String(file.unicodeScalars.filter { $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == " " || $0 == "-" }.prefix(60))
        return HTTPResponse(
            status: 200,
            headers: [
                .init(name: "content-type", value: "application/gpx+xml"),
                .init(name: "content-disposition", value: "attachment; filename=\"\(safe.isEmpty ? "waypoint" : safe).gpx\""),
                .init(name: "cache-control", value: "no-store")
            ],
            body: Array(WaypointStore.gpx(waypoints).utf8))
    }
}
