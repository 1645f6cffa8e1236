import LodestoneCore
import LodestoneDomain
import LodestoneOutputs

/// Waypoints in `<dataDir>/waypoints.json`, saved atomically on every change; names are
/// unique. GPX export for other tools.
public struct WaypointStore: Sendable {
    public let path: String
    public init(dataDirectory: String) { path = dataDirectory + "/waypoints.json" }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public func load() -> [Waypoint] {
        guard fileExists(path), let text = try? readTextFile(path, limit: 16 << 20),
              let json = try? JSONValue.parse(text), case .array(let items) = json else { return [] }
        return items.compactMap { item in
            guard let name = item["name"]?.stringValue, let lat = item["lat"]?.numberValue, let lon = item["lon"]?.numberValue,
                  abs(lat) <= 90, abs(lon) <= 180 else { return nil }
            return Waypoint(name: name, latitude: lat, longitude: lon, elevation: item["ele"]?.numberValue ?? .nan,
                            symbol: item["symbol"]?.stringValue ?? "Flag", notes: item["notes"]?.stringValue ?? "",
                            created: item["created"]?.numberValue ?? 0)
        }
    }

    public func save(_ waypoints: [Waypoint]) throws(Failure) {
        let items = waypoints.map { w -> String in
            var item = JSONObjectWriter()
            item.string("name", w.name)
            item.number("lat", w.latitude, decimals: 7)
            item.number("lon", w.longitude, decimals: 7)
            item.number("ele", w.elevation, decimals: 1)
            item.string("symbol", w.symbol)
            item.string("notes", w.notes)
            item.number("created", w.created, decimals: 0)
            return item.finished
        }
        let directory = String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
        guard makeDirectories(directory), writeFileAtomically(path, Array(("[" + items.joined(separator: ",\n") + "]\n").utf8)) else {
            throw Failure(description: "cannot write \(path)")
        }
    }

    public func add(_ waypoint: Waypoint) throws(Failure) {
        var all = load()
        guard !all.contains(where: { $0.name == waypoint.name }) else {
            throw Failure(description: "a waypoint named '\(waypoint.name)' exists: choose another name or delete it first")
        }
        guard !waypoint.name.isEmpty, abs(waypoint.latitude) <= 90, abs(waypoint.longitude) <= 180 else {
            throw Failure(description: "a waypoint needs a name and a latitude within ±90 and a longitude within ±180")
        }
        all.append(waypoint)
        try save(all)
    }

    public func delete(name: String) throws(Failure) {
        var all = load()
        guard let index = all.firstIndex(where: { $0.name == name }) else { throw Failure(description: "no waypoint named '\(name)'") }
        all.remove(at: index)
        try save(all)
    }

    /// What an import did: waypoints added, already present (same name, within 1 m), and
    /// added under a new name because the name was taken by another place.
    public struct ImportSummary: Sendable, Equatable {
        public var added = 0, unchanged = 0, renamed = 0
    }

    /// Adds waypoints from another device or app; nothing already saved is changed.
    public func importing(_ incoming: [Waypoint]) throws(Failure) -> ImportSummary {
        var all = load()
        var summary = ImportSummary()
        for var waypoint in incoming {
            if let existing = all.first(where: { $0.name == waypoint.name }) {
                if Geodesy.distance(latitude1: existing.latitude, longitude1: existing.longitude, latitude2: waypoint.latitude,
                                    longitude2: waypoint.longitude) < 1 {
                    summary.unchanged += 1
                    continue
                }
                var number = 2
                while all.contains(where: { $0.name == waypoint.name + " (\(number))" }) { number += 1 }
                waypoint.name += " (\(number))"
                summary.renamed += 1
            } else {
                summary.added += 1
            }
            all.append(waypoint)
        }
        try save(all)
        return summary
    }

    /// GPX 1.1 with one `wpt` per waypoint.
    public static func gpx(_ waypoints: [Waypoint]) -> String {
        var out = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        out += #"<gpx version="1.1" creator="Lodestone" xmlns="http://www.topografix.com/GPX/1/1">"# + "\n"
        for w in waypoints {
            out += "  <wpt lat=\"\(fixed(w.latitude, 7))\" lon=\"\(fixed(w.longitude, 7))\">"
            if w.elevation.isFinite { out += "<ele>\(fixed(w.elevation, 1))</ele>" }
            if w.created > 0 { out += "<time>\(CivilTime(unixSeconds: w.created).iso8601)</time>" }
            out += "<name>\(TrackExport.escape(w.name))</name>"
            if !w.notes.isEmpty { out += "<desc>\(TrackExport.escape(w.notes))</desc>" }
            out += "<sym>\(TrackExport.escape(w.symbol))</sym></wpt>\n"
        }
        return out + "</gpx>\n"
    }
}
