import LodestoneCore

/// How fast the ground speed is changing, from the receiver's fixes: what a car pulling out
/// or braking adds to the accelerometer along its way (1.5 m/s^2 reads as 9 degrees of pitch
/// to a filter that takes it for gravity).
///
/// A receiver's speed is good to a few centimetres per second; differenced over a tenth of a
/// second (10 Hz fixes) that is 1 m/s^2 of noise, six degrees of false tilt on every fix. So
/// the rate is the least-squares slope of the speeds over the last `span` seconds: 20 times
/// quieter at 10 Hz, a second late. Unknown (0) when the fixes are too far apart to tell
/// (the still profile's 5 s). Allocation-free after `init`: the sampling loop keeps one.
public struct GroundAcceleration: Sendable {
    /// Seconds of fixes the slope is fitted over.
    public static let span = 2.0
    /// The fitted fixes must cover at least this much of the span, seconds.
    public static let shortestCover = 0.9
    /// Beyond this (m/s^2, about 1 g) a slope is a glitch, not a vehicle.
    public static let largest = 10.0

    private var times: [Double]
    private var speeds: [Double]
    private var next = 0, count = 0
    /// The newest estimate, m/s^2 (0 when unknown).
    public private(set) var value = 0.0

    public init(capacity: Int = 32) {
        times = Array(repeating: 0, count: max(2, capacity))
        speeds = Array(repeating: 0, count: max(2, capacity))
    }

    /// A fix's ground speed (m/s) received at `time` (seconds on any steady clock). Another
    /// sentence of the same fix (the same time) adds nothing; a fix without a speed, or from
    /// before the last, starts afresh.
    public mutating func add(speed: Double, time: Double) {
        let newest = count > 0 ? times[(next + times.count - 1) % times.count] : -Double.infinity
        if time == newest { return }
        guard speed.isFinite, speed >= 0, time.isFinite, time > newest else {
            reset()
            return
        }
        times[next] = time
        speeds[next] = speed
        next = (next + 1) % times.count
        count = min(count + 1, times.count)
        value = slope(at: time)
    }

    public mutating func reset() {
        (next, count, value) = (0, 0, 0)
    }

    private func slope(at now: Double) -> Double {
        var n = 0.0, sumT = 0.0, sumV = 0.0, sumTT = 0.0, sumTV = 0.0, oldest = now
        for back in 0..<count {
            let index = (next + times.count - 1 - back) % times.count
            let age = now - times[index]
            if age > Self.span { break }
            let t = -age  // centred near zero, so the sums stay well conditioned
            n += 1
            sumT += t
            sumV += speeds[index]
            sumTT += t * t
            sumTV += t * speeds[index]
            oldest = times[index]
        }
        let denominator = n * sumTT - sumT * sumT
        guard n >= 2, now - oldest >= Self.shortestCover, denominator > 0 else { return 0 }
        let rate = (n * sumTV - sumT * sumV) / denominator
        return abs(rate) < Self.largest ? rate : 0
    }
}
