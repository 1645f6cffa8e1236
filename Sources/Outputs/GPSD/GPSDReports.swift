import LodestoneCore
import LodestoneDomain

/// gpsd JSON reports (protocol 3.x): TPV, ATT, IMU, VERSION, DEVICES, WATCH, ERROR with gpsd's
/// names and units, plus ENV for what gpsd has no class for (pressure, temperature, altitude
/// from the barometer). Each function returns one line without the trailing newline.
public enum GPSDReports {
    public static let protocolMajor = 3
    public static let protocolMinor = 14
    public static let release = "lodestone 0.1.0"

    public static func version() -> String {
        var w = JSONObjectWriter(class: "VERSION")
        w.string("release", release)
        w.string("rev", "0.1.0")
        w.integer("proto_major", protocolMajor)
        w.integer("proto_minor", protocolMinor)
        return w.finished
    }

    /// A position report. `time` is the fix's own UTC; fields the receiver did not give are left out.
    /// Lodestone adds `confidence` (0..100) when the running device has assessed the fix.
    public static func tpv(_ fix: GPSFix, device: String, confidence: Int? = nil) -> String {
        var w = JSONObjectWriter(class: "TPV")
        w.string("device", device)
        w.integer("mode", fix.mode.rawValue)
        if fix.deadReckoning { w.integer("status", 5) }
        if let utc = fix.utc { w.string("time", CivilTime(unixSeconds: utc).iso8601) }
        if fix.mode.rawValue >= 2 {
            w.number("lat", fix.latitude, decimals: 9)
            w.number("lon", fix.longitude, decimals: 9)
        }
        // Like gpsd, an altitude the receiver gave is reported even with a 2D fix.
        if fix.mode.rawValue >= 2 {
            w.number("altHAE", fix.altitudeHAE, decimals: 3)
            w.number("altMSL", fix.altitudeMSL, decimals: 3)
            w.number("alt", fix.altitudeMSL, decimals: 3)
            w.number("geoidSep", fix.geoidSeparation, decimals: 3)
        }
        w.number("track", fix.course, decimals: 4)
        w.number("speed", fix.speed, decimals: 3)
        w.number("eph", fix.eph, decimals: 3)
        w.number("epv", fix.epv, decimals: 3)
        if let confidence { w.integer("confidence", confidence) }
        return w.finished
    }

    /// The satellites in view: gpsd's SKY with `PRN`, `el`, `az` (degrees), `ss` (dB-Hz), `used`.
    public static func sky(_ satellites: [Satellite], fix: GPSFix, device: String) -> String {
        var w = JSONObjectWriter(class: "SKY")
        w.string("device", device)
        w.number("hdop", fix.hdop, decimals: 2)
        w.number("pdop", fix.pdop, decimals: 2)
        w.number("vdop", fix.vdop, decimals: 2)
        w.integer("nSat", satellites.count)
        w.integer("uSat", satellites.filter(\.used).count)
        let list = satellites.map { s -> String in
            var item = JSONObjectWriter()
            item.integer("PRN", s.prn)
            item.number("el", s.elevation, decimals: 1)
            item.number("az", s.azimuth, decimals: 1)
            item.number("ss", s.snr, decimals: 1)
            item.bool("used", s.used)
            return item.finished
        }
        w.raw("satellites", "[" + list.joined(separator: ",") + "]")
        return w.finished
    }

    /// Attitude: heading, pitch and roll in degrees; acceleration in m/s^2, rotation in deg/s,
    /// the magnetic field in microtesla (body frame x forward, y right, z down).
    ///
    /// gpsd's fields: `heading` (true; only once the position is known), `mheading`, `pitch`,
    /// `roll`, `dip` (degrees), `mag_st` (N normal, C calibration needed, O interference).
    /// Lodestone's: `headingAccuracy` (one sigma, degrees), `declination`, `calibration`
    /// (uncalibrated, inProgress, good, poor), `interference`.
    public static func att(_ state: NavigationState, device: String, time: String, calibration: String? = nil,
                           annotations: AttitudeAnnotations = AttitudeAnnotations()) -> String {
        var w = JSONObjectWriter(class: "ATT")
        w.string("device", device)
        w.string("time", time)
        if let attitude = state.attitude {
            if let heading = state.trueHeading { w.number("heading", heading, decimals: 2) }
            w.number("mheading", attitude.magneticHeading, decimals: 2)
            w.number("pitch", attitude.pitch, decimals: 2)
            w.number("roll", attitude.roll, decimals: 2)
            w.number("headingAccuracy", state.headingAccuracy, decimals: 1)
            if let declination = state.declination { w.number("declination", declination, decimals: 2) }
        }
        if state.dip.isFinite { w.number("dip", state.dip, decimals: 2) }
        if state.magnetic != nil {
            let uncalibrated = state.calibrationHeadingError == nil
            w.string("mag_st", state.magneticInterference ? "O" : (uncalibrated ? "C" : "N"))
            w.bool("interference", state.magneticInterference)
        }
        if let calibration { w.string("calibration", calibration) }
        if let bearing = annotations.lockedBearing {
            w.number("bearing", bearing, decimals: 2)
            if let deviation = annotations.deviation { w.number("deviation", deviation, decimals: 2) }
            w.bool("offCourse", annotations.offCourse)
        }
        if let level = annotations.level { w.bool("level", level) }
        appendInertial(&w, state)
        return w.finished
    }

    /// What the output side adds to ATT beyond the sampled state: the bearing lock (`bearing`,
    /// signed `deviation`, positive clockwise of it, `offCourse`) and the bubble level's state.
    public struct AttitudeAnnotations: Sendable {
        public var lockedBearing: Double?
        public var deviation: Double?
        public var offCourse = false
        public var level: Bool?
        public init(lockedBearing: Double? = nil, deviation: Double? = nil, offCourse: Bool = false, level: Bool? = nil) {
            self.lockedBearing = lockedBearing
            self.deviation = deviation
            self.offCourse = offCourse
            self.level = level
        }
    }

    /// The raw inertial and magnetic readings of one sample.
    public static func imu(_ imu: ImuSample, magnetic: MagneticSample?, device: String, time: String) -> String {
        var w = JSONObjectWriter(class: "IMU")
        w.string("device", device)
        w.string("time", time)
        var state = NavigationState()
        state.imu = imu
        state.magnetic = magnetic
        appendInertial(&w, state)
        return w.finished
    }

    static func appendInertial(_ w: inout JSONObjectWriter, _ state: NavigationState) {
        if let imu = state.imu {
            w.number("acc_x", imu.acceleration.x)
            w.number("acc_y", imu.acceleration.y)
            w.number("acc_z", imu.acceleration.z)
            w.number("acc_len", imu.acceleration.length)
            w.number("gyro_x", Angle.degrees(imu.rotationRate.x))
            w.number("gyro_y", Angle.degrees(imu.rotationRate.y))
            w.number("gyro_z", Angle.degrees(imu.rotationRate.z))
            w.number("temp", imu.temperature, decimals: 1)
        }
        if let magnetic = state.magnetic {
            w.number("mag_x", magnetic.field.x)
            w.number("mag_y", magnetic.field.y)
            w.number("mag_z", magnetic.field.z)
            w.number("mag_len", magnetic.field.length)
        }
    }

    /// ENV (a Lodestone class): pressure in hPa, temperature in degrees Celsius, barometric
    /// altitude in metres against `qnh` (hPa).
    /// The barometer's view, once the output side has reduced it: sea-level pressure (hPa),
    /// the altitude fused with GPS (m) and the trend (a JSON object or null).
    public struct Weather: Sendable {
        public var seaLevelPressure: Double
        public var altitudeFused: Double
        public var trend: String
        public init(seaLevelPressure: Double, altitudeFused: Double, trend: String) {
            (self.seaLevelPressure, self.altitudeFused, self.trend) = (seaLevelPressure, altitudeFused, trend)
        }
    }

    public static func env(_ state: NavigationState, device: String, time: String, weather: Weather? = nil) -> String {
        var w = JSONObjectWriter(class: "ENV")
        w.string("device", device)
        w.string("time", time)
        if let pressure = state.pressure {
            w.number("pressure", pressure.pressure / 100, decimals: 2)
            w.number("temp", pressure.temperature, decimals: 2)
            if let humidity = pressure.humidity { w.number("humidity", humidity, decimals: 1) }
        }
        w.number("altBaro", state.barometricAltitude, decimals: 2)
        w.number("qnh", state.seaLevelPressure / 100, decimals: 2)
        if let weather {
            w.number("seaLevelPressure", weather.seaLevelPressure, decimals: 2)
            w.number("altFused", weather.altitudeFused, decimals: 2)
            w.raw("trend", weather.trend)
        }
        return w.finished
    }

    public struct Device: Sendable {
        /// Which of the device's sensors it is (the reports it feeds carry its path).
        public enum Role: Sendable { case imu, magnetometer, barometer, gps }
        public var path: String
        public var driver: String
        public var health: SensorHealth
        public var role: Role
        public init(path: String, driver: String, health: SensorHealth, role: Role) {
            self.path = path
            self.driver = driver
            self.health = health
            self.role = role
        }
    }

    /// DEVICES; `activated` is when the runtime opened them (ISO-8601), as gpsd reports it.
    public static func devices(_ devices: [Device], activated: String? = nil) -> String {
        var w = JSONObjectWriter(class: "DEVICES")
        let list = devices.map { device -> String in
            var d = JSONObjectWriter(class: "DEVICE")
            d.string("path", device.path)
            d.string("driver", device.driver)
            if let activated { d.string("activated", activated) }
            d.integer("flags", device.health == .ok ? 1 : 0)
            d.string("health", device.health.name)
            return d.finished
        }
        w.raw("devices", "[" + list.joined(separator: ",") + "]")
        return w.finished
    }

    /// The options in force, as gpsd answers ?WATCH (with Lodestone's `rates` when set).
    public static func watch(_ options: WatchOptions) -> String {
        var w = JSONObjectWriter(class: "WATCH")
        w.bool("enable", options.enabled)
        w.bool("json", options.json)
        w.bool("nmea", options.nmea)
        w.integer("raw", options.raw)
        w.bool("scaled", options.scaled)
        w.bool("timing", options.timing)
        w.bool("split24", options.split24)
        w.bool("pps", options.pps)
        if let device = options.device { w.string("device", device) }
        if !options.rates.isEmpty {
            w.raw("rates", "{" + options.rates.keys.sorted().map { JSONObjectWriter.quoted($0) + ":" + JSONObjectWriter.format(options.rates[$0] ?? 0, decimals: 3) }.joined(separator: ",") + "}")
        }
        return w.finished
    }

    /// EVENT (Lodestone): something a person did on the device, e.g. pressed a button.
    public static func event(_ kind: String, fields: [(String, String)], time: String) -> String {
        var w = JSONObjectWriter(class: "EVENT")
        w.string("event", kind)
        for (name, value) in fields { w.string(name, value) }
        w.string("time", time)
        return w.finished
    }

    public static func error(_ message: String) -> String {
        var w = JSONObjectWriter(class: "ERROR")
        w.string("message", message)
        return w.finished
    }
}

extension GPSDReports {
    /// HEALTH (a Lodestone class): sensor health, the sampling loop and each scheduler task.
    /// Times in microseconds, rates in Hz.
    /// `profile` is the adaptive sampling profile (e.g. "still", "walking/lowPower") and
    /// `gpsInterval` the GPS fix interval it chose, when adaptive sampling runs.
    public static func health(_ state: NavigationState, loop: LoopStatistics, tasks: [SchedulerTable.TaskLine],
                              ringOverflows: Int, clients: Int, droppedClients: Int = 0, profile: String? = nil, gpsInterval: Double? = nil,
                              storage: String? = nil, changedAt: ((MonotonicNanoseconds) -> String)? = nil) -> String {
        var w = JSONObjectWriter(class: "HEALTH")
        var sensors = JSONObjectWriter()
        sensors.string("imu", state.imuHealth.name)
        sensors.string("magnetometer", state.magnetometerHealth.name)
        sensors.string("barometer", state.barometerHealth.name)
        sensors.string("gps", state.gpsHealth.name)
        w.raw("sensors", sensors.finished)
        // When each sensor's health last changed (the device's clock), for sensors whose
        // health has changed: a client asking now and then still learns when a chip went quiet.
        if let changedAt {
            var changed = JSONObjectWriter()
            let times = state.healthChanged
            for (role, time) in [("imu", times.imu), ("magnetometer", times.magnetometer), ("barometer", times.barometer),
                                 ("gps", times.gps)] where time != 0 {
                changed.string(role, changedAt(time))
            }
            w.raw("sensorsChanged", changed.finished)
        }
        // "ok", or why the recording's writes fail (when there is a data directory).
        if let storage { w.string("storage", storage) }
        var l = JSONObjectWriter()
        l.number("rateHz", loop.rateHz, decimals: 1)
        l.integer("ticks", Int(loop.ticks))
        l.integer("overruns", Int(loop.overruns))
        l.integer("droppedTicks", Int(loop.droppedTicks))
        l.number("latenessP50us", loop.latenessP50Microseconds, decimals: 1)
        l.number("latenessP99us", loop.latenessP99Microseconds, decimals: 1)
        l.number("latenessMaxus", loop.latenessMaxMicroseconds, decimals: 1)
        w.raw("loop", l.finished)
        let list = tasks.map { task -> String in
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
        }
        w.raw("tasks", "[" + list.joined(separator: ",") + "]")
        w.integer("ringOverflows", ringOverflows)
        w.integer("clients", clients)
        // Clients dropped for not reading their backlog.
        w.integer("droppedClients", droppedClients)
        if let profile { w.string("profile", profile) }
        if let gpsInterval { w.number("gpsInterval", gpsInterval, decimals: 1) }
        return w.finished
    }
}
