import LodestoneCore
import LodestoneDomain

/// One scheduler task's figures: its name, statistics and budget.
public struct TaskLine: Sendable {
    public var name: String
    public var statistics: TaskStatistics
    public var budgetMicroseconds: Double
    public init(name: String, statistics: TaskStatistics, budgetMicroseconds: Double) {
        (self.name, self.statistics, self.budgetMicroseconds) = (name, statistics, budgetMicroseconds)
    }
}

/// The device's health (HEALTH): each sensor, the sampling loop and its tasks, the output
/// thread's tasks, the socket's clients and the storage.
public struct HealthReport: Sendable {
    /// Each sensor's health.
    public var sensors: (imu: SensorHealth, magnetometer: SensorHealth, barometer: SensorHealth, gps: SensorHealth)
    /// GPS sentences dropped whole for a field beyond `GPSLimits`, and the last one's reason.
    public var gpsRejected: Int
    public var gpsRejectedReason: ImpossibleGPSField?
    /// When each sensor's health last changed, UTC on the device's time base (nil: never).
    public var sensorsChanged: (imu: Double?, magnetometer: Double?, barometer: Double?, gps: Double?)
    public var loop: LoopStatistics
    public var tasks: [TaskLine]
    public var outputTasks: [TaskLine]
    public var ringOverflows: Int
    /// States of the sampling side the output side fell too far behind to follow: the report
    /// slots they would have reached are left out (each task's `missed`), never served late.
    public var statesDropped = 0
    public var clients: Int
    public var droppedClients: Int
    /// The adaptive sampling profile and the GPS interval it chose, when adaptive sampling runs.
    public var profile: String?
    public var gpsInterval: Double?
    /// "ok", or why the recording's writes fail (when there is a data directory).
    public var storage: String?
    /// Why each failing sensor fails, in words that say what to do (nil: it works).
    public var sensorProblems = SensorProblemTexts()
    /// The MQTT output, when it runs.
    /// The display's frames in the last second and a frame's drawing time (ms), when one is on.
    public var display: (framesPerSecond: Int, frameMs: Double)?
    public var mqtt: MQTTStatus?
    /// chrony's feed, when it runs: the samples sent, the last offset (s), where it came from
    /// ("pps" or "nmea"), and why sending fails.
    public var chrony: (socket: String, samples: Int, offset: Double, source: String?, problem: String?)?
    /// The weather station's parts (anemometer, vane converter, probes), when the board has them.
    public var station: [DeviceEntry] = []
    public init(
        state: NavigationState, sensorsChanged: (imu: Double?, magnetometer: Double?, barometer: Double?, gps: Double?) = (nil, nil, nil, nil),
        loop: LoopStatistics, tasks: [TaskLine], outputTasks: [TaskLine] = [], ringOverflows: Int, clients: Int,
        droppedClients: Int = 0, profile: String? = nil, gpsInterval: Double? = nil, storage: String? = nil,
        sensorProblems: SensorProblemTexts = SensorProblemTexts()
    ) {
        sensors = (state.imuHealth, state.magnetometerHealth, state.barometerHealth, state.gpsHealth)
        (gpsRejected, gpsRejectedReason) = (state.gpsRejected, state.gpsRejectedReason)
        (self.sensorsChanged, self.loop, self.tasks, self.outputTasks) = (sensorsChanged, loop, tasks, outputTasks)
        (self.ringOverflows, self.clients, self.droppedClients) = (ringOverflows, clients, droppedClients)
        (self.profile, self.gpsInterval, self.storage, self.sensorProblems) = (profile, gpsInterval, storage, sensorProblems)
    }
}

/// The MQTT output in HEALTH: whether the broker is connected, and the outbox's figures.
public struct MQTTStatus: Sendable, Equatable {
    public var broker: String
    public var connected: Bool
    /// QoS 1 messages waiting for the broker's acknowledgement (on disk).
    public var queued: Int
    /// Messages dropped as the oldest from a full outbox, and acknowledged, since the start.
    public var dropped: Int
    public var delivered: Int
    public init(broker: String, connected: Bool, queued: Int, dropped: Int, delivered: Int) {
        (self.broker, self.connected, self.queued, self.dropped, self.delivered) = (broker, connected, queued, dropped, delivered)
    }
}

/// One of the device's sensors as DEVICES lists it.
public struct DeviceEntry: Sendable {
    /// Which of the device's sensors it is (the reports it feeds carry its path).
    public enum Role: Sendable { case imu, magnetometer, barometer, gps, station }
    public var path: String
    public var driver: String
    public var health: SensorHealth
    public var role: Role
    /// Why it fails, when it does.
    public var error: String?
    public init(path: String, driver: String, health: SensorHealth, role: Role, error: String? = nil) {
        (self.path, self.driver, self.health, self.role, self.error) = (path, driver, health, role, error)
    }
}

/// Why each of the device's sensors fails, as a person reads it (nil where it works).
public struct SensorProblemTexts: Sendable, Equatable {
    public var imu: String?
    public var magnetometer: String?
    public var barometer: String?
    public var gps: String?
    public init(imu: String? = nil, magnetometer: String? = nil, barometer: String? = nil, gps: String? = nil) {
        (self.imu, self.magnetometer, self.barometer, self.gps) = (imu, magnetometer, barometer, gps)
    }

    /// Each failing sensor's name and reason, in the order the reports list sensors.
    public var named: [(sensor: String, problem: String)] {
        [("imu", imu), ("magnetometer", magnetometer), ("barometer", barometer), ("gps", gps)].compactMap { name, text in text.map { (name, $0) } }
    }
}

/// The device's sensors (DEVICES), and when the runtime opened them.
public struct DevicesReport: Sendable {
    public var devices: [DeviceEntry]
    public var activated: Double?
    public init(devices: [DeviceEntry], activated: Double?) { (self.devices, self.activated) = (devices, activated) }
}

/// The newest of each (POLL): the position, the attitude and the satellites.
public struct PollReport: Sendable {
    public var time: Double
    public var active: Bool
    public var position: PositionReport
    public var attitude: AttitudeReport?
    public var satellites: SatelliteReport?
    public init(time: Double, active: Bool, position: PositionReport, attitude: AttitudeReport?, satellites: SatelliteReport?) {
        (self.time, self.active, self.position, self.attitude, self.satellites) = (time, active, position, attitude, satellites)
    }
}

/// The settings a running device uses (CONFIG), by the settings table's keys, each value as
/// the configuration file would write it (JSON text): what `lodestone config check` compares a
/// file with.
public struct SettingsReport: Sendable {
    public var settings: [(key: String, json: String)]
    public init(settings: [(key: String, json: String)]) { self.settings = settings }
}
