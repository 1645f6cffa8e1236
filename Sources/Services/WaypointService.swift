import LodestoneCore
import LodestoneDomain
import LodestoneReports

/// Waypoints in the running instance: saving the current position, and navigating to one
/// (bearing, distance, how far to turn, time to go), published as WAYPOINT reports once a
/// second and shown on the display.
final class WaypointService {
    let store: WaypointStore
    private(set) var target: Waypoint?
    private(set) var navigation: Navigation?

    init(store: WaypointStore) { self.store = store }

    /// `?WAYPOINT`: saves a waypoint, navigates to one, finds the nearest, stops, or reports.
    func handle(_ request: WaypointRequest, state: NavigationState) -> Report {
        switch request {
        case .add(let name, var latitude, var longitude, var elevation, let symbol, let notes):
            if latitude == nil || longitude == nil {
                guard state.fix.hasPosition else { return .error("no GPS fix yet: give lat and lon, or wait for a fix") }
                (latitude, longitude) = (state.fix.latitude, state.fix.longitude)
                // Here, the fix's altitude is the place's; a place given by coordinates has
                // only the elevation given with it (not this receiver's, perhaps far away).
                elevation = elevation ?? state.fix.altitudeMSL
            }
            let waypoint = Waypoint(name: name, latitude: latitude ?? 0, longitude: longitude ?? 0, elevation: elevation ?? .nan,
                                    symbol: symbol ?? "Flag", notes: notes ?? "", created: state.fix.utc ?? OutputClock.unixTime())
            do { try store.add(waypoint) } catch { return .error(error.description) }
            return report(message: "saved '\(name)'")
        case .goto(let name):
            guard let waypoint = store.loadLogging().first(where: { $0.name == name }) else {
                return .error("no waypoint named '\(name)': see 'lodestone waypoint list'")
            }
            target = waypoint
            update(state)
            return report(message: "navigating to '\(name)'")
        case .nearest:
            guard state.fix.hasPosition else { return .error("no GPS fix yet: the nearest waypoint needs a position") }
            guard let nearest = Navigation.sorted(store.loadLogging(), latitude: state.fix.latitude, longitude: state.fix.longitude).first else {
                return .error("no waypoints saved yet: add one with 'lodestone waypoint add NAME'")
            }
            return .waypoint(WaypointReport(waypoint: nearest.waypoint, bearing: nearest.bearing, distance: nearest.distance,
                                            message: "nearest: '\(nearest.waypoint.name)'"))
        case .stop:
            target = nil
            navigation = nil
            return report(message: "navigation stopped")
        case .report:
            return report(message: nil)
        }
    }

    /// Recomputes the way to the target from the newest fix and heading.
    func update(_ state: NavigationState) {
        guard let target, state.fix.hasPosition else { return }
        let heading = state.trueHeading ?? state.attitude?.magneticHeading
        navigation = Navigation.to(target, latitude: state.fix.latitude, longitude: state.fix.longitude, heading: heading,
                                   speed: state.fix.speed.isFinite ? state.fix.speed : nil)
    }

    /// WAYPOINT: the target and the way to it.
    func report(message: String?) -> Report {
        .waypoint(WaypointReport(waypoint: target, bearing: navigation?.bearing, distance: navigation?.distance,
                                 relativeBearing: navigation?.relativeBearing, timeToGo: navigation?.timeToGo, message: message))
    }
}
