import LodestoneCore
import LodestoneDomain
import LodestoneReports
import LodestoneStorage

/// Waypoints in the running instance: saving the current position, and navigating to one
/// (bearing, distance, how far to turn, time to go), published as WAYPOINT reports once a
/// second and shown on the display.
package final class WaypointService {
    package let store: WaypointStore
    private(set) var target: Waypoint?
    package private(set) var navigation: Navigation?
    /// Taking the person back along a recorded path, and the latest guidance.
    package private(set) var backtrack: Backtrack?
    package private(set) var guidance: Backtrack.Guidance?
    /// The path's point the way back leads to now.
    private var backPoint: Waypoint?
    /// EVENTs waiting (off track and back on), taken by `takeEvents`.
    private var events: [Report] = []

    package init(store: WaypointStore) { self.store = store }

    /// How near a waypoint counts as there, metres: a few fixes' wander on foot, as hand-held
    /// receivers take it.
    package static let arrivalRadius = 50.0

    /// `?WAYPOINT`: saves a waypoint, navigates to one, finds the nearest, stops, or reports.
    package func handle(_ request: WaypointRequest, state: NavigationState) -> Report {
        switch request {
        case .add(var name, var latitude, var longitude, var elevation, let symbol, let notes):
            if latitude == nil || longitude == nil {
                guard state.fix.hasPosition else { return .error("no GPS fix yet: give lat and lon, or wait for a fix") }
                (latitude, longitude) = (state.fix.latitude, state.fix.longitude)
                // Here, the fix's altitude is the place's; a place given by coordinates has
                // only the elevation given with it (not this receiver's, perhaps far away).
                elevation = elevation ?? state.fix.altitudeMSL
            }
            if name.isEmpty { name = store.freeName(in: store.load()) }
            let waypoint = Waypoint(
                name: name, latitude: latitude ?? 0, longitude: longitude ?? 0, elevation: elevation ?? .nan,
                symbol: symbol ?? "Flag", notes: notes ?? "", created: state.fix.utc ?? OutputClock.unixTime())
            do { try store.add(waypoint) } catch { return .error(error.description) }
            return report(message: "saved '\(name)'")
        case .goto(let name):
            guard let waypoint = store.loadLogging().first(where: { $0.name == name }) else {
                return .error("no waypoint named '\(name)': see 'lodestone waypoint list'")
            }
            target = waypoint
            backtrack = nil
            guidance = nil
            update(state)
            return report(message: "navigating to '\(name)'")
        case .nearest:
            guard state.fix.hasPosition else { return .error("no GPS fix yet: the nearest waypoint needs a position") }
            guard let nearest = Navigation.sorted(store.loadLogging(), latitude: state.fix.latitude, longitude: state.fix.longitude).first else {
                return .error("no waypoints saved yet: add one with 'lodestone waypoint add NAME'")
            }
            return .waypoint(
                WaypointReport(
                    waypoint: nearest.waypoint, bearing: nearest.bearing, distance: nearest.distance,
                    message: "nearest: '\(nearest.waypoint.name)'"))
        case .stop:
            target = nil
            navigation = nil
            backtrack = nil
            guidance = nil
            backPoint = nil
            return report(message: "navigation stopped")
        case .rename(let name, let newName):
            do { try store.rename(name, to: newName) } catch { return .error(error.description) }
            // Navigation to it goes on under its new name.
            if target?.name == name { target?.name = newName }
            return report(message: "renamed '\(name)' to '\(newName)'")
        case .delete(let name):
            do { try store.delete(name: name) } catch { return .error(error.description) }
            if target?.name == name {
                target = nil
                navigation = nil
            }
            return report(message: "deleted '\(name)'")
        case .back:
            return .error("the way back needs a recorded track: start one with 'lodestone track start'")
        case .report:
            return report(message: nil)
        }
    }

    /// Starts taking the person back along `path` (from its start to here) to its start.
    package func startBacktrack(path: [(latitude: Double, longitude: Double)], state: NavigationState, time: Double) -> Report {
        guard let back = Backtrack(path: path) else { return .error("the track has too few points to lead back along") }
        backtrack = back
        target = nil
        navigation = nil
        guidance = nil
        update(state, time: time)
        return report(message: "taking you back along \(fixed(back.length / 1000, 2)) km to the start")
    }

    /// Whether there is anything to navigate to (a waypoint or the way back).
    package var isNavigating: Bool { target != nil || backtrack != nil }

    package func takeEvents() -> [Report] {
        defer { events.removeAll(keepingCapacity: true) }
        return events
    }

    /// Recomputes the way to the target (or along the track) from the newest fix and heading.
    package func update(_ state: NavigationState, time: Double = 0) {
        if var back = backtrack, state.fix.hasPosition {
            let wasOff = guidance?.offTrack ?? false
            let now = back.update(latitude: state.fix.latitude, longitude: state.fix.longitude)
            backtrack = back
            guidance = now
            if now.offTrack != wasOff { events.append(.event(EventReport(.offTrack(active: now.offTrack, crossTrack: now.crossTrack), time: time))) }
            let point = Waypoint(name: "the way back", latitude: now.target.latitude, longitude: now.target.longitude)
            backPoint = point
            let heading = state.trueHeading ?? state.attitude?.magneticHeading
            navigation = Navigation.to(
                point, latitude: state.fix.latitude, longitude: state.fix.longitude, heading: heading,
                speed: state.fix.speed.isFinite ? state.fix.speed : nil)
            return
        }
        guard let target, state.fix.hasPosition else { return }
        let heading = state.trueHeading ?? state.attitude?.magneticHeading
        navigation = Navigation.to(
            target, latitude: state.fix.latitude, longitude: state.fix.longitude, heading: heading,
            speed: state.fix.speed.isFinite ? state.fix.speed : nil)
    }

    /// WAYPOINT: the target and the way to it.
    package func report(message: String?) -> Report {
        var report = WaypointReport(
            waypoint: target ?? (backtrack == nil ? nil : backPoint), bearing: navigation?.bearing, distance: navigation?.distance,
            relativeBearing: navigation?.relativeBearing, timeToGo: navigation?.timeToGo, message: message)
        if target != nil, let distance = navigation?.distance { report.arrived = distance <= Self.arrivalRadius }
        if backtrack != nil, let guidance {
            report.backtrack = (guidance.remaining, guidance.crossTrack, guidance.offTrack)
            // The time to the start, not to the next point, at the current speed.
            if let eta = navigation?.timeToGo, let distance = navigation?.distance, distance > 0 { report.timeToGo = eta * guidance.remaining / distance }
        }
        return .waypoint(report)
    }
}
