import LodestoneCore

/// Learns the gyroscope's bias while the device is still and removes it: MEMS gyros drift by
/// a few tenths of a degree per second with temperature, which would turn a resting compass
/// by tens of degrees an hour. "Still" is every axis below `stillThreshold` for `stillTime`;
/// then the bias follows the readings through a slow low-pass (a time constant of several
/// seconds), so a brief movement barely disturbs it.
public struct GyroBiasEstimator: Sendable {
    /// Rad/s (3 degrees per second).
    public var stillThreshold = 3.0 * Double.pi / 180
    /// Seconds.
    public var stillTime = 5.0
    /// Seconds.
    public var timeConstant = 8.0
    public private(set) var bias = Vector3.zero
    private var stillFor = 0.0

    public init() {}

    /// Whether the device has been still long enough for the bias to be learning.
    public var isLearning: Bool { stillFor >= stillTime }

    /// The rate with the bias removed. `interval` is the time since the previous reading, so
    /// the time constants hold at whatever rate the gyro is read.
    public mutating func update(_ rate: Vector3, interval: Double) -> Vector3 {
        let corrected = rate - bias
        if abs(corrected.x) > stillThreshold || abs(corrected.y) > stillThreshold || abs(corrected.z) > stillThreshold {
            stillFor = 0
            return corrected
        }
        guard interval > 0, interval < 1 else { return corrected }  // also false for NaN
        stillFor += interval
        if stillFor >= stillTime {
            bias = bias + corrected * (interval / (timeConstant + interval))
        }
        return corrected
    }
}
