import LodestoneCore
import LodestoneDomain
import LodestoneEncoding

/// Waypoints in `<dataDir>/waypoints.json`, saved atomically on every change; names are
/// unique. GPX export for other tools.
public struct WaypointStore: Sendable {
    public let path: String
    public init(dataDirectory: String) { path = dataDirectory + "/waypoints.json" }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// The saved waypoints; a damaged file is repaired on the way (see `loadReporting`).
    public func load() -> [Waypoint] { loadReporting().waypoints }

    /// The saved waypoints, and a warning when the file was damaged. A damaged file is never
    /// lost nor silently replaced: every waypoint that can still be read is kept (the file
    /// holds one per line), the damaged file is set aside beside it under a name the warning
    /// gives, and the readable waypoints are saved in its place. When it cannot be set aside
    /// (a read-only card) the warning says so and `save` refuses to write over it.
    public func loadReporting() -> (waypoints: [Waypoint], warning: String?) {
        guard fileExists(path) else { return ([], nil) }
        let text: String
        do {
            text = try readStoreText(path, limit: Self.largestFile)
        } catch {
            return ([], error.description + ": no waypoints read from it; it is left as it is")
        }
        if let json = try? JSONValue.parse(text), case .array(let items) = json {
            let waypoints = items.compactMap(Self.waypoint)
            let skipped = items.count - waypoints.count
            return (
                waypoints,
                skipped == 0
                    ? nil
                    : "\(path): \(skipped) of \(items.count) entries are not waypoints (a name, a latitude within ±90 and a longitude within ±180) and were skipped"
            )
        }
        // One waypoint per line: keep every line that still reads as one.
        var kept: [Waypoint] = []
        var damagedLines = 0
        for line in text.split(separator: "\n") {
            var item = Substring(line)
            while let first = item.first, first == "[" || first == " " { item = item.dropFirst() }
            while let last = item.last, last == "]" || last == "," || last == " " || last == "\r" { item = item.dropLast() }
            guard !item.isEmpty else { continue }
            if let json = try? JSONValue.parse(String(item)), let waypoint = Self.waypoint(json) {
                kept.append(waypoint)
            } else {
                damagedLines += 1
            }
        }
        guard let aside = setAside(path, at: OutputClock.unixTime()) else {
            return (
                kept,
                "\(path) is damaged (\(damagedLines) unreadable lines; \(kept.count) waypoints read) and cannot be set aside: "
                    + "nothing will be saved over it until it is repaired or moved"
            )
        }
        do {
            try save(kept)
        } catch {
            return (kept, "\(path) was damaged: set aside as \(aside), but the \(kept.count) readable waypoints could not be saved: \(error)")
        }
        return (kept, "\(path) was damaged: \(kept.count) waypoints recovered, \(damagedLines) unreadable lines; the damaged file is kept as \(aside)")
    }

    /// The saved waypoints, a damaged file's warning said in the log.
    public func loadLogging() -> [Waypoint] {
        let (waypoints, warning) = loadReporting()
        if let warning { Log.warning(warning) }
        return waypoints
    }

    /// The most a waypoint file may hold (bytes): some hundred thousand waypoints.
    static let largestFile = 16 << 20

    static func waypoint(_ item: JSONValue) -> Waypoint? {
        guard let name = item["name"]?.stringValue, let lat = item["lat"]?.numberValue, let lon = item["lon"]?.numberValue,
            abs(lat) <= 90, abs(lon) <= 180
        else { return nil }
        // A creation time no calendar can write (a damaged 1e308) is unknown, not year 9999.
        let created = item["created"]?.numberValue ?? 0
        return Waypoint(
            name: name, latitude: lat, longitude: lon, elevation: item["ele"]?.numberValue ?? .nan,
            symbol: item["symbol"]?.stringValue ?? "Flag", notes: item["notes"]?.stringValue ?? "",
            created: CivilTime.writableSeconds.contains(created) ? created : 0)
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
        if fileExists(path), let text = try? readStoreText(path, limit: Self.largestFile), (try? JSONValue.parse(text)) == nil {
            throw Failure(description: "\(path) is damaged and could not be set aside: repair or move it, then try again (nothing was changed)")
        }
        let directory = String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
        guard makeDirectories(directory) else { throw Failure(description: "cannot create \(directory)") }
        do {
            try replaceFile(path, with: Array(("[" + items.joined(separator: ",\n") + "]\n").utf8))
        } catch {
            throw Failure(description: error.description)
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

    /// Gives the waypoint `name` the name `newName`, unique among the saved ones.
    public func rename(_ name: String, to newName: String) throws(Failure) {
        var all = load()
        guard let index = all.firstIndex(where: { $0.name == name }) else { throw Failure(description: "no waypoint named '\(name)'") }
        guard !newName.isEmpty else { throw Failure(description: "a waypoint needs a name") }
        guard newName == name || !all.contains(where: { $0.name == newName }) else {
            throw Failure(description: "a waypoint named '\(newName)' exists: choose another name")
        }
        all[index].name = newName
        try save(all)
    }

    /// The first free name of the form "Waypoint N", for a place saved with one tap and named later.
    public func freeName(in all: [Waypoint]) -> String {
        let taken = Set(all.map(\.name))
        var number = all.count + 1
        while taken.contains("Waypoint \(number)") { number += 1 }
        return "Waypoint \(number)"
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
            if all.contains(where: { $0.name == waypoint.name }) {
                // The same place under its name, or under the name an earlier import gave it
                // ("Hut (2)"), is there already: importing twice adds nothing.
                let renamedBefore = { (name: String) in
                    name.hasPrefix(waypoint.name + " (") && name.hasSuffix(")") && Int(name.dropFirst(waypoint.name.count + 2).dropLast()) != nil
                }
                if all.contains(where: {
                    ($0.name == waypoint.name || renamedBefore($0.name))
                        && Geodesy.distance(latitude1: $0.latitude, longitude1: $0.longitude, latitude2: waypoint.latitude, longitude2: waypoint.longitude) < 1
                }) {
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
