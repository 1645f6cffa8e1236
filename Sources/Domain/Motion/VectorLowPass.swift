import LodestoneCore

/// A first-order low-pass filter on a 3-axis signal, set by its time constant so that it
/// behaves the same whatever the sample rate.
public struct VectorLowPass: Sendable {
    public let timeConstant: Double
    public private(set) var value: Vector3?
    private var lastTime: MonotonicNanoseconds = 0

    public init(timeConstant seconds: Double) { timeConstant = max(seconds, 0) }

    public mutating func update(_ sample: Vector3, at time: MonotonicNanoseconds) -> Vector3 {
        guard let previous = value, time > lastTime, timeConstant > 0 else {
            value = sample
            lastTime = time
            return sample
        }
        let dt = Double(time - lastTime) / 1e9
        let alpha = dt / (timeConstant + dt)
        let next = previous + (sample - previous) * alpha
        value = next
        lastTime = time
        return next
    }
}
