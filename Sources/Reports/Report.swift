import LodestoneCore
import LodestoneDomain

/// One thing the device tells its clients, as values. Services make reports, stamped with the
/// time of the samples they come from; only the output adapters (gpsd JSON, NMEA 0183, the
/// display, the logs) turn them into a wire format, and the socket routes them by `kind`.
public enum Report: Sendable {
    case position(PositionReport)
    case satellites(SatelliteReport)
    case attitude(AttitudeReport)
    case inertial(InertialReport)
    case environment(EnvironmentReport)
    case barometer(BarometerReport)
    case motion(MotionReport)
    case event(EventReport)
    case sun(SunReport)
    case track(TrackReport)
    case waypoint(WaypointReport)
    case alertRules(AlertRulesReport)
    case log(LogReport)
    // The reports sent only when asked for (a snapshot, departures, HEALTH, POLL) are the
    // largest, and boxed: a report is copied several times on its way out, and every report
    // was as large as a POLL; what is sent many times a second (IMU, ATT, TPV) now copies
    // little more than itself.
    indirect case snapshot(Snapshot)
    indirect case departures(DeparturesReport)
    case reminders(RemindersReport)
    case waves(WavesReport)
    indirect case health(HealthReport)
    case devices(DevicesReport)
    indirect case poll(PollReport)
    case settings(SettingsReport)
    case pairing(PairingReport)
    case photo(PhotoReport)
    /// A request that could not be done, and what to do instead.
    case error(String)

    public var kind: ReportKind {
        switch self {
        case .position: return .position
        case .satellites: return .satellites
        case .attitude: return .attitude
        case .inertial: return .inertial
        case .environment: return .environment
        case .barometer: return .barometer
        case .motion: return .motion
        case .event: return .event
        case .sun: return .sun
        case .track: return .track
        case .waypoint: return .waypoint
        case .alertRules: return .alertRules
        case .log: return .log
        case .snapshot: return .snapshot
        case .departures: return .departures
        case .reminders: return .reminders
        case .waves: return .waves
        case .health: return .health
        case .devices: return .devices
        case .poll: return .poll
        case .settings: return .settings
        case .pairing: return .pairing
        case .photo: return .photo
        case .error: return .error
        }
    }

    /// For a report of a sampled kind (TPV, ATT, IMU, ENV): its kind, its device and the time
    /// of the samples it describes (each kind's time only moves forward per device); nil for
    /// the rest and for a fix without a time. One switch: every report passes through it.
    public var sample: (kind: ReportKind, device: String, time: Double)? {
        switch self {
        case .position(let r): return r.fix.utc.map { (.position, r.device, $0) }
        case .attitude(let r): return (.attitude, r.device, r.time)
        case .inertial(let r): return (.inertial, r.device, r.time)
        case .environment(let r): return (.environment, r.device, r.time)
        default: return nil
        }
    }

    /// The device (a path from DEVICES) the report's readings come from, when it has one.
    public var device: String? {
        switch self {
        case .position(let r): return r.device
        case .satellites(let r): return r.device
        case .attitude(let r): return r.device
        case .inertial(let r): return r.device
        case .environment(let r): return r.device
        default: return nil
        }
    }
}

/// A report's kind, by its class name on the socket (gpsd's names where gpsd has the class).
/// Clients name kinds in `?WATCH` rates.
public enum ReportKind: String, Sendable, CaseIterable {
    case position = "TPV", satellites = "SKY", attitude = "ATT", inertial = "IMU", environment = "ENV"
    case barometer = "BARO", motion = "MOTION", event = "EVENT", sun = "SUN", track = "TRACK", waypoint = "WAYPOINT"
    case alertRules = "ALERT", log = "LOG", snapshot = "SNAPSHOT", health = "HEALTH", devices = "DEVICES", poll = "POLL"
    case departures = "DEPARTURES", reminders = "REMINDERS", waves = "WAVES", settings = "CONFIG", pairing = "PAIRING", photo = "PHOTO"
    case error = "ERROR"
}
