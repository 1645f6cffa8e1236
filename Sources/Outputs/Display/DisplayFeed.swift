import LodestoneCore
import LodestoneDomain
import LodestoneReports

/// The display's adapter: it takes the reports every other output takes (ATT, TPV, ENV,
/// MOTION, WAYPOINT, HEALTH) and the panel reports the services give for the page on screen,
/// keeps the newest of each, and gathers the model the pages draw. It knows nothing of where
/// the values came from; a value no report has carried yet is shown as unknown.
public final class DisplayFeed {
    public let title: String
    private var attitude: AttitudeReport?
    private var position: PositionReport?
    private var environment: EnvironmentReport?
    private var motion: MotionReport?
    private var navigation: WaypointReport?
    private var health: HealthReport?
    private var clock: String?
    private var alert: String?
    private var graphs: [(label: String, values: [Double])] = []
    private var sky: SkyPanel?
    private var chart: SkyChart?
    private var track: TrackPanel?
    private var departures: DeparturesPanel?
    private var waves: WavesPanel?
    private var connect: ConnectPanel?
    private var stepsByHour: (hours: [Int], now: Int?, twelveHour: Bool) = ([], nil, false)
    /// The heading as shown, smoothed on the unit circle so 359° and 1° average to 0°, not
    /// 180°, over the ATT times.
    private var smoother = HeadingSmoother(timeConstant: 0.5)
    private var smoothedAt: Double?

    public init(title: String) { self.title = title }

    /// Moves the smoothed heading on to `time` (UTC) toward the newest reading, so frames drawn
    /// between two ATT reports show the rose turning, not standing and jumping.
    public func advance(to time: Double) {
        guard let heading = attitude?.magneticHeading, let at = smoothedAt, time > at else { return }
        smoother.update(heading: heading, interval: min(time - at, 1))
        smoothedAt = time
    }

    /// What the compass and level pages move with: the smoothed heading, the roll and pitch.
    public var motionNow: (heading: Double, roll: Double, pitch: Double)? {
        guard let a = attitude, let roll = a.roll, let pitch = a.pitch else { return nil }
        return (smoother.heading ?? a.magneticHeading ?? 0, roll, pitch)
    }

    public func take(_ report: Report) {
        switch report {
        case .attitude(let r):
            if let heading = r.magneticHeading {
                let interval = smoothedAt.map { min(max(r.time - $0, 0), 1) } ?? 1
                smoother.update(heading: heading, interval: interval)
                smoothedAt = r.time
            }
            attitude = r
        case .position(let r): position = r
        case .environment(let r): environment = r
        case .motion(let r): motion = r
        case .waypoint(let r): navigation = r.waypoint != nil && r.distance != nil && r.bearing != nil ? r : nil
        case .health(let r): health = r
        default: break
        }
    }

    public func take(_ panel: PanelReport) {
        switch panel {
        case .clock(let text): clock = text
        case .alert(let line): alert = line
        case .pressureGraphs(let list): graphs = list
        case .sky(let p): sky = p
        case .chart(let c): chart = c
        case .track(let p): track = p
        case .departures(let p): departures = p
        case .waves(let p): waves = p
        case .connect(let p): connect = p
        case .stepsByHour(let hours, let now, let twelveHour): stepsByHour = (hours, now, twelveHour)
        }
    }

    /// What the pages show now.
    public func model() -> DisplayModel {
        var model = DisplayModel()
        model.title = title
        model.clock = clock
        model.alert = alert
        if let attitude { read(attitude, into: &model) }
        if let motion {
            model.compass.steps = motion.stepsToday ?? motion.steps
            if let up = motion.floorsUp, let down = motion.floorsDown { model.compass.floors = (up, down) }
            var day = DisplayModel.DayPanel()
            (day.steps, day.distance) = (motion.stepsToday ?? motion.steps, motion.distanceToday ?? motion.distance)
            (day.floorsUp, day.floorsDown, day.activeSeconds) = (motion.floorsUp ?? 0, motion.floorsDown ?? 0, motion.activeSecondsToday ?? 0)
            (day.cadence, day.state) = (motion.cadence, motion.state.rawValue)
            (day.stepsByHour, day.hourNow, day.twelveHour) = stepsByHour
            model.day = day
        }
        if let position {
            model.state.fix = position.fix
            model.position.confidence = position.confidence
            model.position.warnings = position.warnings
        }
        if let environment { read(environment, into: &model) }
        if let health { read(health, into: &model) }
        model.health.log = Log.recent(4)
        if let navigation, let waypoint = navigation.waypoint, let distance = navigation.distance, let bearing = navigation.bearing {
            var panel = DisplayModel.NavigationPanel(
                waypoint: waypoint.name, distance: distance, bearing: bearing,
                relativeBearing: navigation.relativeBearing, eta: navigation.timeToGo)
            if let back = navigation.backtrack { (panel.remaining, panel.offTrack) = (back.remaining, back.offTrack) }
            model.navigation = panel
        }
        (model.sky, model.chart, model.departures, model.waves, model.connect) = (sky, chart, departures, waves, connect)
        model.track = track
        if model.state.fix.hasPosition { model.track?.here = (model.state.fix.latitude, model.state.fix.longitude) }
        return model
    }

    /// The heading (smoothed), the compass's calibration and lock, and the level.
    private func read(_ a: AttitudeReport, into model: inout DisplayModel) {
        if let roll = a.roll, let pitch = a.pitch {
            let heading = a.magneticHeading.map { smoother.heading ?? $0 }
            model.state.attitude = TiltCompensatedHeading(roll: roll, pitch: pitch, magneticHeading: heading ?? .nan)
            model.state.trueHeading = heading.flatMap { h in a.declination.map { Angle.heading(h + $0) } }
            (model.level.roll, model.level.pitch) = a.levelAngles ?? (roll, pitch)
        }
        model.level.isLevel = a.level ?? false
        model.state.headingAccuracy = a.headingAccuracy ?? .nan
        model.state.declination = a.declination
        model.state.magneticInterference = a.magneticStatus?.interference ?? false
        model.compass.calibration = a.calibration
        model.compass.calibrationProgress = a.calibrationProgress ?? 0
        model.compass.calibratesBySwing = a.calibratesBySwing
        model.compass.swingTurned = a.swingTurned
        model.compass.lockedBearing = a.lock?.bearing
        model.compass.deviation = a.lock?.deviation
        model.compass.offCourse = a.lock?.offCourse ?? false
    }

    /// The barometer's page and the station's wind and probes.
    private func read(_ e: EnvironmentReport, into model: inout DisplayModel) {
        model.state.barometricAltitude = e.barometricAltitude
        if let pressure = e.pressure {
            var panel = DisplayModel.WeatherPanel()
            panel.stationPressure = pressure.pressure / 100
            panel.temperature = pressure.temperature
            panel.seaLevelPressure = e.weather?.seaLevelPressure ?? .nan
            panel.fusedAltitude = e.weather?.altitudeFused ?? .nan
            if let reading = e.weather?.trend {
                panel.trendArrow = reading.band.arrow
                panel.trendRate = reading.hPaPerHour
                panel.trendBand = reading.band.rawValue
                panel.threeHourChange = reading.threeHourChange
            }
            panel.graphs = graphs
            model.weather = panel
        }
        if let figures = e.station {
            var panel = DisplayModel.StationPanel()
            (panel.windNow, panel.windMean, panel.windGust, panel.windDirection) = (
                figures.wind?.now, figures.wind?.speed, figures.wind?.gust, figures.wind?.direction
            )
            // Aboard (an apparent wind is published only there) the vane's mean is an angle from
            // the bow, no compass point: the wind now is the true one, where it blows from.
            if let wind = figures.wind, wind.apparent != nil {
                (panel.windNow, panel.windDirection) = (wind.trueWind?.speed ?? wind.now, wind.trueWind?.angle)
            }
            (panel.temperatures, panel.problems) = (figures.temperatures, figures.problems)
            panel.wetsuit = e.wetsuit
            panel.outlook = e.outlook.map(\.forecast.letter)
            model.station = panel
        }
    }

    /// Each sensor's health and the device's figures for the health page.
    private func read(_ h: HealthReport, into model: inout DisplayModel) {
        (model.state.imuHealth, model.state.magnetometerHealth, model.state.barometerHealth, model.state.gpsHealth) = h.sensors
        (model.state.gpsRejected, model.state.gpsRejectedReason) = (h.gpsRejected, h.gpsRejectedReason)
        model.health.profile = h.profile
        (model.health.clients, model.health.loop, model.health.tasks) = (h.clients, h.loop, h.tasks)
        model.health.problems = h.sensorProblems
    }
}
