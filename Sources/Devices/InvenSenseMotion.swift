import LodestoneCore
import LodestoneHAL

/// What the MPU-6050 and MPU-9250 share: the same accelerometer and gyroscope ranges, the
/// same register layout from INT_STATUS (0x3A) through the gyro data, and the same sample-rate
/// divider on a 1 kHz internal rate. Each chip's driver keeps only what differs.
public enum InvenSenseMotion {
    public enum AccelerometerRange: UInt8, Sendable {
        case g2 = 0, g4 = 1, g8 = 2, g16 = 3
        /// 16384 LSB/g at +-2 g, halving with each range (both product specifications).
        public var countsPerG: Double { 16_384 / Double(1 << rawValue) }
    }

    public enum GyroscopeRange: UInt8, Sendable {
        case dps250 = 0, dps500 = 1, dps1000 = 2, dps2000 = 3
        public var countsPerDegreePerSecond: Double {
            switch self {
            case .dps250: return 131
            case .dps500: return 65.5
            case .dps1000: return 32.8
            case .dps2000: return 16.4
            }
        }
    }

    static var sampleRateDivider: UInt8 { 0x19 }
    static var config: UInt8 { 0x1A }
    static var gyroConfig: UInt8 { 0x1B }
    static var accelConfig: UInt8 { 0x1C }
    static var interruptEnable: UInt8 { 0x38 }
    static var interruptStatus: UInt8 { 0x3A }
    public static var standardGravity: Double { 9.80665 }

    /// SMPLRT_DIV for a wanted rate, the internal rate being 1 kHz with the low-pass filter on.
    static func divider(for sampleRateHz: Double) -> UInt8 {
        UInt8(min(255, max(0, Int((1000 / max(sampleRateHz, 4)).rounded()) - 1)))
    }

    /// Writes the rate, the two ranges and DLPF_CFG 3 (about 42 Hz bandwidth on either chip).
    static func configure<Bus: I2CBus>(
        _ device: I2CRegisterDevice<Bus>, rateHz: Double, accelerometer: AccelerometerRange,
        gyroscope: GyroscopeRange
    ) throws(DeviceError) {
        try device.write(config, 0x03)
        try device.write(sampleRateDivider, divider(for: rateHz))
        try device.write(gyroConfig, gyroscope.rawValue << 3)
        try device.write(accelConfig, accelerometer.rawValue << 3)
    }

    /// INT_STATUS and the 14 data bytes in one burst, so data-ready and data belong together;
    /// nil when no new sample is ready. `temperature` converts the raw die temperature.
    static func readSample<Bus: I2CBus>(
        _ device: I2CRegisterDevice<Bus>, _ buffer: RegisterBuffer, at time: MonotonicNanoseconds,
        accelerometer: AccelerometerRange, gyroscope: GyroscopeRange,
        temperature: (Int16) -> Double
    ) throws(DeviceError) -> ImuSample? {
        try device.read(interruptStatus, into: buffer.slice(15))
        guard buffer[0] & 0x01 != 0 else { return nil }
        let acceleration = standardGravity / accelerometer.countsPerG
        let rotation = Double.pi / 180 / gyroscope.countsPerDegreePerSecond
        return ImuSample(
            time: time,
            acceleration: Vector3(
                Double(buffer.int16BE(1)) * acceleration, Double(buffer.int16BE(3)) * acceleration,
                Double(buffer.int16BE(5)) * acceleration),
            rotationRate: Vector3(
                Double(buffer.int16BE(9)) * rotation, Double(buffer.int16BE(11)) * rotation,
                Double(buffer.int16BE(13)) * rotation),
            temperature: temperature(buffer.int16BE(7)))
    }
}
