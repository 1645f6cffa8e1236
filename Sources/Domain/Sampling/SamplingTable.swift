/// The rate of each sampled stream, Hz, and the GPS fix interval, seconds.
public struct StreamRates: Sendable, Hashable {
    public var imu: Double
    public var magnetometer: Double
    public var barometer: Double
    public var processing: Double
    public var gpsInterval: Double

    public init(imu: Double, magnetometer: Double, barometer: Double, processing: Double, gpsInterval: Double) {
        self.imu = imu
        self.magnetometer = magnetometer
        self.barometer = barometer
        self.processing = processing
        self.gpsInterval = gpsInterval
    }

    public static let names = ["imu", "magnetometer", "barometer", "processing", "gpsInterval"]

    public subscript(name: String) -> Double? {
        get {
            switch name {
            case "imu": return imu
            case "magnetometer": return magnetometer
            case "barometer": return barometer
            case "processing": return processing
            case "gpsInterval": return gpsInterval
            default: return nil
            }
        }
        set {
            guard let newValue else { return }
            switch name {
            case "imu": imu = newValue
            case "magnetometer": magnetometer = newValue
            case "barometer": barometer = newValue
            case "processing": processing = newValue
            case "gpsInterval": gpsInterval = newValue
            default: break
            }
        }
    }
}

/// The adaptive sampling policy: rates for each motion state, and the ceiling a low-power
/// profile puts on them. The defaults, and why:
///
/// | state    | IMU | mag | baro | process | GPS every |
/// |----------|-----|-----|------|---------|-----------|
/// | still    |  25 |  10 |    5 |      10 | 5 s       |
/// | walking  | 100 |  50 |   25 |      50 | 1 s       |
/// | running  | 200 |  50 |   25 |      50 | 1 s       |
/// | vehicle  | 100 |  25 |   10 |      25 | 0.1 s     |
/// | low power ceiling | 50 | 10 | 5 | 10 | at least 2 s |
///
/// Still, nothing changes: a few readings a second keep the heading, level and pressure
/// trend alive and notice the first movement. Walking needs the step and flip detectors'
/// 100 Hz; running's sharper impacts need 200. A vehicle turns fast and moves 30 m a second,
/// so the GPS runs at the receiver's fastest; its vibration is not worth a fast barometer.
/// On a low battery every rate is capped, never below the floors in `floor`.
public struct SamplingTable: Sendable, Equatable {
    public var rates: [MotionState: StreamRates]
    public var lowPowerCeiling: StreamRates
    public static let floor = StreamRates(imu: 10, magnetometer: 5, barometer: 1, processing: 5, gpsInterval: 10)

    public static let defaults = SamplingTable(
        rates: [
            .still: StreamRates(imu: 25, magnetometer: 10, barometer: 5, processing: 10, gpsInterval: 5),
            .walking: StreamRates(imu: 100, magnetometer: 50, barometer: 25, processing: 50, gpsInterval: 1),
            .running: StreamRates(imu: 200, magnetometer: 50, barometer: 25, processing: 50, gpsInterval: 1),
            .vehicle: StreamRates(imu: 100, magnetometer: 25, barometer: 10, processing: 25, gpsInterval: 0.1)
        ],
        lowPowerCeiling: StreamRates(imu: 50, magnetometer: 10, barometer: 5, processing: 10, gpsInterval: 2))

    public init(rates: [MotionState: StreamRates], lowPowerCeiling: StreamRates) {
        self.rates = rates
        self.lowPowerCeiling = lowPowerCeiling
    }

    /// The rates for a state, capped by the low-power ceiling when asked, within the floors
    /// and the loop's own rate.
    public func rates(for state: MotionState, lowPower: Bool, loopRateHz: Double) -> StreamRates {
        var r = rates[state] ?? Self.defaults.rates[.walking] ?? lowPowerCeiling
        if lowPower {
            r.imu = min(r.imu, lowPowerCeiling.imu)
            r.magnetometer = min(r.magnetometer, lowPowerCeiling.magnetometer)
            r.barometer = min(r.barometer, lowPowerCeiling.barometer)
            r.processing = min(r.processing, lowPowerCeiling.processing)
            r.gpsInterval = max(r.gpsInterval, lowPowerCeiling.gpsInterval)
        }
        let f = Self.floor
        r.imu = min(max(r.imu, f.imu), loopRateHz)
        r.magnetometer = min(max(r.magnetometer, f.magnetometer), loopRateHz)
        r.barometer = min(max(r.barometer, f.barometer), loopRateHz)
        r.processing = min(max(r.processing, f.processing), loopRateHz)
        r.gpsInterval = min(max(r.gpsInterval, 0.1), f.gpsInterval)
        return r
    }
}
