/// How fast the altitude changes, metres per second, up positive: the barometric altitude's
/// rate (the fused altitude's short-term part is the barometer's; its slow GPS levelling would
/// read as a climb where there is none), smoothed over a few seconds so a pressure sensor's
/// centimetre noise at 25 Hz is not a metre per second.
public struct ClimbRate: Sendable {
    /// The smoothing's time constant, seconds.
    public static let timeConstant = 3.0
    /// m/s; nil until samples have spanned a time constant.
    public var metresPerSecond: Double? { span >= Self.timeConstant ? rate : nil }
    private var rate = 0.0
    private var last: (altitude: Double, time: Double)?
    private var span = 0.0

    public init() {}

    /// One barometric altitude (m) at `time` (s).
    public mutating func add(altitude: Double, time: Double) {
        guard altitude.isFinite, time.isFinite else { return }
        defer { last = (altitude, time) }
        guard let last, time > last.time else { return }
        let interval = time - last.time
        // A gap (a stalled sensor) says nothing of the climb in between.
        guard interval < 5 else { (rate, span) = (0, 0); return }
        let weight = min(1, interval / Self.timeConstant)
        rate += weight * ((altitude - last.altitude) / interval - rate)
        span += interval
    }
}
