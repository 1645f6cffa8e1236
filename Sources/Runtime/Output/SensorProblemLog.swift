import LodestoneCore
import LodestoneDevices
import LodestoneReports
import LodestoneSampling

/// Says in the log when a chip starts failing (and why) and when it works again: once per
/// change, not once per failed read.
struct SensorProblemLog {
    /// The chips' problems last said (IMU, magnetometer, barometer).
    private var said: (DeviceError?, DeviceError?, DeviceError?) = (nil, nil, nil)
    /// The problems' change count when they were last read.
    private var seen: UInt64 = 0

    mutating func update(_ problems: SensorProblems) {
        let changes = problems.changeCount
        guard changes != seen else { return }
        seen = changes
        let now = (problems.problem(.imu), problems.problem(.magnetometer), problems.problem(.barometer))
        Self.say("IMU", said.0, now.0)
        Self.say("magnetometer", said.1, now.1)
        Self.say("barometer", said.2, now.2)
        said = now
    }

    /// Why each failing sensor fails, as STATUS and the display say it.
    static func texts(_ problems: SensorProblems) -> SensorProblemTexts {
        func text(_ sensor: SensorProblems.Sensor) -> String? { problems.problem(sensor).map(\.description) }
        return SensorProblemTexts(imu: text(.imu), magnetometer: text(.magnetometer), barometer: text(.barometer))
    }

    private static func say(_ name: String, _ before: DeviceError?, _ after: DeviceError?) {
        guard before != after else { return }
        if let after {
            Log.warning("\(name): \(after.description); retrying")
        } else {
            Log.info("\(name) is working again")
        }
    }
}
