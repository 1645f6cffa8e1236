import LodestoneCore
import LodestoneDomain
import LodestoneOutputs
import LodestoneReports
import LodestoneRuntime
import LodestoneEncoding
import LodestoneSettings
import LodestoneStorage

/// `lodestone waypoint`: save places, list them by distance, navigate to one.
enum WaypointCommand {
    static let help = """
        Usage: lodestone waypoint add NAME [--lat L --lon L [--ele M]] [--symbol SYM] [--notes TEXT] [--socket PATH]
               lodestone waypoint goto NAME | back | stop             [--socket PATH]
               lodestone waypoint nearest [--lat L --lon L] [--json]  [--socket PATH] [--data-dir DIR]
               lodestone waypoint list [--lat L --lon L] [--json]     [--socket PATH] [--data-dir DIR]
                                       [--units metric|imperial|nautical] (also for nearest)
               lodestone waypoint rename NAME NEW | delete NAME | export | import FILE.gpx   [--data-dir DIR]

        add saves the current GPS position of the running instance under a unique name with a GPX
        symbol (Flag, Campground, Water Source, ...), with the fix's altitude. Given --lat and --lon
        it needs no running instance: a place planned at home is written to the store (a running
        instance finds it there), with the elevation --ele gives, or none. goto navigates to a
        waypoint: WAYPOINT reports once a second give the bearing (true), the distance, how far to
        turn from the current heading (positive: right) and the time to go at the current speed.
        back takes you back along the track being recorded (or the newest stored one) to its
        start: the way to the path's next point back, the distance left along it, and a warning
        when you are more than 50 m off it. stop ends either.
        list sorts by distance and bearing from here: the given point, else the running instance's
        position, else it lists by name. nearest names the closest one. export prints GPX 1.1;
        import reads the waypoints (wpt) of a GPX file from any GPS app, keeps every saved one, and
        gives a taken name a number ("Hut (2)") when it is another place.

        Examples:
          lodestone waypoint add Spring --symbol "Water Source" --notes "dry in August"
          lodestone waypoint import friends-huts.gpx
          lodestone waypoint goto Spring
        """

    static func main(_ arguments: ArraySlice<String>) throws(UsageError) -> Int32 {
        let options = try Options(
            arguments,
            spec: OptionSpec(
                valued: ["lat", "lon", "ele", "symbol", "notes", "socket", "data-dir", "units"],
                flags: ["json"]), command: "waypoint")
        guard let action = options.positional.first else {
            throw UsageError(message: "waypoint what? add, goto, back, stop, nearest, list, rename, delete, export or import (see 'lodestone waypoint --help')")
        }
        let name = options.positional.count > 1 ? options.positional[1] : nil
        let dataDirectory = options.values["data-dir"] ?? Configuration.defaultDataDirectory()
        let store = WaypointStore(dataDirectory: dataDirectory)
        let latitude = try options.number("lat", in: -90...90), longitude = try options.number("lon", in: -180...180)
        if (latitude == nil) != (longitude == nil) { throw UsageError(message: "give both --lat and --lon, or neither (the running instance's position)") }
        let elevation = try options.number("ele", in: -500...9000)
        if elevation != nil && latitude == nil {
            throw UsageError(message: "--ele goes with --lat and --lon: a waypoint at the current position has the fix's altitude")
        }
        switch action {
        case "add" where latitude != nil && !answers(options.values["socket"]):
            guard let name, !name.isEmpty else { throw UsageError(message: "add needs a waypoint name") }
            guard let change = StoreChange.begin(dataDirectory, throughSocket: true) else { return 1 }
            defer { withExtendedLifetime(change) {} }
            let waypoint = Waypoint(
                name: name, latitude: latitude ?? 0, longitude: longitude ?? 0, elevation: elevation ?? .nan,
                symbol: options.values["symbol"] ?? "Flag", notes: options.values["notes"] ?? "", created: OutputClock.unixTime())
            do { try store.add(waypoint) } catch {
                Log.error(error.description)
                return 1
            }
            writeOut(
                "saved '\(name)' at \(fixed(waypoint.latitude, 5)), \(fixed(waypoint.longitude, 5))" + (elevation.map { ", \(fixed($0, 0)) m" } ?? "") + "\n")
            return 0
        case "add", "goto", "stop", "back":
            if action != "stop" && action != "back" && name == nil { throw UsageError(message: "\(action) needs a waypoint name") }
            let request: WaypointRequest
            switch action {
            case "add":
                request = .add(
                    name: name ?? "", latitude: latitude, longitude: longitude, elevation: nil,
                    symbol: options.values["symbol"], notes: options.values["notes"])
            case "goto": request = .goto(name: name ?? "")
            case "back": request = .back
            default: request = .stop
            }
            return LockCommand.exchange(
                request.text, socket: options.values["socket"],
                json: options.flags.contains("json"), answer: [#""class":"WAYPOINT""#]
            ) { report in
                var text = report["message"]?.stringValue ?? ""
                if let bearing = report["bearing"]?.numberValue, let distance = report["distance"]?.numberValue {
                    text += ": \(fixed(distance, 0)) m at \(fixed(bearing, 0))° \(CompassPoint.name(bearing))"
                }
                return text
            }
        case "list", "nearest":
            let saved = store.loadLogging()
            var rows = saved.sorted { $0.name < $1.name }.map { ($0, Double.nan, Double.nan) }
            var here = latitude.flatMap { lat in longitude.map { (lat, $0) } }
            if here == nil { here = runningPosition(socket: options.values["socket"]) }
            if let (latitude, longitude) = here {
                rows = Navigation.sorted(saved, latitude: latitude, longitude: longitude).map { ($0.waypoint, $0.distance, $0.bearing) }
            } else {
                Log.warning("no position (give --lat and --lon, or run 'lodestone run' with a GPS fix): listed by name")
            }
            if action == "nearest" {
                guard here != nil, let first = rows.first else {
                    Log.error(rows.isEmpty ? "no waypoints saved yet: add one with 'lodestone waypoint add NAME'" : "no position to measure from")
                    return 1
                }
                rows = [first]
            }
            if options.flags.contains("json") {
                let items = rows.map { w, distance, bearing -> String in
                    var o = JSONObjectWriter()
                    o.string("name", w.name)
                    o.number("lat", w.latitude, decimals: 7)
                    o.number("lon", w.longitude, decimals: 7)
                    o.string("symbol", w.symbol)
                    o.number("distance", distance, decimals: 1)
                    o.number("bearing", bearing, decimals: 1)
                    return o.finished
                }
                writeOut("[" + items.joined(separator: ",") + "]\n")
            } else {
                let units = try Units.option(options)
                for (w, distance, bearing) in rows {
                    let way = distance.isFinite ? "  \(units.distance(distance)) \(fixed(bearing, 0))°" : ""
                    writeOut("\(w.name)  \(fixed(w.latitude, 5)), \(fixed(w.longitude, 5))\(way)  \(w.symbol)\n")
                }
            }
            return 0
        case "rename":
            guard let name, options.positional.count > 2, !options.positional[2].isEmpty else {
                throw UsageError(message: "rename which waypoint, to what? lodestone waypoint rename NAME NEW")
            }
            let newName = options.positional[2]
            guard let change = StoreChange.begin(dataDirectory, throughSocket: true) else { return 1 }
            defer { withExtendedLifetime(change) {} }
            do { try store.rename(name, to: newName) } catch {
                Log.error(error.description)
                return 1
            }
            writeOut("renamed \(name) to \(newName)\n")
            return 0
        case "delete":
            guard let name else { throw UsageError(message: "delete which waypoint?") }
            guard let change = StoreChange.begin(dataDirectory, throughSocket: true) else { return 1 }
            defer { withExtendedLifetime(change) {} }
            do { try store.delete(name: name) } catch {
                Log.error(error.description)
                return 1
            }
            writeOut("deleted \(name)\n")
            return 0
        case "export":
            writeOut(WaypointStore.gpx(store.loadLogging()))
            return 0
        case "import":
            guard let file = name else { throw UsageError(message: "import which file? 'lodestone waypoint import FILE.gpx'") }
            guard let change = StoreChange.begin(dataDirectory, throughSocket: true) else { return 1 }
            defer { withExtendedLifetime(change) {} }
            do {
                let read = try GPXReader.waypoints(try readTextFile(file, limit: 64 << 20))
                let summary = try store.importing(read.waypoints)
                writeOut(
                    "imported from \(file): \(summary.added) new, \(summary.renamed) renamed (name taken by another place), "
                        + "\(summary.unchanged) already saved, \(read.skipped) skipped (no name or position)\n")
                return 0
            } catch let failure as GPXReader.Failure {
                Log.error("\(file): \(failure.description)")
            } catch let failure as WaypointStore.Failure {
                Log.error(failure.description)
            } catch {
                Log.error("\(file): \(error)")
            }
            return 1
        default:
            throw UsageError.unknown("waypoint action", action, among: ["add", "goto", "stop", "nearest", "list", "rename", "delete", "export", "import"])
        }
    }

    /// The running instance's filtered position, when one answers within a second with a fix.
    /// Whether an instance answers on the socket given: a change goes through it, into its own
    /// data directory; with none given (or none answering) it is made in the folder itself.
    static func answers(_ socket: String?) -> Bool {
        guard let socket else { return false }
        return (try? ReportClient(path: socket)) != nil
    }

    static func runningPosition(socket: String?) -> (Double, Double)? {
        guard let client = try? ReportClient(path: socket ?? Configuration.clientSocketPath()) else { return nil }
        client.send(PlainRequest.poll.text)
        while let line = client.readLine(timeoutMilliseconds: 1000) {
            guard line.contains(#""class":"POLL""#), let poll = try? JSONValue.parse(line) else { continue }
            guard let tpv = poll["tpv"]?.arrayValue?.first, let lat = tpv["lat"]?.numberValue, let lon = tpv["lon"]?.numberValue else {
                return nil
            }
            return (lat, lon)
        }
        return nil
    }
}
