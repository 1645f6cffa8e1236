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
        let services = loop.services
        table.route("DEVICES") { [unowned loop] in [.devices(DevicesReport(devices: loop.devices(), activated: loop.started))] }
        table.route("POLL") { [unowned loop] in [loop.poll()] }
        table.route("STATUS") { [unowned loop] in [loop.health()] }
        table.route("CONFIG") { [unowned loop] in
            [.settings(SettingsReport(settings: Setting.all.map { (key: $0.key, json: $0.current(loop.running).serialized) }))]
        }
        table.route("CALIBRATE", decode: CalibrateRequest.decode) { [unowned loop] request in
            guard let compass = services.compass else { return [.error("this board has no magnetometer to calibrate")] }
            switch request {
            case .cancel: compass.cancelGuided()
            case .start(let mode): compass.startGuided(at: loop.clock.now(), mode: mode ?? (compass.use == .boat ? .swing : .figure8))
            }
            // The session belongs to the client that started it: it ends when that client goes.
            loop.calibrationClient = loop.server?.requester
            return []
        }
        table.route("LOCK", decode: LockRequest.decode) { [unowned loop] request in
            guard let motion = services.motion else { return [.error("this board has no IMU")] }
            // `lodestone lock` sounds as the button does.
            services.controls?.signal(.lock, at: loop.clock.now())
            return [motion.lockBearing(request.bearing, time: loop.utcNow())]
        }
        table.route("UNLOCK") { [unowned loop] in
            guard let motion = services.motion else { return [.error("this board has no IMU")] }
            services.controls?.signal(.lock, at: loop.clock.now())
            return [motion.unlockBearing(time: loop.utcNow())]
        }
        table.route("LEVEL", decode: LevelRequest.decode) { [unowned loop] request in
            guard let motion = services.motion else { return [.error("this board has no IMU")] }
            return [motion.handle(request, time: loop.utcNow())]
        }
        table.route("WAYPOINT", decode: WaypointRequest.decode) { [unowned loop] request in
            if case .back = request { return [loop.startBacktrack()] }
            return [services.waypoints?.handle(request, state: loop.latest) ?? .error("waypoints need a data directory")]
        }
        table.route("TRACK", decode: TrackRequest.decode) { [unowned loop] request in
            [services.tracks?.handle(request, at: loop.utcNow()) ?? .error("track recording needs a data directory")]
        }
        table.route("BARO", decode: BaroRequest.decode) { request in
            [services.chronicle?.weather.handle(request) ?? .error("this board has no barometer")]
        }
        table.route("ALERT", decode: AlertRuleChange.decodeRequest) { change in
            [services.chronicle?.alerts.handle(change) ?? .error("alerts need a data directory")]
        }
        table.route("LOG", decode: LogRequest.decode) { [unowned loop] request in
            [services.chronicle?.logs.handle(request, time: loop.utcNow()) ?? .error("logging needs a data directory")]
        }
        table.route("DEPARTURES", decode: DeparturesRequest.decode) { [unowned loop] request in
            guard let transit = services.transit else { return [.error("no timetable imported: 'lodestone timetable import FEED.zip', then restart")] }
            return [transit.handle(request, state: loop.latest, time: loop.utcNow())]
        }
        table.route("SNAPSHOT", decode: SnapshotRequest.decode) { [unowned loop] request in
            guard let chronicle = services.chronicle else { return [.error("snapshots need a data directory")] }
            services.controls?.signal(.snapshot, at: loop.clock.now())
            return [chronicle.takeSnapshot(request, state: loop.latest, accuracy: loop.positionAccuracy, time: loop.utcNow(),
                                               activity: loop.services.activity)]
        }
        return table
    }
}

extension OutputLoop {
    /// A client has gone: a guided calibration it started ends at once (not at its three-minute
    /// limit), and the sampling rates it raised return to what the motion asks for.
    func clientGone(_ number: Int) {
        guard number == calibrationClient else { return }
        calibrationClient = nil
        if services.compass?.cancelGuided("calibration cancelled: the client that started it went away") == true {
            Log.info("guided calibration cancelled: the client that started it went away")
        }
    }

    /// POLL: the newest position, attitude and satellites.
    func poll() -> Report {
        let time = utcNow()
        let positions = services.positions
        return .poll(PollReport(time: time, active: latest.fix.mode.rawValue >= 2,
                                position: positionReport(positions?.fix ?? latest.fix),
                                attitude: latest.imu == nil ? nil : AttitudeReport(state: latest, device: imuDevice, time: time),
                                satellites: lastSky))
    }

    /// HEALTH: the sensors, both task tables, the socket and the storage.
    func health() -> Report {
        let overflows = outputs.imuRing.overflows + outputs.magneticRing.overflows + outputs.pressureRing.overflows + outputs.fixRing.overflows
        let changed = latest.healthChanged
        func utc(_ time: MonotonicNanoseconds) -> Double? { time == 0 ? nil : deviceClock.utc(at: time) }
        var report = HealthReport(state: latest, sensorsChanged: (utc(changed.imu), utc(changed.magnetometer), utc(changed.barometer), utc(changed.gps)),
                                    loop: scheduler.loopStatistics.read(), tasks: taskLines(), outputTasks: outputTaskLines(),
                                    ringOverflows: overflows, clients: server?.clientCount ?? 0, droppedClients: server?.droppedSlowClients ?? 0,
                                    profile: adaptive?.profile, gpsInterval: adaptive?.rates.gpsInterval,
                                    storage: services.tracks.map { $0.storageProblem ?? "ok" }, sensorProblems: sensorProblems)
        report.station = services.station?.devices() ?? []
        if let mqtt {
            let outbox = mqtt.client.outbox
            report.mqtt = MQTTStatus(broker: mqtt.settings.broker, connected: mqtt.client.isConnected, queued: outbox.count,
                                     dropped: outbox.dropped, delivered: outbox.delivered)
        }
        return .health(report)
    }
}
