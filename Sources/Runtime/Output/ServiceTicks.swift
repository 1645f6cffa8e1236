import LodestoneCore
import LodestoneDomain
import LodestoneOutputs
import LodestoneReports
import LodestoneHAL
import LodestoneServices
import LodestoneSim
import LodestoneStorage

/// The output task table's task bodies: each asks its services for reports and hands them on.
/// The services' rounds on the output thread, each a task of the output table: the compass,
/// the attitude, the positions and waypoints, the weather, the sky and departures, the motion,
/// and adaptive sampling. Each sends what its service reports.
final class ServiceTicks<Clock: MonotonicClock> {
    let context: OutputContext<Clock>
    let adaptive: AdaptiveService<Clock>?
    /// Where the last position is kept across restarts (with a data directory).
    let memory: DeviceMemoryFile?
    /// The sampling side's state and the time the last ATT carried: each ATT is a new state,
    /// later than the one before.
    private var lastAttitude: (sample: MonotonicNanoseconds, time: Double) = (0, -.infinity)
    private var cardinalClicker = CardinalClicker()
    private var positionSaved = -Double.infinity
    private var wasNavigating = false

    init(context: OutputContext<Clock>, adaptive: AdaptiveService<Clock>?, memory: DeviceMemoryFile?) {
        self.context = context
        self.adaptive = adaptive
        self.memory = memory
    }

    private var services: OutputServices { context.services }
    private var latest: NavigationState { context.latest }
    /// The real clock, for the buzzer and the light (sounds play in real time; what the
    /// reports say is decided on sample time, `context.now`).
    private var clock: Clock { context.clock }
    private var deviceClock: DeviceClock { context.deviceClock }
    private func send(_ report: Report) { context.send(report) }
    private func utcNow() -> Double { context.utcNow() }

    /// "compass": Earth's field for true north, the calibration's progress.
    func runCompass() {
        for event in services.compass?.tick(latest, now: context.now) ?? [] { send(event) }
    }

    /// "adaptive": the sampling rates for how the device moves (`AdaptiveService` decides).
    func adaptSampling() {
        guard let adaptive else { return }
        let now = context.now
        // The position filter learns the new fix interval from the sampling side's state
        // (`SampleIntake`), where a replay finds it too.
        if let line = adaptive.tick(motion: AdaptiveService<Clock>.motionForRates(services.motion, compass: services.compass), now: now) {
            Log.info(line)
        }
    }

    /// "attitude": the level and the bearing lock, ATT at 10 Hz, the NMEA heading; once per
    /// new state from the sampling side (never the same state twice), its time moving forward.
    func publishAttitude() {
        let now = context.now
        guard latest.updated > lastAttitude.sample else { return }
        let time = max(deviceClock.utc(at: latest.updated), lastAttitude.time + 0.001)
        lastAttitude = (latest.updated, time)
        if let motion = services.motion {
            motion.tick(latest, now: now, time: time) { event in
                send(event)
                if case .event(let report) = event, case .offCourse = report.event { services.controls?.signal(.offCourse, at: clock.now()) }
            }
            if motion.levelReached { services.controls?.signal(.level, at: clock.now()) }
        }
        if let controls = services.controls, controls.sounds.cardinalClick, cardinalClicker.update(heading: latest.trustedMagneticHeading) {
            controls.signal(.cardinal, at: clock.now())
        }
        guard latest.imu != nil else { return }
        var report = AttitudeReport(
            state: latest, device: context.imuDevice, time: time, calibration: services.compass?.status,
            lock: lockFigures(), level: services.motion?.level.isLevel)
        if let compass = services.compass {
            report.calibrationProgress = compass.status == .inProgress ? compass.progress : nil
            (report.calibratesBySwing, report.swingTurned) = (compass.calibratesBySwing, compass.swingTurned)
        }
        if let level = services.motion?.level { report.levelAngles = (level.roll, level.pitch) }
        send(.attitude(report))
    }

    /// The bearing lock as ATT carries it, while one is set.
    func lockFigures() -> BearingLockFigures? {
        guard let lock = services.motion?.lock, let bearing = lock.bearing else { return nil }
        return BearingLockFigures(bearing: bearing, deviation: lock.deviation, offCourse: lock.isOffCourse)
    }

    /// "positions": GPS warnings, a predicted position across a short outage, the waypoint.
    /// `units`: the units the device shows, for the track's splits.
    func publishPositions(units: Units) {
        let now = context.now
        let time = utcNow()
        if let positions = services.positions {
            for event in positions.tick(now: now, time: time) { send(event) }
            if let predicted = positions.bridge(now: now) {
                send(.position(context.positionReport(predicted)))
                if let event = services.tracks?.add(predicted, state: latest, now: now, time: time) { send(event) }
            }
        }
        // Splits by the units the device shows: a mile in imperial, a nautical mile afloat.
        services.tracks?.splitLength = TrackSummaryText.split(units).metres
        if let web = context.fanout.web, let tracks = services.tracks { web.follow(tracks, now: time) }
        guard let waypoints = services.waypoints else { return }
        if !waypoints.isNavigating {
            // Once when the way ends (arrived, or stopped by a client): the outputs learn it.
            if wasNavigating { send(waypoints.report(message: "navigation stopped")) }
            wasNavigating = false
        } else {
            wasNavigating = true
            waypoints.update(latest, time: time)
            send(waypoints.report(message: nil))
            for event in waypoints.takeEvents() {
                send(event)
                if case .event(let report) = event, case .offTrack(true, _) = report.event { services.controls?.signal(.offCourse, at: clock.now()) }
            }
        }
    }

    /// "weather": ENV, the history, alerts and timed log records.
    func publishWeather() {
        let chronicle = services.chronicle
        let time = utcNow()
        services.station?.tick(at: context.now)
        let station = services.station?.figures.map(resolveWind)
        if let pressure = latest.pressure {
            let environment = EnvironmentReport(
                pressure: pressure, barometricAltitude: latest.barometricAltitude,
                qnh: latest.seaLevelPressure / 100, weather: chronicle?.weather.figures,
                device: context.barometerDevice, time: deviceClock.utc(at: pressure.time), station: station,
                latitude: latest.fix.hasPosition ? latest.fix.latitude : nil)
            context.outlook = environment.outlook ?? context.outlook.flatMap { $0.forecast(at: time) == nil ? nil : $0 }
            send(.environment(environment))
        } else if let station {
            // No barometer (or none answering): the station's figures alone.
            send(
                .environment(
                    EnvironmentReport(
                        pressure: nil, barometricAltitude: .nan, qnh: .nan, weather: nil,
                        device: OutputContext<Clock>.stationDevice, time: time, station: station)))
        }
        guard let chronicle else { return }
        let (reports, alerted) = chronicle.tick(state: latest, time: time)
        for report in reports { send(report) }
        if alerted { services.controls?.signal(.alert, at: clock.now()) }
    }

    /// "sky": sun events and the SUN report.
    func publishSky() {
        let time = utcNow()
        rememberPosition(time: time)
        services.sky?.tick(latest, time: time) { send($0) }
        for reminder in services.transit?.tick(time: time) ?? [] {
            send(reminder)
            services.controls?.signal(.departure, at: clock.now())
        }
        if let satellites = services.satellites, let place = services.sky?.observer(latest) {
            for event in satellites.tick(place: place, time: time) {
                send(event)
                services.controls?.signal(.satellitePass, at: clock.now())
            }
        }
    }

    /// The fix's place, kept every 10 minutes (and at stop) as the sky's place for a start
    /// without a fix.
    func rememberPosition(time: Double, force: Bool = false) {
        guard latest.fix.hasPosition, let sky = services.sky else { return }
        sky.lastKnown = (latest.fix.latitude, latest.fix.longitude, time)
        guard force || time - positionSaved >= 600 || time < positionSaved else { return }
        positionSaved = time
        memory?.save(DeviceMemoryFile.LastPosition(latitude: latest.fix.latitude, longitude: latest.fix.longitude, time: time))
    }

    /// "motion": the day's steps and floors, and the once-a-second MOTION report.
    func publishMotion() {
        guard let motion = services.motion, latest.imu != nil else { return }
        let time = utcNow()
        var report = motion.report(time: time)
        if let activity = services.activity {
            let altitude = services.chronicle.map { $0.weather.fused.isFinite ? $0.weather.fused : $0.weather.barometric } ?? latest.barometricAltitude
            activity.update(
                stepsSinceStart: report.steps, distanceSinceStart: report.distance, altitude: altitude,
                moving: motion.motion == .walking || motion.motion == .running, time: time)
            (report.stepsToday, report.floorsUp, report.floorsDown) = (activity.stepsToday, activity.floors.up, activity.floors.down)
            (report.distanceToday, report.activeSecondsToday) = (activity.distanceToday, activity.activeSecondsToday)
        }
        send(.motion(report))
    }

    /// "Take me back": along the recording in progress, else the newest stored track, to its start.
    func startBacktrack() -> Report {
        guard let waypoints = services.waypoints, let tracks = services.tracks else { return .error("the way back needs a data directory") }
        var path = tracks.recording?.points.map { ($0.latitude, $0.longitude) } ?? []
        if path.count < 2, let newest = tracks.store.list().first, let stored = tracks.store.load(id: newest.id) {
            path = stored.points.map { ($0.latitude, $0.longitude) }
        }
        guard path.count >= 2 else { return .error("no recorded track to lead back along: record one with 'lodestone track start'") }
        return waypoints.startBacktrack(path: path, state: latest, time: utcNow())
    }

    /// The station's wind now, apparent and true: a vane aboard a boat (the board file's
    /// `wind.vane.aboard`) turns with the hull, and the true wind needs the heading and, under
    /// way, the fix's speed and course; a fixed mast's vane reads the true wind.
    func resolveWind(_ figures: StationFigures) -> StationFigures {
        guard var wind = figures.wind, let station = services.station, let vane = station.wind.directionNow else { return figures }
        let heading = latest.trustedMagneticHeading == nil ? nil : latest.trueHeading
        let fix = latest.fix
        let now = context.now
        let fresh = fix.hasPosition && fix.received != 0 && now > fix.received && now - fix.received < 3_000_000_000
        let motion = fresh ? WindTriangle.Motion(speed: fix.speed, course: fix.course) : nil
        (wind.apparent, wind.trueWind) = WindTriangle.resolve(
            speed: wind.now ?? wind.speed, vane: vane, aboard: station.wiring.vane?.aboard ?? false,
            heading: heading, motion: motion)
        var resolved = figures
        resolved.wind = wind
        return resolved
    }
}
