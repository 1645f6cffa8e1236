import LodestoneCore
import LodestoneDomain
import LodestoneReports
import LodestoneStorage

/// The imported timetable on the running device: DEPARTURES from the favourite stop, the
/// nearest one or one asked for, and reminders: an EVENT and the buzzer's `departure` pattern
/// the chosen minutes before a trip leaves.
package final class TransitService {
    package let timetable: Timetable
    let preferences: TransitPreferences
    private var reminders: [(stop: Int, departure: Timetable.Departure, at: Double)] = []
    /// The marks file, read again once a minute (a person edits it while the device runs).
    private var markCache: (read: Double, marks: [TransitPreferences.Mark])?

    package init?(dataDirectory: String) {
        let store = TimetableStore(dataDirectory: dataDirectory)
        guard store.exists else { return nil }
        do { timetable = try store.load() } catch {
            Log.warning(error.description + "; no departures")
            return nil
        }
        preferences = TransitPreferences(dataDirectory: dataDirectory)
    }

    /// The stop a request means: the one named, else the first favourite, else the nearest.
    package func stop(named name: String?, state: NavigationState) -> (index: Int, distance: Double?, bearing: Double?)? {
        if let name { return timetable.stops(matching: name).first.map { ($0, nil, nil) } }
        if let favourite = preferences.favourites().first, let index = timetable.stops(matching: favourite).first { return (index, nil, nil) }
        guard state.fix.hasPosition else { return nil }
        return timetable.stops.indices.map { index -> (Int, Double?, Double?) in
            let leg = Geodesy.inverse(latitude1: state.fix.latitude, longitude1: state.fix.longitude,
                                      latitude2: timetable.stops[index].latitude, longitude2: timetable.stops[index].longitude)
            return (index, leg.distance, leg.bearing)
        }.min { ($0.1 ?? .infinity) < ($1.1 ?? .infinity) }
    }

    package func handle(_ request: DeparturesRequest, state: NavigationState, time: Double) -> Report {
        guard let chosen = stop(named: request.stop, state: state) else {
            return .error(request.stop.map { "no stop matches '\($0)'" } ?? "no favourite stop and no GPS fix for the nearest: give a stop")
        }
        let list = timetable.departures(from: chosen.index, after: time, count: max(request.count, request.remind == nil ? 0 : 50))
        var message: String?
        if let trip = request.remind {
            guard let departure = list.first(where: { $0.trip == trip }) else {
                return .error("trip '\(trip)' does not leave \(timetable.stops[chosen.index].name) in the coming departures")
            }
            reminders.append((chosen.index, departure, departure.time - request.minutes * 60))
            message = "reminder \(Int(request.minutes)) min before the \(departure.route) to \(departure.headsign)"
        }
        return report(chosen, Array(list.prefix(request.count)), time: time, message: message)
    }

    func report(_ chosen: (index: Int, distance: Double?, bearing: Double?), _ list: [Timetable.Departure], time: Double, message: String? = nil) -> Report {
        let stop = timetable.stops[chosen.index]
        let items = list.map { DeparturesReport.Item(time: $0.time, route: $0.route, headsign: $0.headsign, trip: $0.trip,
                                                     minutes: Int(((($0.time - time) / 60).rounded(.down)))) }
        return .departures(DeparturesReport(stopID: stop.id, stopName: stop.name, zone: (try? TimeZoneRules(stop.timeZone)) ?? .utc,
                                            distance: chosen.distance, bearing: chosen.bearing, departures: items, message: message))
    }

    /// The person's marks on trips and routes; a bad line is said once per reading and skipped.
    package func marks(now: Double) -> [TransitPreferences.Mark] {
        if let markCache, abs(now - markCache.read) < 60 { return markCache.marks }
        let (marks, problems) = preferences.marks()
        for problem in problems { Log.warning(problem) }
        markCache = (now, marks)
        return marks
    }

    /// Once a second: the reminders now due.
    package func tick(time: Double) -> [Report] {
        var due: [Report] = []
        reminders.removeAll { reminder in
            guard time >= reminder.at else { return false }
            let stop = timetable.stops[reminder.stop]
            due.append(.event(EventReport(.departureReminder(stop: stop.name, route: reminder.departure.route, headsign: reminder.departure.headsign,
                                                             departure: reminder.departure.time, zone: (try? TimeZoneRules(stop.timeZone)) ?? .utc), time: time)))
            return true
        }
        return due
    }
}
