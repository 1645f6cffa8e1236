import LodestoneCore
import LodestoneDomain
import LodestoneOutputs

/// Waypoints in the running instance: saving the current position, and navigating to one
/// (bearing, distance, how far to turn, time to go), published as WAYPOINT reports once a
/// second and shown on the display.
final class WaypointService {
    let store: WaypointStore
    private(set) var target: Waypoint?
    private(set) var navigation: Navigation?

    init(store: WaypointStore) { self.store = store }

    func handle(_ argument: JSONValue?, state: NavigationState) -> String {
        switch argument?["action"]?.stringValue {
        case "add"?:
            guard let name = argument?["name"]?.stringValue else { return GPSDReports.error("?WAYPOINT add needs a name") }
            var latitude = argument?["lat"]?.numberValue, longitude = argument?["lon"]?.numberValue
            if latitude == nil || longitude == nil {
                guard state.fix.hasPosition else { return GPSDReports.error("no GPS fix yet: give lat and lon, or wait for a fix") }
                (latitude, longitude) = (state.fix.latitude, state.fix.longitude)
            }
            let waypoint = Waypoint(name: name, latitude: latitude ?? 0, longitude: longitude ?? 0,
                                    elevation: state.fix.altitudeMSL, symbol: argument?["symbol"]?.stringValue ?? "Flag",
                                    notes: argument?["notes"]?.stringValue ?? "", created: state.fix.utc ?? 0)
            do { try store.add(waypoint) } catch { return GPSDReports.error(error.description) }
            return report(message: "saved '\(name)'")
        case "goto"?:
            guard let name = argument?["name"]?.stringValue, let waypoint = store.loadLogging().first(where: { $0.name == name }) else {
                return GPSDReports.error("no waypoint named '\(argument?["name"]?.stringValue ?? "")': see 'lodestone waypoint list'")
            }
            target = waypoint
            update(state)
            return report(message: "navigating to '\(name)'")
        case "nearest"?:
            guard state.fix.hasPosition else { return GPSDReports.error("no GPS fix yet: the nearest waypoint needs a position") }
            guard let nearest = Navigation.sorted(store.loadLogging(), latitude: state.fix.latitude, longitude: state.fix.longitude).first else {
                return GPSDReports.error("no waypoints saved yet: add one with 'lodestone waypoint add NAME'")
            }
            var w = JSONObjectWriter(class: "WAYPOINT")
            w.string("name", nearest.waypoint.name)
            w.number("lat", nearest.waypoint.latitude, decimals: 7)
            w.number("lon", nearest.waypoint.longitude, decimals: 7)
            w.number("bearing", nearest.bearing, decimals: 1)
            w.number("distance", nearest.distance, decimals: 1)
            w.string("message", "nearest: '\(nearest.waypoint.name)'")
            return w.finished
        case "stop"?:
            target = nil
            navigation = nil
            return report(message: "navigation stopped")
        case nil:
            return report(message: nil)
        case let other?:
            return GPSDReports.error("?WAYPOINT action must be add, goto, nearest or stop, not '\(other)'")
        }
    }

    /// Recomputes the way to the target from the newest fix and heading.
    func update(_ state: NavigationState) {
        guard let target, state.fix.hasPosition else { return }
        let heading = state.trueHeading ?? state.attitude?.magneticHeading
        navigation = Navigation.to(target, latitude: state.fix.latitude, longitude: state.fix.longitude, heading: heading,
                                   speed: state.fix.speed.isFinite ? state.fix.speed : nil)
    }

    /// WAYPOINT (Lodestone): the target and the way to it.
    func report(message: String?) -> String {
        var w = JSONObjectWriter(class: "WAYPOINT")
        if let target {
            w.string("name", target.name)
            w.number("lat", target.latitude, decimals: 7)
            w.number("lon", target.longitude, decimals: 7)
        }
        if let navigation {
            w.number("bearing", navigation.bearing, decimals: 1)
            w.number("distance", navigation.distance, decimals: 1)
            if let relative = navigation.relativeBearing { w.number("relativeBearing", relative, decimals: 1) }
            if let eta = navigation.timeToGo { w.number("timeToGo", eta, decimals: 0) }
        }
        if let message { w.string("message", message) }
        return w.finished
    }
}
