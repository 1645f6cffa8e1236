import LodestoneCore
import LodestoneReports
import Testing

@testable import LodestoneRuntime

/// A sampled kind's time only moves forward per device, whether the report is asked its kind,
/// device and time or the caller says them (the IMU's way).
@Suite struct ForwardTimesTests {
    static func imu(_ time: Double, device: String) -> Report {
        let sample = ImuSample(time: 0, acceleration: Vector3(0, 0, 9.8), rotationRate: Vector3(0, 0, 0), temperature: 20)
        return .inertial(InertialReport(imu: sample, magnetic: nil, device: device, time: time))
    }

    @Test func eachDevicesTimeMovesForwardByEitherWay() {
        var asked = ForwardTimes(), told = ForwardTimes()
        let steps: [(Double, String)] = [(10, "/dev/i2c-1"), (10, "/dev/i2c-1"), (9.99, "/dev/i2c-1"), (10, "/dev/i2c-3"), (10.01, "/dev/i2c-1")]
        var admitted: [(Bool, Bool)] = []
        for (time, device) in steps {
            let report = Self.imu(time, device: device)
            #expect(report.sample?.kind == .inertial && report.sample?.device == device && report.sample?.time == time)
            admitted.append((asked.admits(report), told.admits(.inertial, device: device, time: time)))
        }
        #expect(admitted.map(\.0) == [true, false, false, true, true])
        #expect(admitted.map(\.1) == admitted.map(\.0))
        // A report of no sampled kind always goes.
        let event = asked.admits(.event(EventReport(.level(true), time: 5)))
        #expect(event)
    }
}
