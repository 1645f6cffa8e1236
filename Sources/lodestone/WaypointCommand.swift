import LodestoneCore
import LodestoneDomain
import LodestoneOutputs
import LodestoneRuntime

/// `lodestone waypoint`: save places, list them by distance, navigate to one.
enum WaypointCommand {
    static let help = """
    Usage: lodestone waypoint add NAME [--lat L --lon L] [--symbol SYM] [--notes TEXT] [--socket PATH]
           lodestone waypoint goto NAME | stop                    [--socket PATH]
           lodestone waypoint list [--lat L --lon L] [--json]     [--data-dir DIR]
           lodestone waypoint delete NAME | export                [--data-dir DIR]

    add saves the current GPS position of the running instance (or the given coordinates) under
    a unique name with a GPX symbol (Flag, Campground, Water Source, ...). goto navigates to a
    waypoint: WAYPOINT reports once a second give the bearing (true), the distance, how far to
    turn from the current heading (positive: right) and the time to go at the current speed.
    list sorts by distance from the given point (or lists by name); export prints GPX 1.1.
    """

    static func main(_ arguments: ArraySlice<String>) throws(UsageError) -> Int32 {
        let options = try Options(arguments, spec: OptionSpec(valued: ["lat", "lon", "symbol", "notes", "socket", "data-dir"],
                                                               flags: ["json"]), command: "waypoint")
        guard let action = options.positional.first else {
            throw UsageError(message: "waypoint what? add, goto, stop, list, delete or export (see 'lodestone waypoint --help')")
        }
        let name = options.positional.count > 1 ? options.positional[1] : nil
        let store = WaypointStore(dataDirectory: options.values["data-dir"] ?? Configuration.defaultDataDirectory())
        let latitude = try options.number("lat", in: -90...90), longitude = try options.number("lon", in: -180...180)
        switch action {
        case "add", "goto", "stop":
            var w = JSONObjectWriter()
            w.string("action", action)
            if action != "stop" {
                guard let name else { throw UsageError(message: "\(action) needs a waypoint name") }
                w.string("name", name)
            }
            if let latitude, let longitude { w.number("lat", latitude, decimals: 7); w.number("lon", longitude, decimals: 7) }
            if let symbol = options.values["symbol"] { w.string("symbol", symbol) }
            if let notes = options.values["notes"] { w.string("notes", notes) }
            return LockCommand.exchange("?WAYPOINT=" + w.finished + ";", socket: options.values["socket"],
                                        json: options.flags.contains("json"), answer: [#""class":"WAYPOINT""#]) { report in
                var text = report["message"]?.stringValue ?? ""
                if let bearing = report["bearing"]?.numberValue, let distance = report["distance"]?.numberValue {
                    text += ": \(fixed(distance, 0)) m at \(fixed(bearing, 0))° \(CompassPoint.name(bearing))"
                }
                return text
            }
        case "list":
            var rows = store.load().map { ($0, Double.nan, Double.nan) }
            if let latitude, let longitude {
                rows = Navigation.sorted(store.load(), latitude: latitude, longitude: longitude).map { ($0.waypoint, $0.distance, $0.bearing) }
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
                for (w, distance, bearing) in rows {
                    let way = distance.isFinite ? "  \(fixed(distance / 1000, 2)) km \(fixed(bearing, 0))°" : ""
                    writeOut("\(w.name)  \(fixed(w.latitude, 5)), \(fixed(w.longitude, 5))\(way)  \(w.symbol)\n")
                }
            }
            return 0
        case "delete":
            guard let name else { throw UsageError(message: "delete which waypoint?") }
            do { try store.delete(name: name) } catch {
                Log.error(error.description)
                return 1
            }
            writeOut("deleted \(name)\n")
            return 0
        case "export":
            writeOut(WaypointStore.gpx(store.load()))
            return 0
        default:
            throw UsageError(message: "unknown waypoint action '\(action)': add, goto, stop, list, delete or export")
        }
    }
}
