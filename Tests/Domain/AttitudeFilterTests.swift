import Glibc
import LodestoneCore
import LodestoneDomain
import Testing

/// The attitude filter against recorded data: a real IMU and magnetometer at 100 Hz, with
/// reference roll, pitch and yaw (../shared/data). Also its behaviour on synthetic motion.
@Suite struct AttitudeFilterTests {
    static let dataDirectory: String = {
        var path = #filePath
        for _ in 0..<4 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
        return path + "/shared/data/"
    }()

    /// Rows of numbers from a CSV file with one header line; nil when the file is absent.
    static func rows(_ name: String) -> [[Double]]? {
        let fd = open(dataDirectory + name, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            bytes += chunk[0..<n]
        }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").dropFirst().map { line in
            line.split(separator: ",").compactMap { Double($0.trimmingCharacters()) }
        }
    }

    struct Errors { var roll = 0.0, pitch = 0.0, yaw = 0.0, rmsRoll = 0.0, rmsPitch = 0.0, rmsYaw = 0.0 }

    /// Runs the recorded data through the filter; the largest differences from the reference
    /// after the first `settle` seconds.
    static func replay(settle: Double = 5) -> Errors? {
        guard let sensor = rows("fusion_sensor_data.csv"), let reference = rows("fusion_reference_euler.csv") else { return nil }
        // The reference is Fusion with its own settings, which have no rest rule, no
        // integral of the corrections and no set-off hold.
        var settings = AttitudeFilter.Settings()
        settings.restGain = 0
        settings.integralGain = 0
        settings.setOffHold = 0
        var filter = AttitudeFilter(settings: settings)
        var bias = GyroBiasEstimator()
        var errors = Errors()
        var count = 0.0
        var previous = sensor.first?.first ?? 0
        for (row, expected) in zip(sensor, reference) where row.count >= 10 && expected.count >= 4 {
            // The recording's axes are x forward, y left, z up (gyro deg/s, accel g, field uT);
            // the filter's are x forward, y right, z down.
            let degree = Double.pi / 180
            let gyro = Vector3(row[1], -row[2], -row[3]) * degree
            let force = Vector3(row[4], -row[5], -row[6]) * 9.80665
            let field = Vector3(row[7], -row[8], -row[9])
            let interval = row[0] - previous
            previous = row[0]
            let rate = bias.update(gyro, interval: interval > 0 ? interval : 0.01)
            filter.update(rotationRate: rate, specificForce: force, field: field, interval: interval > 0 ? interval : 0.01)
            guard row[0] >= settle else { continue }
            // The reference is in a north-west-up frame: roll agrees, pitch and yaw change sign.
            let dr = abs(Angle.signed(filter.roll - expected[1]))
            let dp = abs(Angle.signed(filter.pitch + expected[2]))
            let dy = abs(Angle.signed(filter.heading + expected[3]))
            errors.roll = max(errors.roll, dr)
            errors.pitch = max(errors.pitch, dp)
            errors.yaw = max(errors.yaw, dy)
            errors.rmsRoll += dr * dr
            errors.rmsPitch += dp * dp
            errors.rmsYaw += dy * dy
            count += 1
        }
        errors.rmsRoll = (errors.rmsRoll / count).squareRoot()
        errors.rmsPitch = (errors.rmsPitch / count).squareRoot()
        errors.rmsYaw = (errors.rmsYaw / count).squareRoot()
        return errors
    }

    @Test func followsTheReferenceOnRecordedData() throws {
        guard let errors = Self.replay() else {
            print("skipped: ../shared/data/fusion_sensor_data.csv is not present")
            return
        }
        print(
            "attitude vs reference after 5 s: max roll \(errors.roll), pitch \(errors.pitch), yaw \(errors.yaw) degrees; RMS \(errors.rmsRoll), \(errors.rmsPitch), \(errors.rmsYaw)"
        )
        // The brief asks for 2 degrees and aims for 1; the recording includes a magnet held
        // near the sensor for 15 s, which the filter first rejects and then believes.
        // Yaw: the rejection's recovery is counted in seconds here (so it holds at any IMU rate)
        // and in readings by the reference; on this recording's uneven stamps the two differ
        // by up to 1.2 deg in yaw at their worst instant, and the RMS (0.18 deg) bounds the rest.
        #expect(errors.roll < 1 && errors.pitch < 1 && errors.yaw < 1.5)
        #expect(errors.rmsRoll < 0.2 && errors.rmsPitch < 0.2 && errors.rmsYaw < 0.3)
    }

    /// The recording is a sensor turned by hand through rolls and pitches of up to 60 degrees
    /// and a magnet brought near, never turned face down: no flip may be reported, and the
    /// step counter must count nothing (it was never walked).
    @Test func recordedHandlingIsNeitherAFlipNorSteps() throws {
        guard let sensor = Self.rows("fusion_sensor_data.csv") else {
            print("skipped: ../shared/data/fusion_sensor_data.csv is not present")
            return
        }
        var flip = FlipDetector()
        var steps = StepCounter()
        var flips = 0
        var previous = sensor.first?.first ?? 0
        for row in sensor where row.count >= 10 {
            let force = Vector3(row[4], -row[5], -row[6]) * 9.80665
            let gyro = Vector3(row[1], -row[2], -row[3]) * (Double.pi / 180)
            let interval = row[0] - previous
            previous = row[0]
            guard interval > 0 else { continue }
            if flip.update(specificForce: force, rotationRate: gyro, interval: interval) != nil { flips += 1 }
            _ = steps.update(specificForce: force, interval: interval)
        }
        #expect(flips == 0)
        #expect(steps.steps == 0)
    }

    // MARK: Synthetic motion

    /// Sensor readings for a body held still in the orientation `q`, in a field with 65
    /// degrees of dip.
    static func still(_ q: Quaternion) -> (force: Vector3, field: Vector3) {
        let field = Vector3(20, 0, 43)  // north, east, down, microtesla
        return (q.rotateInverse(Vector3(0, 0, -9.80665)), q.rotateInverse(field))
    }

    /// A boat rolling from the moment it casts off never gives the gyro bias estimator a still
    /// moment: the bias left in the rate must be integrated out of the corrections, or it
    /// stands as a steady tilt of bias / gain.
    static func rollingLevelError(integralGain: Double) -> Double {
        var settings = AttitudeFilter.Settings()
        settings.integralGain = integralGain
        var filter = AttitudeFilter(settings: settings)
        let bias = Vector3(0.01, -0.008, 0.005)  // about half a degree per second
        var worst = 0.0
        for step in 0..<30_000 {
            let t = Double(step) / 100
            let roll = Angle.radians(12 + 6 * sin(2 * Double.pi * t / 6))
            let rollRate = Angle.radians(6 * 2 * Double.pi / 6 * cos(2 * Double.pi * t / 6))
            let reading = Self.still(Quaternion(roll: roll, pitch: 0, yaw: 0))
            filter.update(rotationRate: Vector3(rollRate, 0, 0) + bias, specificForce: reading.force, field: reading.field, interval: 0.01)
            if t >= 240 { worst = max(worst, abs(Angle.signed(filter.roll - Angle.degrees(roll))), abs(filter.pitch)) }
        }
        return worst
    }

    @Test func aBiasNeverSeenStillIsIntegratedOut() {
        let integrated = Self.rollingLevelError(integralGain: AttitudeFilter.Settings().integralGain)
        let proportionalOnly = Self.rollingLevelError(integralGain: 0)
        print("rolling with 0.6 deg/s of gyro bias: worst level error \(integrated) deg integrated, \(proportionalOnly) deg without")
        #expect(integrated < 0.3)
        #expect(proportionalOnly > 0.5, "the case must be one the integral is needed for")
    }

    @Test func settlesOnAnyStartingOrientationWithinSeconds() {
        for (roll, pitch, heading) in [(0.0, 0.0, 123.0), (25.0, -15.0, 300.0), (-40.0, 30.0, 45.0), (170.0, 10.0, 200.0)] {
            let truth = Quaternion(roll: Angle.radians(roll), pitch: Angle.radians(pitch), yaw: Angle.radians(heading))
            let reading = Self.still(truth)
            var filter = AttitudeFilter()
            for _ in 0..<400 { filter.update(rotationRate: .zero, specificForce: reading.force, field: reading.field, interval: 0.01) }
            #expect(abs(Angle.signed(filter.roll - roll)) < 0.5, "roll \(filter.roll) for \(roll)")
            #expect(abs(filter.pitch - pitch) < 0.5, "pitch \(filter.pitch) for \(pitch)")
            #expect(abs(Angle.signed(filter.heading - heading)) < 0.5, "heading \(filter.heading) for \(heading)")
        }
    }

    @Test func aTurnIsFollowedOnTheGyroAndHeadingWrapsCleanly() {
        var filter = AttitudeFilter()
        let start = Self.still(Quaternion(roll: 0, pitch: 0, yaw: Angle.radians(350)))
        for _ in 0..<500 { filter.update(rotationRate: .zero, specificForce: start.force, field: start.field, interval: 0.01) }
        // Turn right through north at 30 degrees a second for 1 s, the references agreeing.
        var yaw = 350.0
        for _ in 0..<100 {
            yaw += 0.3
            let reading = Self.still(Quaternion(roll: 0, pitch: 0, yaw: Angle.radians(yaw)))
            filter.update(rotationRate: Vector3(0, 0, Angle.radians(30)), specificForce: reading.force, field: reading.field, interval: 0.01)
        }
        #expect(abs(Angle.signed(filter.heading - 20)) < 0.5, "heading \(filter.heading)")
    }

    @Test func footstepsAndAMagnetDoNotMoveTheAttitude() {
        var filter = AttitudeFilter()
        let truth = Self.still(Quaternion(roll: 0, pitch: 0, yaw: Angle.radians(90)))
        for _ in 0..<600 { filter.update(rotationRate: .zero, specificForce: truth.force, field: truth.field, interval: 0.01) }
        // Two seconds of sharp sideways jolts (a stumble) and a magnet that swings the field by 60 degrees.
        let magnet = Quaternion(roll: 0, pitch: 0, yaw: Angle.radians(60)).rotate(truth.field)
        for step in 0..<200 {
            let jolt = Vector3(step % 20 < 10 ? 6 : -6, step % 14 < 7 ? 5 : -5, 0)
            filter.update(rotationRate: .zero, specificForce: truth.force + jolt, field: magnet, interval: 0.01)
        }
        #expect(abs(filter.roll) < 1 && abs(filter.pitch) < 1, "roll \(filter.roll) pitch \(filter.pitch)")
        #expect(abs(Angle.signed(filter.heading - 90)) < 1, "heading \(filter.heading)")
        #expect(!filter.magnetometerUsed)
    }

    /// The worst pitch error while a car at rest pulls out at 1.5 m/s^2 for 10 s (its engine
    /// humming at 11 Hz), the accelerometer reading the speeding up as 9 degrees of tilt.
    static func pullingOutPitchError(setOffHold: Double) -> Double {
        var settings = AttitudeFilter.Settings()
        settings.setOffHold = setOffHold
        var filter = AttitudeFilter(settings: settings)
        let level = Self.still(Quaternion(roll: 0, pitch: 0, yaw: Angle.radians(200)))
        for _ in 0..<500 { filter.update(rotationRate: .zero, specificForce: level.force, field: level.field, interval: 0.01) }
        var worst = 0.0
        for step in 0..<1000 {
            let hum = 0.3 * sin(2 * Double.pi * 11 * Double(step) * 0.01)
            filter.update(rotationRate: .zero, specificForce: level.force + Vector3(1.5, 0, hum), field: level.field, interval: 0.01)
            worst = max(worst, abs(filter.pitch))
        }
        return worst
    }

    @Test func aCarPullingOutIsNotATilt() {
        let held = Self.pullingOutPitchError(setOffHold: AttitudeFilter.Settings().setOffHold)
        let unheld = Self.pullingOutPitchError(setOffHold: 0)
        print("pulling out at 1.5 m/s^2: worst pitch error \(held) deg with the set-off hold, \(unheld) deg without")
        #expect(held < 0.5)
        #expect(unheld > 5, "the case must be one the hold is needed for")
    }

    /// The hold ends: a device put down tilted with the gyro off (or a new mounting) is level
    /// again soon after the hold's 10 s, and a real tilt the gyro sees is followed at once.
    @Test func theSetOffHoldDoesNotKeepALevelThatIsWrong() {
        var filter = AttitudeFilter()
        let level = Self.still(Quaternion(roll: 0, pitch: 0, yaw: 0))
        for _ in 0..<500 { filter.update(rotationRate: .zero, specificForce: level.force, field: level.field, interval: 0.01) }
        let tilted = Self.still(Quaternion(roll: 0, pitch: Angle.radians(20), yaw: 0))
        for _ in 0..<1500 { filter.update(rotationRate: .zero, specificForce: tilted.force, field: tilted.field, interval: 0.01) }
        #expect(abs(filter.pitch - 20) < 1, "pitch \(filter.pitch) after 15 s")

        var turning = AttitudeFilter()
        for _ in 0..<500 { turning.update(rotationRate: .zero, specificForce: level.force, field: level.field, interval: 0.01) }
        for step in 1...200 {
            let now = Self.still(Quaternion(roll: 0, pitch: Angle.radians(0.1 * Double(step)), yaw: 0))
            turning.update(rotationRate: Vector3(0, Angle.radians(10), 0), specificForce: now.force, field: now.field, interval: 0.01)
        }
        #expect(abs(turning.pitch - 20) < 0.5, "pitch \(turning.pitch) after turning 20 deg")
    }

    @Test func aLastingChangeOfTheFieldIsBelievedAfterTheRecoveryPeriod() {
        var filter = AttitudeFilter()
        let before = Self.still(Quaternion(roll: 0, pitch: 0, yaw: 0))
        for _ in 0..<600 { filter.update(rotationRate: .zero, specificForce: before.force, field: before.field, interval: 0.01) }
        // The device is now mounted 40 degrees turned with no gyro motion seen (it was switched off).
        let after = Self.still(Quaternion(roll: 0, pitch: 0, yaw: Angle.radians(40)))
        for _ in 0..<300 { filter.update(rotationRate: .zero, specificForce: after.force, field: after.field, interval: 0.01) }
        #expect(abs(Angle.signed(filter.heading)) < 1, "still trusting the gyro after 3 s")
        for _ in 0..<1500 { filter.update(rotationRate: .zero, specificForce: after.force, field: after.field, interval: 0.01) }
        #expect(abs(Angle.signed(filter.heading - 40)) < 1, "heading \(filter.heading) after 18 s")
    }

    /// A new calibration turns the corrected field by tens of degrees at once; told so, the
    /// filter follows it within a second and a half instead of riding it out as a disturbance.
    @Test func aNewCalibrationIsFollowedAtOnce() {
        var filter = AttitudeFilter()
        let before = Self.still(Quaternion(roll: 0, pitch: 0, yaw: 0))
        for _ in 0..<600 { filter.update(rotationRate: .zero, specificForce: before.force, field: before.field, interval: 0.01) }
        let after = Self.still(Quaternion(roll: 0, pitch: 0, yaw: Angle.radians(40)))
        filter.relearnHeading()
        for _ in 0..<150 { filter.update(rotationRate: .zero, specificForce: after.force, field: after.field, interval: 0.01) }
        #expect(abs(Angle.signed(filter.heading - 40)) < 1, "heading \(filter.heading) 1.5 s after the new calibration")
        #expect(abs(filter.roll) < 0.5 && abs(filter.pitch) < 0.5, "the level is untouched: \(filter.roll) \(filter.pitch)")
        #expect(filter.magneticErrorSine < 0.02)
    }

    @Test func gyroBiasIsLearnedWhileStill() {
        var estimator = GyroBiasEstimator()
        let bias = Vector3(0.01, -0.02, 0.015)  // about a degree per second
        var rate = Vector3.zero
        for _ in 0..<6000 { rate = estimator.update(bias, interval: 0.01) }
        #expect((estimator.bias - bias).length < 0.0005)
        #expect(rate.length < 0.0005)
        // A turn is not learned as bias.
        for _ in 0..<300 { _ = estimator.update(bias + Vector3(0, 0, 1), interval: 0.01) }
        #expect((estimator.bias - bias).length < 0.0005)
    }
}

extension Substring {
    func trimmingCharacters() -> Substring {
        var s = self
        while let c = s.first, c == " " || c == "\r" { s = s.dropFirst() }
        while let c = s.last, c == " " || c == "\r" { s = s.dropLast() }
        return s
    }
}
