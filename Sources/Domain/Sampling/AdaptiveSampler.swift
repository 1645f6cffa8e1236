/// Chooses every task's rate from the motion state (which must persist `settle` seconds
/// before rates follow it, so a pause at a crossing does not drop the IMU to 25 Hz), the power
/// policy, and the load shedder, and says when they change.
public struct AdaptiveSampler: Sendable {
    public var table: SamplingTable
    public let loopRateHz: Double
    public var settle = 3.0
    public private(set) var state: MotionState = .walking
    public private(set) var rates: StreamRates
    public var power: PowerPolicy
    public var shedder = LoadShedder(minimumFactors: [0.25, 0.25, 0.2, 0.25])
    private var candidate: MotionState = .walking
    private var candidateFor = 0.0

    public init(table: SamplingTable = .defaults, loopRateHz: Double, power: PowerPolicy = PowerPolicy()) {
        self.table = table
        self.loopRateHz = loopRateHz
        self.power = power
        rates = table.rates(for: .walking, lowPower: power.lowPower, loopRateHz: loopRateHz)
    }

    /// The active profile's name: the motion state, then "/lowPower" and "+shed" when they apply.
    public var profile: String {
        state.rawValue + (power.lowPower ? "/lowPower" : "") + (shedder.isShedding ? "+shed" : "")
    }

    /// One decision every `interval` seconds; returns the new rates when they changed.
    public mutating func update(
        motion: MotionState, externalPower: Bool?, batteryPercent: Double?,
        overruns: Int, utilisation: Double, interval: Double
    ) -> StreamRates? {
        if motion == candidate {
            candidateFor += interval
        } else {
            candidate = motion
            candidateFor = 0
        }
        if candidate != state && candidateFor >= settle { state = candidate }
        power.update(externalPower: externalPower, batteryPercent: batteryPercent)
        shedder.observe(overruns: overruns, utilisation: utilisation, interval: interval)
        var next = table.rates(for: state, lowPower: power.lowPower, loopRateHz: loopRateHz)
        // Shedding scales IMU, magnetometer, barometer, processing: the order of the table's priority.
        let f = shedder.factors
        next.imu = max(next.imu * f[0], SamplingTable.floor.imu)
        next.magnetometer = max(next.magnetometer * f[1], SamplingTable.floor.magnetometer)
        next.barometer = max(next.barometer * f[2], SamplingTable.floor.barometer)
        next.processing = max(next.processing * f[3], SamplingTable.floor.processing)
        guard next != rates else { return nil }
        rates = next
        return next
    }
}
