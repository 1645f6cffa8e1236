import LodestoneCore
import LodestoneDomain
import Testing

@Suite struct AccelerometerCalibrationTests {
    /// Six faces of a sensor with offset (0.05, -0.03, 0.08) g and scale errors of a few
    /// percent, a little noise, and movement in between.
    func recording() -> [Vector3] {
        let offset = Vector3(0.05, -0.03, 0.08), gain = Vector3(1.03, 0.98, 1.02)
        var readings: [Vector3] = []
        var seed: UInt64 = 7
        func noise() -> Double {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return (Double(seed >> 11) / Double(1 << 53) - 0.5) * 0.004
        }
        for up in [Vector3(1, 0, 0), Vector3(-1, 0, 0), Vector3(0, 1, 0), Vector3(0, -1, 0), Vector3(0, 0, 1), Vector3(0, 0, -1)] {
            for _ in 0..<200 {
                let truth = up
                readings.append(
                    Vector3(
                        truth.x * gain.x + offset.x + noise(), truth.y * gain.y + offset.y + noise(),
                        truth.z * gain.z + offset.z + noise()))
            }
            // Turning to the next face: moving, not still.
            for step in 0..<50 { readings.append(Vector3(0.6 + Double(step) * 0.01, 0.9, 0.5)) }
        }
        return readings
    }

    @Test func recoversOffsetAndScale() throws {
        let calibration = try AccelerometerCalibration.fit(readings: recording()).get()
        #expect((calibration.offset - Vector3(0.05, -0.03, 0.08)).length < 0.002)
        #expect(abs(calibration.scale.x - 1 / 1.03) < 0.002 && abs(calibration.scale.y - 1 / 0.98) < 0.002)
        let corrected = calibration.apply(Vector3(0.05, -0.03, 1.02 + 0.08))
        #expect((corrected - Vector3(0, 0, 1)).length < 0.003)
    }

    @Test func saysWhichFacesAreMissing() {
        let readings = Array(recording().prefix(750))  // +x, -x, +y only
        #expect(AccelerometerCalibration.fit(readings: readings) == .failure(.missingPositions(["-y", "+z", "-z"])))
        #expect(AccelerometerCalibration.fit(readings: [Vector3(3, 0, 0)]) == .failure(.notStill))
    }
}
