import LodestoneCore
import LodestoneDomain
import LodestoneOutputs
import LodestoneReports
import LodestoneServices
import LodestoneStorage

/// Gathers what the display pages show from the running services, once per redraw.
final class DisplayFeed {
    let deviceName: String
    let services: OutputServices
    /// The adaptive sampling profile, when adaptive sampling runs.
    let profile: () -> String?
    /// Socket clients, the loop's statistics and the task table, from the output loop.
    let health: () -> (Int, LoopStatistics, [TaskLine])
    /// Why each failing sensor fails.
    let problems: () -> SensorProblemTexts
    private var trackFigures: (name: String, points: Int, statistics: TrackStatistics)?

    init(deviceName: String, services: OutputServices, profile: @escaping () -> String?,
         health: @escaping () -> (Int, LoopStatistics, [TaskLine]), problems: @escaping () -> SensorProblemTexts) {
        self.deviceName = deviceName
        self.services = services
        self.profile = profile
        self.health = health
        self.problems = problems
    }

    private var compass: CompassService? { services.compass }
    private var motion: MotionService? { services.motion }
    private var positions: PositionService? { services.positions }
    private var waypoints: WaypointService? { services.waypoints }
    private var chronicle: Chronicle? { services.chronicle }
    private var sky: SkyService? { services.sky }
    private var tracks: TrackService? { services.tracks }

    /// Everything the pages show: `shown` is the state as displayed (the heading smoothed),
    /// `latest` the newest one, `position` the fix the last TPV carried (with its errors).
    func model(_ shown: NavigationState, latest: NavigationState, position: GPSFix? = nil, time: Double, page: DisplayPage,
               onlyMarkedDepartures: Bool = false) -> DisplayModel {
        var model = DisplayModel()
        model.state = shown
        if let position { model.state.fix = position }
        model.title = deviceName
        model.clock = sky.map { String($0.zone.iso8601(time).dropFirst(11).prefix(5)) }
        model.compass.calibration = compass?.status
        model.compass.calibrationProgress = compass?.progress ?? 0
        model.compass.calibratesBySwing = compass?.calibratesBySwing ?? false
        model.compass.swingTurned = compass?.swingTurned
        if let motion {
            model.compass.lockedBearing = motion.lock.bearing
            model.compass.deviation = motion.lock.deviation
            model.compass.offCourse = motion.lock.isOffCourse
            model.compass.steps = services.activity?.stepsToday ?? motion.steps.steps
            model.compass.floors = services.activity.map { ($0.floors.up, $0.floors.down) }
            (model.level.roll, model.level.pitch, model.level.isLevel) = (motion.level.roll, motion.level.pitch, motion.level.isLevel)
        } else if let attitude = shown.attitude {
            (model.level.roll, model.level.pitch) = (attitude.roll, attitude.pitch)
        }
        if let positions {
            model.position.confidence = positions.confidence
            model.position.warnings = positions.warnings.map(\.advice)
        }
        if let way = waypoints?.navigation {
            model.navigation = DisplayModel.NavigationPanel(waypoint: way.waypoint, distance: way.distance, bearing: way.bearing,
                                                            relativeBearing: way.relativeBearing, eta: way.timeToGo)
            if let guidance = waypoints?.guidance {
                model.navigation?.remaining = guidance.remaining
                model.navigation?.offTrack = guidance.offTrack
            }
        }
        if let figures = services.station?.figures {
            var panel = DisplayModel.StationPanel()
            (panel.windNow, panel.windMean, panel.windGust, panel.windDirection)
                = (figures.wind?.now, figures.wind?.speed, figures.wind?.gust, figures.wind?.direction)
            (panel.temperatures, panel.problems) = (figures.temperatures, figures.problems)
            model.station = panel
        }
        if let chronicle {
            model.weather = weatherPanel(chronicle, time: time)
            model.alert = chronicle.alerts.displayLine(time: time)
        }
        // The sky's figures are the costliest: only for the page that shows them.
        if page == .sky { model.sky = sky?.panel(latest, time: time) }
        if page == .chart, let place = sky?.observer(latest) {
            let satellite = services.satellites.flatMap { s in s.position(place: place, time: time).map { (s.name, $0.altitude, $0.azimuth, $0.sunlit) } }
            model.chart = SkyChart.at(time, latitude: place.latitude, longitude: place.longitude, satellite: satellite)
        }
        model.track = tracks.map { trackPanel($0, plot: page == .track) }
        if page == .departures, let transit = services.transit {
            model.departures = departuresPanel(transit, latest: latest, time: time, onlyMarked: onlyMarkedDepartures)
        }
        if latest.fix.hasPosition { model.track?.here = (latest.fix.latitude, latest.fix.longitude) }
        model.health.profile = profile()
        (model.health.clients, model.health.loop, model.health.tasks) = health()
        model.health.log = Log.recent(4)
        model.health.problems = problems()
        return model
    }

    private func weatherPanel(_ chronicle: Chronicle, time: Double) -> DisplayModel.WeatherPanel {
        let weather = chronicle.weather
        var panel = DisplayModel.WeatherPanel()
        panel.stationPressure = weather.station
        panel.seaLevelPressure = weather.seaLevel
        panel.fusedAltitude = weather.fused
        panel.temperature = weather.temperature
        if let reading = weather.reading {
            panel.trendArrow = reading.band.arrow
            panel.trendRate = reading.hPaPerHour
            panel.forecast = reading.band.forecast
            panel.threeHourChange = reading.threeHourChange
        }
        if let history = chronicle.history.histories["seaLevelPressure"] {
            panel.graphs = History.Range.allCases.map { range in (range.rawValue, history.summary(range, now: time).points.map(\.mean)) }
        }
        return panel
    }

    /// The recording's figures; the statistics are recomputed only when points were added.
    private func trackPanel(_ tracks: TrackService, plot: Bool) -> DisplayModel.TrackPanel {
        var panel = DisplayModel.TrackPanel()
        panel.state = tracks.state.rawValue
        panel.autoPaused = tracks.autoPaused
        guard let recording = tracks.recording else { return panel }
        if trackFigures?.points != recording.points.count || trackFigures?.name != recording.name {
            trackFigures = (recording.name, recording.points.count, TrackStatistics.of(recording.points))
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
        let points = recording.points
        let step = max(1, points.count / Self.plottedPoints)
        panel.path = stride(from: 0, to: points.count, by: step).map { (points[$0].latitude, points[$0].longitude) }
        if let last = points.last { panel.path.append((last.latitude, last.longitude)) }
        if let waypoints { panel.waypoints = nearbyWaypoints(waypoints, around: panel.path) }
        return panel
    }

    /// The next departures from the favourite stop, else the nearest; with only the marked ones,
    /// the next marked among the coming fifty.
    private func departuresPanel(_ transit: TransitService, latest: NavigationState, time: Double, onlyMarked: Bool) -> DisplayModel.DeparturesPanel? {
        guard let chosen = transit.stop(named: nil, state: latest) else { return nil }
        let stop = transit.timetable.stops[chosen.index]
        let zone = (try? TimeZoneRules(stop.timeZone)) ?? .utc
        var panel = DisplayModel.DeparturesPanel(stop: stop.name)
        (panel.distance, panel.bearing, panel.onlyMarked) = (chosen.distance, chosen.bearing, onlyMarked)
        let marks = transit.marks(now: time)
        let list = transit.timetable.departures(from: chosen.index, after: time, count: onlyMarked ? 50 : DisplayModel.DeparturesPanel.shown)
        for departure in list {
            let mark = TransitPreferences.mark(for: departure, in: marks)
            if onlyMarked && mark == nil { continue }
            panel.rows.append(.init(clock: String(zone.iso8601(departure.time).dropFirst(11).prefix(5)), route: departure.route,
                                    headsign: departure.headsign, secondsToGo: departure.time - time, mark: mark?.label, rating: mark?.rating))
            if panel.rows.count == DisplayModel.DeparturesPanel.shown { break }
        }
        return panel
    }

    /// Enough points to draw the path's shape on any panel, few enough to draw it each second.
    static let plottedPoints = 400

    /// The saved waypoints within 2 km of the path (the ones a person on it may head for).
    private func nearbyWaypoints(_ service: WaypointService, around path: [(latitude: Double, longitude: Double)]) -> [(name: String, latitude: Double, longitude: Double)] {
        guard let last = path.last else { return [] }
        let near = Navigation.sorted(service.store.load(), latitude: last.latitude, longitude: last.longitude).filter { $0.distance < 2_000 }
        return near.prefix(5).map { ($0.waypoint.name, $0.waypoint.latitude, $0.waypoint.longitude) }
    }
}
