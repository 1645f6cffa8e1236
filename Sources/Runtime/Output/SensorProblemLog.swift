import LodestoneCore
import LodestoneDevices
import LodestoneReports
import LodestoneSampling

extension OutputLoop {
    /// Why each failing chip fails, in words, from the sampling thread (which owns the chips).
    /// The GPS port says its own reason in the log when it is reopened.
    var sensorProblems: SensorProblemTexts {
        let problems = outputs.problems
        func text(_ sensor: SensorProblems.Sensor) -> String? { problems.problem(sensor).map(\.description) }
        return SensorProblemTexts(imu: text(.imu), magnetometer: text(.magnetometer), barometer: text(.barometer))
    }

    /// Says each chip's problem in the log once when it appears or changes, and once when
    /// the chip works again. Compares the errors themselves: nothing is built unless said.
    func logSensorProblems() {
        let problems = outputs.problems
        let now = (problems.problem(.imu), problems.problem(.magnetometer), problems.problem(.barometer))
        say("IMU", loggedProblems.0, now.0)
        say("magnetometer", loggedProblems.1, now.1)
        say("barometer", loggedProblems.2, now.2)
        loggedProblems = now
    }

    private func say(_ name: String, _ before: DeviceError?, _ after: DeviceError?) {
        guard before != after else { return }
        if let after {
            Log.warning("\(name): \(after.description); retrying")
        } else {
            Log.info("\(name) is working again")
        }
    }
}
