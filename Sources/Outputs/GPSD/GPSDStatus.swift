import LodestoneCore
import LodestoneDomain
import LodestoneReports

extension GPSDReports {
    /// HEALTH (Lodestone): sensor health, the sampling loop, each task of both task tables.
    /// Times in microseconds, rates in Hz.
    public static func health(_ report: HealthReport) -> String {
        let state = report.state
        var w = JSONObjectWriter(class: "HEALTH")
        var sensors = JSONObjectWriter()
        sensors.string("imu", state.imuHealth.name)
        sensors.string("magnetometer", state.magnetometerHealth.name)
        sensors.string("barometer", state.barometerHealth.name)
        sensors.string("gps", state.gpsHealth.name)
        w.raw("sensors", sensors.finished)
        // When each sensor's health last changed, for sensors whose health has changed: a
        // client asking now and then still learns when a chip went quiet.
        var changed = JSONObjectWriter()
        let times = report.sensorsChanged
        for (role, time) in [("imu", times.imu), ("magnetometer", times.magnetometer), ("barometer", times.barometer), ("gps", times.gps)] {
            if let time { changed.string(role, iso(time)) }
        }
        w.raw("sensorsChanged", changed.finished)
        if let storage = report.storage { w.string("storage", storage) }
        let loop = report.loop
        var l = JSONObjectWriter()
        l.number("rateHz", loop.rateHz, decimals: 1)
        l.integer("ticks", Int(loop.ticks))
        l.integer("overruns", Int(loop.overruns))
        l.integer("droppedTicks", Int(loop.droppedTicks))
        l.number("latenessP50us", loop.latenessP50Microseconds, decimals: 1)
        l.number("latenessP99us", loop.latenessP99Microseconds, decimals: 1)
        l.number("latenessMaxus", loop.latenessMaxMicroseconds, decimals: 1)
        w.raw("loop", l.finished)
        w.raw("tasks", tasks(report.tasks))
        w.raw("outputTasks", tasks(report.outputTasks))
        w.integer("ringOverflows", report.ringOverflows)
        w.integer("clients", report.clients)
        // Clients dropped for not reading their backlog.
        w.integer("droppedClients", report.droppedClients)
        if let profile = report.profile { w.string("profile", profile) }
        if let gpsInterval = report.gpsInterval { w.number("gpsInterval", gpsInterval, decimals: 1) }
        return w.finished
    }

    static func tasks(_ lines: [TaskLine]) -> String {
        "[" + lines.map { task -> String in
            var t = JSONObjectWriter()
            let s = task.statistics
            t.string("name", task.name)
            t.number("rateHz", s.rateHz, decimals: 2)
            t.number("budgetus", task.budgetMicroseconds, decimals: 1)
            t.integer("runs", Int(s.runs))
            t.number("meanus", s.meanExecutionMicroseconds, decimals: 2)
            t.number("maxus", s.maxExecutionMicroseconds, decimals: 2)
            t.integer("overruns", Int(s.overruns))
            t.integer("slips", Int(s.slips))
            t.integer("skips", Int(s.skips))
            t.integer("missed", Int(s.missed))
            return t.finished
        }.joined(separator: ",") + "]"
    }

    /// DEVICES; `activated` is when the runtime opened them, as gpsd reports it.
    public static func devices(_ report: DevicesReport) -> String {
        var w = JSONObjectWriter(class: "DEVICES")
        let list = report.devices.map { device -> String in
            var d = JSONObjectWriter(class: "DEVICE")
            d.string("path", device.path)
            d.string("driver", device.driver)
            if let activated = report.activated { d.string("activated", iso(activated)) }
            d.integer("flags", device.health == .ok ? 1 : 0)
            d.string("health", device.health.name)
            return d.finished
        }
        w.raw("devices", "[" + list.joined(separator: ",") + "]")
        return w.finished
    }

    /// POLL: the newest position, attitude and satellites, each as its own report.
    static func poll(_ report: PollReport) -> String {
        var w = JSONObjectWriter(class: "POLL")
        w.string("time", iso(report.time))
        w.integer("active", report.active ? 1 : 0)
        w.raw("tpv", "[" + tpv(report.position) + "]")
        w.raw("att", "[" + (report.attitude.map(att) ?? "") + "]")
        w.raw("sky", "[" + (report.satellites.map(sky) ?? "") + "]")
        return w.finished
    }

    /// LOG (Lodestone): whether logging, the session, its records, bytes and the estimated use.
    static func log(_ report: LogReport) -> String {
        var w = JSONObjectWriter(class: "LOG")
        w.bool("logging", report.session != nil)
        if let session = report.session {
            w.string("id", session.id)
            w.raw("streams", strings(session.streams))
            if session.interval > 0 { w.number("interval", session.interval, decimals: 3) } else { w.string("interval", "every") }
            w.integer("records", session.records)
            w.integer("bytes", session.bytes)
            w.number("estimatedBytesPerHour", session.estimatedBytesPerHour, decimals: 0)
            if let left = session.secondsLeft { w.number("secondsLeft", left, decimals: 0) }
        }
        if let message = report.message { w.string("message", message) }
        return w.finished
    }

    /// SNAPSHOT (Lodestone): the snapshot just taken, whole.
    static func snapshot(_ s: Snapshot) -> String {
        var w = JSONObjectWriter(class: "SNAPSHOT")
        w.string("id", s.id)
        w.string("name", s.name)
        w.raw("snapshot", SnapshotJSON.object(s))
        return w.finished
    }
}
