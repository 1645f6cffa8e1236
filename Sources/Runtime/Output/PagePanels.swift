import LodestoneCore
import LodestoneDomain
import LodestoneOutputs
import LodestoneReports
import LodestoneServices
import LodestoneStorage

/// The services' answers to the display's page: the figures they work out only when asked
/// (the sky, the chart, a track's statistics and plot, the departures, the pressure history)
/// and the header's clock and alert line, as panel reports for the display to take.
final class PagePanels {
    let services: OutputServices
    private var trackFigures: (name: String, points: Int, statistics: TrackStatistics)?
    private var wavesDay: (stop: Int, made: Double, generation: Int, day: WavesAnswer.Day)?

    init(services: OutputServices) { self.services = services }

    private var waypoints: WaypointService? { services.waypoints }
    private var chronicle: Chronicle? { services.chronicle }
    private var sky: SkyService? { services.sky }
    private var tracks: TrackService? { services.tracks }

    /// The panels `page` shows, and the header's, for the state `latest` at `time` (the alert
    /// in the words of `language`).
    func reports(for page: DisplayPage, latest: NavigationState, time: Double, onlyMarkedDepartures: Bool, language: Language = .en) -> [PanelReport] {
        var panels: [PanelReport] = [
            // The header's time is each page's first: it carries the zone's name ("14:32 CEST").
            .clock(services.localClock.timeOfDayWithZone(time)),
            .alert(chronicle?.alerts.displayLine(time: time, language))
        ]
        if page == .barometer, let history = chronicle?.history.histories["seaLevelPressure"] {
            panels.append(
                .pressureGraphs(
                    History.Range.allCases.map { range in (range.rawValue, Self.placed(history.summary(range, now: time), range: range, now: time)) }))
        }
        // The sky's figures are the costliest: only for the page that shows them.
        if page == .sky, let panel = sky?.panel(latest, time: time) { panels.append(.sky(panel)) }
        if page == .chart, let place = sky?.observer(latest) {
            let satellite = services.satellites.flatMap { s in s.position(place: place, time: time).map { (s.name, $0.altitude, $0.azimuth, $0.sunlit) } }
            panels.append(.chart(SkyChart.at(time, latitude: place.latitude, longitude: place.longitude, satellite: satellite)))
        }
        if let tracks { panels.append(.track(trackPanel(tracks, plot: page == .track, language: language))) }
        if page == .departures, let transit = services.transit {
            panels.append(.departures(departuresPanel(transit, latest: latest, time: time, onlyMarked: onlyMarkedDepartures)))
        }
        if page == .waves, let transit = services.transit { panels.append(.waves(wavesPanel(transit, latest: latest, time: time))) }
        if page == .day, let activity = services.activity {
            panels.append(.stepsByHour(activity.stepsByHour, now: activity.hour(at: time), twelveHour: services.localClock.twelveHour))
        }
        return panels
    }

    /// The recording's figures: the service's statistics, taken anew only when points were added.
    private func trackPanel(_ tracks: TrackService, plot: Bool, language: Language) -> DisplayModel.TrackPanel {
        var panel = DisplayModel.TrackPanel()
        panel.state = tracks.state.rawValue
        panel.autoPaused = tracks.autoPaused
        guard let recording = tracks.recording else {
            // Only for the track page: the first ask reads the store's summaries.
            if plot, let last = tracks.lastSaved {
                let when = DepartureWords.day(last.started, zone: services.localClock.zone, language) + " " + services.localClock.timeOfDay(last.started)
                panel.last = .init(name: last.name, started: when, distance: last.distance, movingTime: last.movingTime, climb: last.elevationGain)
            }
            return panel
        }
        if trackFigures?.points != recording.points.count || trackFigures?.name != recording.name, let statistics = tracks.statistics {
            trackFigures = (recording.name, recording.points.count, statistics)
        }
        guard let statistics = trackFigures?.statistics else { return panel }
        panel.name = recording.name
        panel.points = statistics.points
        panel.distance = statistics.distance
        panel.elapsed = statistics.totalTime
        panel.movingTime = statistics.movingTime
        panel.averageSpeed = statistics.averageMovingSpeed
        panel.elevationGain = statistics.elevationGain
        panel.elevationLoss = statistics.elevationLoss
        guard plot else { return panel }
        panel.profile = statistics.profile.map(\.altitude)
        panel.splits = statistics.splits
        panel.path = tracks.path(limit: Self.plottedPoints)
        if let waypoints { panel.waypoints = nearbyWaypoints(waypoints, around: panel.path) }
        return panel
    }

    /// The next departures from the favourite stop, else the nearest; with only the marked ones,
    /// the next marked among the coming fifty.
    private func departuresPanel(_ transit: TransitService, latest: NavigationState, time: Double, onlyMarked: Bool) -> DisplayModel.DeparturesPanel? {
        guard let chosen = transit.stop(named: nil, state: latest, time: time) else {
            guard latest.fix.hasPosition else { return nil }
            var none = DisplayModel.DeparturesPanel(stop: "")
            none.noServiceWithin = transit.nearestWithin
            return none
        }
        let stop = transit.timetable.stops[chosen.index]
        let clock = services.localClock
        var panel = DisplayModel.DeparturesPanel(stop: stop.name)
        (panel.distance, panel.bearing, panel.onlyMarked) = (chosen.distance, chosen.bearing, onlyMarked)
        let marks = transit.marks(now: time)
        let list = transit.timetable.departures(from: chosen.index, after: time, count: onlyMarked ? 50 : DisplayModel.DeparturesPanel.listed)
        for departure in list {
            let mark = TransitPreferences.mark(for: departure, in: marks)
            if onlyMarked && mark == nil { continue }
            panel.rows.append(
                .init(
                    clock: clock.timeOfDay(departure.time), route: departure.route,
                    headsign: departure.headsign, secondsToGo: departure.time - time, mark: mark?.label, rating: mark?.rating))
            if panel.rows.count == DisplayModel.DeparturesPanel.listed { break }
        }
        return panel
    }

    /// The day's waves (worked out once a minute, or when the stop or the day changes) at the
    /// favourite stop, else the nearest, laid out for the waves page.
    private func wavesPanel(_ transit: TransitService, latest: NavigationState, time: Double) -> DisplayModel.WavesPanel? {
        guard let chosen = transit.stop(named: nil, state: latest, time: time) else { return nil }
        if let cached = wavesDay, cached.stop == chosen.index, cached.generation == services.localClock.generation, time - cached.made < 60,
            time >= cached.made,
            SkyAnswer.localDate(time, zone: cached.day.zone) == cached.day.date
        {
            return WavesAnswer.panel(cached.day, stopName: transit.timetable.stops[chosen.index].name, now: time)
        }
        guard
            let day = WavesAnswer.day(
                transit.timetable, marks: transit.marks(now: time), place: .stop(chosen.index), date: nil, now: time, clock: services.localClock)
        else { return nil }
        wavesDay = (chosen.index, time, services.localClock.generation, day)
        return WavesAnswer.panel(day, stopName: transit.timetable.stops[chosen.index].name, now: time)
    }

    /// A range's buckets in place, oldest first, NaN where a bucket is empty: the graph then
    /// knows how much of the range the history covers.
    static func placed(_ summary: History.Summary, range: History.Range, now: Double) -> [Double] {
        var values = [Double](repeating: .nan, count: range.buckets)
        let oldest = ((now / range.width).rounded(.down) - Double(range.buckets - 1)) * range.width
        for point in summary.points {
            let slot = Int(((point.time - oldest) / range.width).rounded())
            if values.indices.contains(slot) { values[slot] = point.mean }
        }
        return values
    }

    /// Enough points to draw the path's shape on any panel, few enough to draw it each second.
    static let plottedPoints = 400

    /// The saved waypoints within 2 km of the path (the ones a person on it may head for).
    private func nearbyWaypoints(_ service: WaypointService, around path: [(latitude: Double, longitude: Double)]) -> [(
        name: String, latitude: Double, longitude: Double
    )] {
        guard let last = path.last else { return [] }
        let near = Navigation.sorted(service.store.load(), latitude: last.latitude, longitude: last.longitude).filter { $0.distance < 2_000 }
        return near.prefix(5).map { ($0.waypoint.name, $0.waypoint.latitude, $0.waypoint.longitude) }
    }
}
