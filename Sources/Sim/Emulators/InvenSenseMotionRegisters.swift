import LodestoneCore

extension RegisterBankEmulator {
    /// Latches one accelerometer and gyroscope sample into the register layout the MPU-6050
    /// and MPU-9250 share (big-endian words from ACCEL_XOUT_H, 0x3B, to GYRO_ZOUT_L, 0x48),
    /// at the ranges their configuration registers select, and raises data-ready.
    func latchInvenSenseMotion(
        _ t: SensorTruth, gyroBias: Vector3, random: inout SeededRandom,
        accelerometerNoise: Double, gyroscopeNoise: Double, temperatureCounts: Double
    ) {
        let accelCounts = 16_384 / Double(1 << Int((registers[0x1C] >> 3) & 3))
        let gyroCounts: Double
        switch (registers[0x1B] >> 3) & 3 {
        case 0: gyroCounts = 131
        case 1: gyroCounts = 65.5
        case 2: gyroCounts = 32.8
        default: gyroCounts = 16.4
        }
        let force = ChipMounting.chipAxes(fromBody: t.specificForce) / 9.80665
        let rate = ChipMounting.chipAxes(fromBody: t.rotationRate) * (180 / Double.pi) + gyroBias
        store16BE((force.x + random.gaussian(accelerometerNoise)) * accelCounts, at: 0x3B)
        store16BE((force.y + random.gaussian(accelerometerNoise)) * accelCounts, at: 0x3D)
        store16BE((force.z + random.gaussian(accelerometerNoise)) * accelCounts, at: 0x3F)
        store16BE(temperatureCounts, at: 0x41)
        store16BE((rate.x + random.gaussian(gyroscopeNoise)) * gyroCounts, at: 0x43)
        store16BE((rate.y + random.gaussian(gyroscopeNoise)) * gyroCounts, at: 0x45)
        store16BE((rate.z + random.gaussian(gyroscopeNoise)) * gyroCounts, at: 0x47)
        registers[0x3A] |= 0x01
    }
}
