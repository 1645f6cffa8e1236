import LodestoneCore
import LodestoneDomain
import LodestoneOutputs
import LodestoneReports
import Testing
@testable import LodestoneEncoding

/// HEALTH says when each sensor's health last changed, on the device's clock, so a client that
/// asks now and then still learns when a chip went quiet.
@Suite struct HealthReportTests {
    @Test func aChangeIsStampedWhenItIsFirstPublished() {
        var state = NavigationState()
        var changes = SensorHealthChanges()
        var before: SensorHealthChanges.Healths = (.absent, .absent, .absent, .absent)
        (state.imuHealth, state.magnetometerHealth, state.barometerHealth, state.gpsHealth) = (.ok, .ok, .ok, .absent)
        before = changes.note(state, since: before, at: 1_000)
        #expect(changes.imu == 1_000 && changes.magnetometer == 1_000 && changes.barometer == 1_000 && changes.gps == 0)
        state.magnetometerHealth = .degraded
        before = changes.note(state, since: before, at: 5_000)
        before = changes.note(state, since: before, at: 6_000)
        #expect(changes.magnetometer == 5_000, "stamped once, when it changed, not each time it is published")
        #expect(changes.imu == 1_000)
    }

    @Test func theReportNamesOnlySensorsThatChanged() throws {
        var state = NavigationState()
        state.magnetometerHealth = .degraded
        let line = GPSDReports.health(
            HealthReport(
                state: state, sensorsChanged: (nil, 1_782_028_800.5, nil, nil), loop: LoopStatistics(),
                tasks: [], outputTasks: [TaskLine(name: "sky", statistics: TaskStatistics(), budgetMicroseconds: 5000)],
                ringOverflows: 0, clients: 0))
        let report = try JSONValue.parse(line)
        #expect(report["sensors"]?["magnetometer"]?.stringValue == "degraded")
        #expect(report["sensorsChanged"]?["magnetometer"]?.stringValue == "2026-06-21T08:00:00.500Z")
        #expect(report["outputTasks"]?.arrayValue?.first?["budgetus"]?.numberValue == 5000)
        #expect(report["sensorsChanged"]?["imu"] == nil)
        #expect(report["sensorErrors"] == nil, "no sensor fails")
    }

    /// A failing sensor's reason is in HEALTH (`sensorErrors`) and in its DEVICE (`error`).
    @Test func whyASensorFailsIsInHealthAndDevices() throws {
        var state = NavigationState()
        state.barometerHealth = .degraded
        let reason = "I2C address 0x76 is owned by a kernel driver: unbind it or remove the device-tree overlay"
        var health = HealthReport(state: state, loop: LoopStatistics(), tasks: [], ringOverflows: 0, clients: 0)
        health.sensorProblems = SensorProblemTexts(barometer: reason)
        let report = try JSONValue.parse(GPSDReports.health(health))
        #expect(report["sensorErrors"]?["barometer"]?.stringValue == reason)
        #expect(report["sensorErrors"]?["imu"] == nil)
        let devices = DevicesReport(
            devices: [
                DeviceEntry(path: "/dev/i2c-1@0x76", driver: "BMP280", health: .degraded, role: .barometer, error: reason),
                DeviceEntry(path: "/dev/i2c-1@0x68", driver: "MPU6050", health: .ok, role: .imu)
            ], activated: nil)
        let listed = try JSONValue.parse(GPSDReports.line(.devices(devices)))["devices"]?.arrayValue ?? []
        #expect(listed.count == 2)
        #expect(listed.first?["error"]?.stringValue == reason && listed.first?["health"]?.stringValue == "degraded")
        #expect(listed.last?["error"] == nil)
    }
}
