import LodestoneCore
import LodestoneDomain
import LodestoneReports
import LodestoneEncoding

extension GPSDReports {
    /// HEALTH (Lodestone): sensor health, the sampling loop, each task of both task tables.
    /// Times in microseconds, rates in Hz.
    public static func health(_ report: HealthReport, into w: inout JSONBuffer) {
        let sensors = report.sensors
        w.beginReport("HEALTH")
        w.beginObject("sensors")
        w.string("imu", sensors.imu.name)
        w.string("magnetometer", sensors.magnetometer.name)
        w.string("barometer", sensors.barometer.name)
        w.string("gps", sensors.gps.name)
        w.endObject()
        // Why a failing sensor fails, for each that does (Lodestone).
        let problems = report.sensorProblems.named
        if !problems.isEmpty {
            w.beginObject("sensorErrors")
            for (sensor, problem) in problems { w.key(sensor); w.value(string: problem) }
            w.endObject()
        }
        // When each sensor's health last changed, for sensors whose health has changed: a
        // client asking now and then still learns when a chip went quiet.
        let times = report.sensorsChanged
        w.beginObject("sensorsChanged")
        if let time = times.imu { w.time("imu", time) }
        if let time = times.magnetometer { w.time("magnetometer", time) }
        if let time = times.barometer { w.time("barometer", time) }
        if let time = times.gps { w.time("gps", time) }
        w.endObject()
        // GPS sentences dropped whole for a field no receiver can report (Lodestone).
        if sensors.gps != .absent {
            w.beginObject("gps")
            w.integer("rejected", report.gpsRejected)
            if let reason = report.gpsRejectedReason { w.string("rejectedReason", reason.description) }
            w.endObject()
        }
        if let storage = report.storage { w.string("storage", storage) }
        // The station's parts here, not in DEVICES: gpsd's client library takes at most four
        // devices there and refuses the whole report beyond them.
        if !report.station.isEmpty {
            w.beginArray("station")
            for part in report.station {
                w.beginObject()
                w.string("path", part.path)
                w.string("driver", part.driver)
                w.string("health", part.health.name)
                w.string("error", part.error)
                w.endObject()
            }
            w.endArray()
        }
        if let display = report.display {
            w.beginObject("display")
            w.integer("framesPerSecond", display.framesPerSecond)
            w.number("frameMs", display.frameMs, decimals: 2)
            w.endObject()
        }
        if let mqtt = report.mqtt {
            w.beginObject("mqtt")
            w.string("broker", mqtt.broker)
            w.bool("connected", mqtt.connected)
            w.integer("queued", mqtt.queued)
            w.integer("dropped", mqtt.dropped)
            w.integer("delivered", mqtt.delivered)
            w.endObject()
        }
        if let chrony = report.chrony {
            w.beginObject("chrony")
            w.string("socket", chrony.socket)
            w.integer("samples", chrony.samples)
            w.number("offset", chrony.offset, decimals: 6)
            if let source = chrony.source { w.string("source", source) }
            if let problem = chrony.problem { w.string("error", problem) }
            w.endObject()
        }
        let loop = report.loop
        w.beginObject("loop")
        w.number("rateHz", loop.rateHz, decimals: 1)
        w.integer("ticks", Int(clamping: loop.ticks))
        w.integer("overruns", Int(clamping: loop.overruns))
        w.integer("droppedTicks", Int(clamping: loop.droppedTicks))
        w.number("latenessP50us", loop.latenessP50Microseconds, decimals: 1)
        w.number("latenessP99us", loop.latenessP99Microseconds, decimals: 1)
        w.number("latenessMaxus", loop.latenessMaxMicroseconds, decimals: 1)
        w.endObject()
        w.beginArray("tasks")
        tasks(report.tasks, into: &w)
        w.endArray()
        w.beginArray("outputTasks")
        tasks(report.outputTasks, into: &w)
        w.endArray()
        w.integer("ringOverflows", report.ringOverflows)
        w.integer("statesDropped", report.statesDropped)
        w.integer("clients", report.clients)
        // Clients dropped for not reading their backlog.
        w.integer("droppedClients", report.droppedClients)
        if let profile = report.profile { w.string("profile", profile) }
        if let gpsInterval = report.gpsInterval { w.number("gpsInterval", gpsInterval, decimals: 1) }
        w.endObject()
    }

    static func tasks(_ lines: [TaskLine], into t: inout JSONBuffer) {
        for task in lines {
            t.beginObject()
            let s = task.statistics
            t.string("name", task.name)
            t.number("rateHz", s.rateHz, decimals: 2)
            t.number("budgetus", task.budgetMicroseconds, decimals: 1)
            t.integer("runs", Int(clamping: s.runs))
            t.number("meanus", s.meanExecutionMicroseconds, decimals: 2)
            t.number("maxus", s.maxExecutionMicroseconds, decimals: 2)
            t.integer("overruns", Int(clamping: s.overruns))
            t.integer("slips", Int(clamping: s.slips))
            t.integer("skips", Int(clamping: s.skips))
            t.integer("missed", Int(clamping: s.missed))
            t.endObject()
        }
    }

    /// DEVICES; `activated` is when the runtime opened them, as gpsd reports it.
    public static func devices(_ report: DevicesReport, into w: inout JSONBuffer) {
        w.beginReport("DEVICES")
        w.beginArray("devices")
        for device in report.devices {
            w.beginReport("DEVICE")
            w.string("path", device.path)
            w.string("driver", device.driver)
            if let activated = report.activated { w.time("activated", activated) }
            w.integer("flags", device.health == .ok ? 1 : 0)
            w.string("health", device.health.name)
            w.string("error", device.error)
            w.endObject()
        }
        w.endArray()
        w.endObject()
    }

    /// POLL: the newest position, attitude and satellites, each as its own report.
    static func poll(_ report: PollReport, into w: inout JSONBuffer) {
        w.beginReport("POLL")
        w.time("time", report.time)
        w.integer("active", report.active ? 1 : 0)
        w.beginArray("tpv")
        tpv(report.position, into: &w)
        w.endArray()
        w.beginArray("att")
        if let attitude = report.attitude { att(attitude, into: &w) }
        w.endArray()
        w.beginArray("sky")
        if let satellites = report.satellites { sky(satellites, into: &w) }
        w.endArray()
        w.endObject()
    }

    /// LOG (Lodestone): whether logging, the session, its records, bytes and the estimated use.
    static func log(_ report: LogReport, into w: inout JSONBuffer) {
        w.beginReport("LOG")
        w.bool("logging", report.session != nil)
        if let session = report.session {
            w.string("id", session.id)
            strings("streams", session.streams, into: &w)
            if session.interval > 0 { w.number("interval", session.interval, decimals: 3) } else { w.string("interval", "every") }
            w.integer("records", session.records)
            w.integer("bytes", session.bytes)
            w.number("estimatedBytesPerHour", session.estimatedBytesPerHour, decimals: 0)
            if let left = session.secondsLeft { w.number("secondsLeft", left, decimals: 0) }
        }
        if let message = report.message { w.string("message", message) }
        w.endObject()
    }

    /// SNAPSHOT (Lodestone): the snapshot just taken, whole.
    static func snapshot(_ s: Snapshot, into w: inout JSONBuffer) {
        w.beginReport("SNAPSHOT")
        w.string("id", s.id)
        w.string("name", s.name)
        w.raw("snapshot", SnapshotJSON.object(s))
        w.endObject()
    }

    /// DEPARTURES (Lodestone): the stop and its next departures, times in the stop's zone.
    static func departures(_ r: DeparturesReport, into w: inout JSONBuffer) {
        w.beginReport("DEPARTURES")
        w.beginObject("stop")
        w.string("id", r.stopID)
        w.string("name", r.stopName)
        if let distance = r.distance { w.number("distance", distance, decimals: 0) }
        if let bearing = r.bearing { w.number("bearing", bearing, decimals: 0) }
        w.endObject()
        w.beginArray("departures")
        for d in r.departures {
            w.beginObject()
            w.localTime("time", d.time, zone: r.zone)
            w.string("route", d.route)
            w.string("headsign", d.headsign)
            w.string("trip", d.trip)
            w.integer("minutes", d.minutes)
            if let next = d.next { w.string("next", next) }
            if let light = d.light { w.string("light", light) }
            if let f = d.forecast { forecast(f, into: &w) } else { w.null("forecast") }
            if let mark = d.mark {
                w.beginObject("mark")
                w.string("label", mark.label)
                w.integer("rating", mark.rating)
                w.endObject()
            }
            w.endObject()
        }
        w.endArray()
        if let message = r.message { w.string("message", message) }
        w.endObject()
    }

    /// REMINDERS (Lodestone): the departure reminders set, times in their stop's zone.
    static func reminders(_ r: RemindersReport, into w: inout JSONBuffer) {
        w.beginReport("REMINDERS")
        w.beginArray("reminders")
        for reminder in r.reminders {
            w.beginObject()
            w.string("id", reminder.id)
            w.beginObject("stop")
            w.string("id", reminder.stopID)
            w.string("name", reminder.stopName)
            w.endObject()
            w.string("route", reminder.route)
            w.string("headsign", reminder.headsign)
            w.string("trip", reminder.trip)
            w.localTime("departure", reminder.departure, zone: reminder.zone)
            w.localTime("at", reminder.at, zone: reminder.zone)
            w.endObject()
        }
        w.endArray()
        if let message = r.message { w.string("message", message) }
        w.endObject()
    }
}
