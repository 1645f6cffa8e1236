import LodestoneCore
import LodestoneDomain
import LodestoneReports
import LodestoneStorage

/// The imported timetable on the running device: DEPARTURES from the favourite stop, the
/// nearest one or one asked for, each with the person's mark; and REMINDERS: an EVENT and the
/// buzzer's `departure` pattern the chosen minutes before a trip leaves, kept in the data
/// directory so that a restart or a power cut loses none.
package final class TransitService {
    package let timetable: Timetable
    let preferences: TransitPreferences
    let store: ReminderStore
    private var reminders: [ReminderStore.Reminder]
    /// The marks file, read again once a minute (a person edits it while the device runs).
    private var markCache: (read: Double, marks: [TransitPreferences.Mark])?
    /// How far the nearest stop may be, metres (`transit.nearestWithinKm`).
    package var nearestWithin = NearestStop.defaultWithin

    package init?(dataDirectory: String) {
        let timetableStore = TimetableStore(dataDirectory: dataDirectory)
        guard timetableStore.exists else { return nil }
        do { timetable = try timetableStore.load() } catch {
            Log.warning(error.description + "; no departures")
            return nil
        }
        preferences = TransitPreferences(dataDirectory: dataDirectory)
        store = ReminderStore(dataDirectory: dataDirectory)
        let (kept, problems) = store.load()
        for problem in problems { Log.warning(problem) }
        reminders = kept
    }

    /// The stop a request means: the one named, else the first favourite, else the nearest
    /// with service (`NearestStop`: a departure in the next 24 hours, within `nearestWithin`);
    /// "nearest" asks for that one whatever the favourites.
    package func stop(named name: String?, state: NavigationState, time: Double) -> (index: Int, distance: Double?, bearing: Double?)? {
        if let name, name != "nearest" { return timetable.stops(matching: name).first.map { ($0, nil, nil) } }
        if name == nil, let favourite = preferences.favourites().first, let index = timetable.stops(matching: favourite).first { return (index, nil, nil) }
        guard state.fix.hasPosition else { return nil }
        return NearestStop.find(in: timetable, latitude: state.fix.latitude, longitude: state.fix.longitude, time: time, within: nearestWithin)
            .map { ($0.index, $0.distance, $0.bearing) }
    }

    /// Why there is no nearest stop to show, in words that say what to do; nil with no fix.
    package func noServiceNearby(state: NavigationState) -> String? {
        guard state.fix.hasPosition else { return nil }
        return "no stop with service in the next 24 hours within \(DecimalText.compact(nearestWithin / 1000, 1)) km: search for a stop by name"
    }

    /// The departures a request asks for, each with the `outlook`'s forecast when it leaves
    /// within its 12 hours.
    package func handle(_ request: DeparturesRequest, state: NavigationState, time: Double, outlook: WeatherOutlook? = nil) -> Report {
        var message: String?
        if let trip = request.remind {
            // The list of departures answers, with the reminder's words (as before ?REMINDER).
            let set = remind(trip: trip, stop: request.stop, minutes: request.minutes, state: state, time: time)
            guard case .reminders(let list) = set else { return set }
            message = list.message
        }
        guard let chosen = stop(named: request.stop, state: state, time: time) else { return noStop(request.stop, state: state) }
        let from =
            request.at ?? request.day.flatMap(CivilTime.parseDate).map { zone(of: chosen.index).midnight(year: $0.year, month: $0.month, day: $0.day) } ?? time
        let list = timetable.departures(from: chosen.index, after: from, count: request.count)
        let marks = marks(now: time)
        let stop = timetable.stops[chosen.index]
        let items = list.map { d in
            var item = DeparturesReport.Item(
                time: d.time, route: d.route, headsign: d.headsign, trip: d.trip, minutes: Int(((d.time - from) / 60).rounded(.down)),
                mark: TransitPreferences.mark(for: d, in: marks).map { ($0.label, $0.rating) })
            item.next = d.next.map { timetable.stops[$0].name }
            item.light = WaveDay.Light.at(d.time, latitude: stop.latitude, longitude: stop.longitude).rawValue
            item.forecast = outlook?.forecast(at: d.time)
            return item
        }
        return .departures(
            DeparturesReport(
                stopID: stop.id, stopName: stop.name, zone: zone(of: chosen.index),
                distance: chosen.distance, bearing: chosen.bearing, departures: items, message: message))
    }

    package func handle(_ request: ReminderRequest, state: NavigationState, time: Double) -> Report {
        switch request {
        case .list: return remindersReport()
        case .add(let trip, let stop, let minutes): return remind(trip: trip, stop: stop, minutes: minutes, state: state, time: time)
        case .cancel(let id):
            guard let index = reminders.firstIndex(where: { $0.id == id }) else {
                return .error("no reminder \(id): the list of reminders gives each one's id")
            }
            let gone = reminders.remove(at: index)
            return saved(message: "reminder \(id) cancelled (the \(gone.route) to \(gone.headsign))")
        }
    }

    /// A reminder `minutes` before `trip` leaves the stop (within the coming departures).
    private func remind(trip: String, stop name: String?, minutes: Double, state: NavigationState, time: Double) -> Report {
        guard let chosen = stop(named: name, state: state, time: time) else { return noStop(name, state: state) }
        let stop = timetable.stops[chosen.index]
        guard let departure = timetable.departures(from: chosen.index, after: time, count: 200).first(where: { $0.trip == trip }) else {
            return .error("trip '\(trip)' does not leave \(stop.name) in the coming departures")
        }
        if let same = reminders.first(where: { $0.trip == trip && $0.stop == stop.id && $0.departure == departure.time }) {
            return remindersReport(message: "reminder \(same.id) is already set for the \(departure.route) to \(departure.headsign)")
        }
        let id = String((reminders.compactMap { Int($0.id) }.max() ?? 0) + 1)
        reminders.append(
            ReminderStore.Reminder(
                id: id, stop: stop.id, trip: trip, route: departure.route, headsign: departure.headsign,
                departure: departure.time, at: departure.time - minutes * 60))
        reminders.sort { $0.at < $1.at }
        return saved(message: "reminder \(id): \(Int(minutes)) min before the \(departure.route) to \(departure.headsign)")
    }

    /// The list after a change, once the change is on the card (or a warning that it is not).
    private func saved(message: String) -> Report {
        do { try store.save(reminders) } catch {
            Log.warning(error.description + "; the reminders hold until the device stops")
            return remindersReport(message: message + "; not kept across a restart: " + error.description)
        }
        return remindersReport(message: message)
    }

    package func remindersReport(message: String? = nil) -> Report {
        .reminders(
            RemindersReport(
                reminders: reminders.map { r in
                    let index = timetable.stops(matching: r.stop).first
                    return RemindersReport.Reminder(
                        id: r.id, stopID: r.stop, stopName: index.map { timetable.stops[$0].name } ?? r.stop,
                        zone: index.map(zone(of:)) ?? .utc, route: r.route, headsign: r.headsign, trip: r.trip,
                        departure: r.departure, at: r.at)
                }, message: message))
    }

    /// The favourite stops' ids, in the person's order.
    package func favourites() -> [String] { preferences.favourites() }

    /// Makes a stop a favourite (last in the order) or no longer one; false when it cannot be kept.
    package func setFavourite(_ stopID: String, _ favourite: Bool) -> Bool {
        var list = preferences.favourites().filter { $0 != stopID }
        if favourite { list.append(stopID) }
        return preferences.saveFavourites(list)
    }

    private func noStop(_ name: String?, state: NavigationState) -> Report {
        if name == nil || name == "nearest", let far = noServiceNearby(state: state) { return .error(far) }
        return .error(
            name.map { $0 == "nearest" ? "no GPS fix yet for the nearest stop: give a stop" : "no stop matches '\($0)'" }
                ?? "no favourite stop and no GPS fix for the nearest: give a stop")
    }

    /// A trip as a departure board opens it: the one that leaves stop `name` (an id or words
    /// of its name) within a minute of `time`, and its calls from there on, with the zone its
    /// times are shown in. Nil when no such departure leaves there.
    package func trip(_ trip: String, from name: String, at time: Double) -> TripCalls? {
        guard let index = timetable.stops(matching: name).first,
            let departure = timetable.departures(from: index, after: time - 60, count: 100).first(where: { $0.trip == trip && abs($0.time - time) < 60 })
        else { return nil }
        return TripCalls(stop: index, departure: departure, calls: timetable.onwardCalls(of: departure), zone: zone(of: index))
    }

    /// A trip from one stop on: where it leaves, and each call after.
    package struct TripCalls {
        package var stop: Int
        package var departure: Timetable.Departure
        package var calls: [(stop: Int, time: Double)]
        package var zone: TimeZoneRules
    }

    /// The zone a stop's times are shown in: the device's one zone on a running device (a
    /// departure board and the header's clock never disagree), else the stop's own.
    private func zone(of index: Int) -> TimeZoneRules {
        localClock?.zone ?? (try? TimeZoneRules(timetable.stops[index].timeZone)) ?? .utc
    }
    /// The device's local time (set by the running device).
    package var localClock: LocalClock?

    /// The person's marks on trips and routes; a bad line is said once per reading and skipped.
    package func marks(now: Double) -> [TransitPreferences.Mark] {
        if let markCache, abs(now - markCache.read) < 60 { return markCache.marks }
        let (marks, problems) = preferences.marks()
        for problem in problems { Log.warning(problem) }
        markCache = (now, marks)
        return marks
    }

    /// Once a second: the reminders now due, each once. One whose trip left while the device
    /// was off is dropped unsaid (it would only mislead).
    package func tick(time: Double) -> [Report] {
        guard reminders.contains(where: { time >= $0.at }) else { return [] }
        var due: [Report] = []
        reminders.removeAll { reminder in
            guard time >= reminder.at else { return false }
            guard time < reminder.departure, let index = timetable.stops(matching: reminder.stop).first else { return true }
            due.append(
                .event(
                    EventReport(
                        .departureReminder(
                            stop: timetable.stops[index].name, route: reminder.route, headsign: reminder.headsign,
                            departure: reminder.departure, zone: zone(of: index)), time: time)))
            return true
        }
        do { try store.save(reminders) } catch { Log.warning(error.description + "; a reminder already given may sound again after a restart") }
        return due
    }
}
