import LodestoneCore
import LodestoneDomain
import LodestoneOutputs
import LodestoneReports
import LodestoneSettings

/// The socket's request table: each request's name, its decoder (which range-checks every
/// field) and the service that carries it out. ?WATCH and ?VERSION are the server's own.
enum SocketRequests {
    static func table<Clock: MonotonicClock>(for loop: OutputLoop<Clock>) -> RequestTable {
        var table = RequestTable()
        let services = loop.context.services
        table.route("DEVICES") { [unowned loop] in [.devices(DevicesReport(devices: loop.devices(loop.context.latest), activated: loop.started))] }
        table.route("POLL") { [unowned loop] in [poll(loop)] }
        table.route("STATUS") { [unowned loop] in [health(loop)] }
        table.route("CONFIG") { [unowned loop] in
            [.settings(SettingsReport(settings: Setting.all.map { (key: $0.key, json: $0.current(loop.running).serialized) }))]
        }
        table.route("CALIBRATE", decode: CalibrateRequest.decode) { [unowned loop] request in
            guard let compass = services.compass else { return [.error("this board has no magnetometer to calibrate")] }
            switch request {
            case .cancel: compass.cancelGuided()
            case .start(let mode): compass.startGuided(at: loop.context.clock.now(), mode: mode ?? (compass.use == .boat ? .swing : .figure8))
            }
            // The session belongs to the client that started it: it ends when that client goes.
            loop.calibrationClient = loop.context.fanout.server?.requester
            return []
        }
        table.route("LOCK", decode: LockRequest.decode) { [unowned loop] request in
            guard let motion = services.motion else { return [.error("this board has no IMU")] }
            // `lodestone lock` sounds as the button does.
            services.controls?.signal(.lock, at: loop.context.clock.now())
            return [motion.lockBearing(request.bearing, time: loop.context.utcNow())]
        }
        table.route("UNLOCK") { [unowned loop] in
            guard let motion = services.motion else { return [.error("this board has no IMU")] }
            services.controls?.signal(.lock, at: loop.context.clock.now())
            return [motion.unlockBearing(time: loop.context.utcNow())]
        }
        table.route("LEVEL", decode: LevelRequest.decode) { [unowned loop] request in
            guard let motion = services.motion else { return [.error("this board has no IMU")] }
            return [motion.handle(request, time: loop.context.utcNow())]
        }
        table.route("WAYPOINT", decode: WaypointRequest.decode) { [unowned loop] request in
            if case .back = request { return [loop.ticks.startBacktrack()] }
            return [services.waypoints?.handle(request, state: loop.context.latest) ?? .error("waypoints need a data directory")]
        }
        table.route("PHOTO") { [unowned loop] in
            [loop.context.takePhoto()]
        }
        table.route("TRACK", decode: TrackRequest.decode) { [unowned loop] request in
            [services.tracks?.handle(request, at: loop.context.utcNow()) ?? .error("track recording needs a data directory")]
        }
        table.route("BARO", decode: BaroRequest.decode) { request in
            [services.chronicle?.weather.handle(request) ?? .error("this board has no barometer")]
        }
        table.route("ALERT", decode: AlertRuleChange.decodeRequest) { change in
            [services.chronicle?.alerts.handle(change) ?? .error("alerts need a data directory")]
        }
        table.route("LOG", decode: LogRequest.decode) { [unowned loop] request in
            [services.chronicle?.logs.handle(request, time: loop.context.utcNow()) ?? .error("logging needs a data directory")]
        }
        let noTimetable = Report.error("no timetable imported: 'lodestone timetable import FEED.zip', then restart")
        table.route("DEPARTURES", decode: DeparturesRequest.decode) { [unowned loop] request in
            guard let transit = services.transit else { return [noTimetable] }
            return [transit.handle(request, state: loop.context.latest, time: loop.context.utcNow(), outlook: loop.context.outlook)]
        }
        table.route("WAVES", decode: WavesRequest.decode) { [unowned loop] request in
            guard let transit = services.transit else { return [noTimetable] }
            return [WavesAnswer.report(request, transit: transit, now: loop.context.utcNow(), outlook: loop.context.outlook)]
        }
        table.route("REMINDER", decode: ReminderRequest.decode) { [unowned loop] request in
            guard let transit = services.transit else { return [noTimetable] }
            return [transit.handle(request, state: loop.context.latest, time: loop.context.utcNow())]
        }
        table.route("SNAPSHOT", decode: SnapshotRequest.decode) { [unowned loop] request in
            guard let chronicle = services.chronicle else { return [.error("snapshots need a data directory")] }
            services.controls?.signal(.snapshot, at: loop.context.clock.now())
            return [
                chronicle.takeSnapshot(
                    request, state: loop.context.latest, accuracy: loop.context.positionAccuracy, time: loop.context.utcNow(),
                    activity: services.activity)
            ]
        }
        // The web app's pairings (`lodestone web pair|devices|forget`); codes run on real time.
        let webOff = Report.error("the web app is off: run with --http ADDR (or \"http\": {\"listen\": ...} in the configuration)")
        table.route("WEBPAIR") { [unowned loop] in [loop.context.fanout.web?.pair(now: OutputClock.unixTime()) ?? webOff] }
        table.route("WEBBROWSERS") { [unowned loop] in [loop.context.fanout.web?.browsers() ?? webOff] }
        table.route("WEBFORGET", decode: WebForgetRequest.decode) { [unowned loop] request in [loop.context.fanout.web?.forget(request.id) ?? webOff] }
        // Who may use the device is decided on the device: on its Unix socket, not on TCP.
        for name in ["WEBPAIR", "WEBBROWSERS", "WEBFORGET"] { table.restrictToLocalSocket(name) }
        return table
    }
}

extension SocketRequests {
    /// A client has gone: a guided calibration it started ends at once (not at its three-minute
    /// limit), and the sampling rates it raised return to what the motion asks for.
    static func clientGone<Clock: MonotonicClock>(_ number: Int, loop: OutputLoop<Clock>) {
        guard number == loop.calibrationClient else { return }
        loop.calibrationClient = nil
        if loop.context.services.compass?.cancelGuided("calibration cancelled: the client that started it went away") == true {
            Log.info("guided calibration cancelled: the client that started it went away")
        }
    }

    /// POLL: the newest position, attitude and satellites.
    static func poll<Clock: MonotonicClock>(_ loop: OutputLoop<Clock>) -> Report {
        let context = loop.context
        let time = context.utcNow()
        let latest = context.latest
        return .poll(
            PollReport(
                time: time, active: latest.fix.mode.rawValue >= 2,
                position: context.positionReport(context.services.positions?.fix ?? latest.fix),
                attitude: latest.imu == nil ? nil : AttitudeReport(state: latest, device: context.imuDevice, time: time),
                satellites: loop.intake.lastSky))
    }

    /// HEALTH: the sensors, both task tables, the socket and the storage.
    static func health<Clock: MonotonicClock>(_ loop: OutputLoop<Clock>) -> Report {
        let (outputs, latest, services, server) = (loop.context.outputs, loop.context.latest, loop.context.services, loop.context.fanout.server)
        let overflows =
            outputs.imuRing.overflows + outputs.magneticRing.overflows + outputs.pressureRing.overflows + outputs.fixRing.overflows
            + outputs.skyRing.overflows
        let changed = latest.healthChanged
        func utc(_ time: MonotonicNanoseconds) -> Double? { time == 0 ? nil : loop.context.deviceClock.utc(at: time) }
        var report = HealthReport(
            state: latest, sensorsChanged: (utc(changed.imu), utc(changed.magnetometer), utc(changed.barometer), utc(changed.gps)),
            loop: loop.scheduler.loopStatistics.read(), tasks: loop.taskLines(), outputTasks: loop.outputTaskLines(),
            ringOverflows: overflows, clients: server?.clientCount ?? 0, droppedClients: server?.droppedSlowClients ?? 0,
            profile: loop.ticks.adaptive?.profile, gpsInterval: loop.ticks.adaptive?.rates.gpsInterval,
            storage: services.tracks.map { $0.storageProblem ?? "ok" }, sensorProblems: SensorProblemLog.texts(outputs.problems))
        report.statesDropped = outputs.stateRing.overflows
        report.station = services.station?.devices() ?? []
        report.mqtt = loop.context.fanout.mqttStatus
        report.chrony = loop.context.fanout.chrony.map { ($0.path, $0.samples, $0.lastOffset, $0.lastSource?.rawValue, $0.problem) }
        if loop.displayDriver.display.isActive {
            let frames = loop.displayDriver.frames
            report.display = (frames.framesPerSecond, frames.frameMilliseconds)
        }
        return .health(report)
    }
}
