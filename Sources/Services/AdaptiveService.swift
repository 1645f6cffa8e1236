import LodestoneCore
import LodestoneDomain
import LodestoneHAL
import LodestoneSampling
import LodestoneSettings

/// Adaptive sampling on the output thread: once a second it weighs the motion state, the
/// power supply (read every 10 s) and the loop's load, and when the rates should change it
/// sets them in the scheduler (allocation-free, from this thread), asks the chips to follow,
/// and changes the GPS fix interval where the receiver allows.
package final class AdaptiveService<Clock: MonotonicClock> {
    private var sampler: AdaptiveSampler
    private let scheduler: FixedRateScheduler<Clock>
    private let pipeline: any SamplingControl
    private let setGPSInterval: ((Double) -> Void)?
    private let powerSupply: PowerSupplyReader
    private let taskIndices: (imu: Int?, mag: Int?, baro: Int?, process: Int?)
    private var power = PowerSupplyReading(externalPower: nil, batteryPercent: nil)
    private var nextDecision: MonotonicNanoseconds = 0
    private var nextPowerRead: MonotonicNanoseconds = 0
    private var lastOverruns: UInt64 = 0
    /// Each reading of the power supply, with the device's time (a recording notes them).
    package var powerTap: ((PowerSupplyReading, MonotonicNanoseconds) -> Void)?

    package init(
        scheduler: FixedRateScheduler<Clock>, pipeline: any SamplingControl, configuration c: Configuration,
        setGPSInterval: ((Double) -> Void)?
    ) {
        var table = c.samplingTable
        // The configured rates are what walking uses; the other states scale from the table.
        table.rates[.walking] = StreamRates(
            imu: c.imuRateHz, magnetometer: c.magnetometerRateHz, barometer: c.barometerRateHz,
            processing: c.processingRateHz, gpsInterval: 1 / c.simulatedGPSRateHz)
        var policy = PowerPolicy(userLowPower: c.lowPower)
        policy.lowBattery = c.lowBatteryPercent
        policy.recovered = c.lowBatteryPercent + 5
        sampler = AdaptiveSampler(table: table, loopRateHz: c.loopRateHz, power: policy)
        self.scheduler = scheduler
        self.pipeline = pipeline
        self.setGPSInterval = setGPSInterval
        powerSupply = PowerSupplyReader(directory: c.powerSupplyDirectory)
        taskIndices = (
            scheduler.taskIndex(named: "imu"), scheduler.taskIndex(named: "mag"),
            scheduler.taskIndex(named: "baro"), scheduler.taskIndex(named: "process")
        )
        writeUnshedLines()
    }

    /// New rates for walking (a re-read configuration); the other states scale from the table
    /// as before. Applied at once while walking, else when walking comes.
    package func useWalkingRates(imu: Double, magnetometer: Double, barometer: Double, processing: Double) {
        guard var walking = sampler.table.rates[.walking] else { return }
        (walking.imu, walking.magnetometer, walking.barometer, walking.processing) = (imu, magnetometer, barometer, processing)
        sampler.table.rates[.walking] = walking
        writeUnshedLines()
        nextDecision = 0
        if sampler.state == .walking { setTaskRates(walking) }
    }

    /// The scheduler's task rates and the chips' own rates.
    private func setTaskRates(_ rates: StreamRates) {
        if let i = taskIndices.imu { scheduler.setRate(task: i, hz: rates.imu) }
        if let i = taskIndices.mag { scheduler.setRate(task: i, hz: rates.magnetometer) }
        if let i = taskIndices.baro { scheduler.setRate(task: i, hz: rates.barometer) }
        if let i = taskIndices.process { scheduler.setRate(task: i, hz: rates.processing) }
        pipeline.requestChipRate(imu: rates.imu, magnetometer: rates.magnetometer)
    }

    package var profile: String { sampler.profile }
    package var rates: StreamRates { sampler.rates }

    /// The profile the device starts with, for the log's first line about sampling (the
    /// changes' lines follow as they happen).
    package var startLine: String { "starting with " + Self.line(profile: sampler.profile, rates: sampler.rates) }

    /// The motion the rates follow: the motion service's, except that a calibration in
    /// progress needs every magnetometer reading (sampled as when walking), and so does a
    /// device never calibrated while it is turned in the hand (the figure-8 the README asks
    /// for), or the background fit starves on the still profile's few readings. Nil while the
    /// classifier has not judged the motion yet: its first state is where it starts, not what
    /// the device does, and following it switched the profile at every start.
    package static func motionForRates(_ motion: MotionService?, compass: CompassService?) -> MotionState? {
        let turning = motion.map { $0.classifier.rotation > $0.classifier.settings.stillRotation } ?? false
        let handled = turning && motion?.motion == .still  // turned in the hand, not a car's bend
        let collecting = compass.map { $0.isCalibrating || ($0.calibration == nil && handled) } ?? false
        if collecting { return .walking }
        guard let motion else { return .walking }
        return motion.classifier.judged ? motion.motion : nil
    }

    /// Returns a log line when the rates changed. `motion`: nil while it is not known, which
    /// keeps the profile the device has.
    package func tick(motion: MotionState?, now: MonotonicNanoseconds) -> String? {
        guard now >= nextDecision else { return nil }
        nextDecision = now + 1_000_000_000
        if now >= nextPowerRead {
            nextPowerRead = now + 10_000_000_000
            power = powerSupply.read()
            powerTap?(power, now)
        }
        let loop = scheduler.loopStatistics.read()
        let overruns = Int(loop.overruns &- lastOverruns)
        lastOverruns = loop.overruns
        var utilisation = 0.0
        for index in scheduler.taskNames.indices {
            let s = scheduler.taskStatistics[index].read()
            utilisation += s.meanExecutionMicroseconds * s.rateHz / 1e6
        }
        guard
            let rates = sampler.update(
                motion: motion ?? sampler.state, externalPower: power.externalPower, batteryPercent: power.batteryPercent,
                overruns: overruns, utilisation: utilisation, interval: 1)
        else { return nil }
        setTaskRates(rates)
        if let setGPSInterval {
            setGPSInterval(rates.gpsInterval)
            pipeline.expectFixes(every: rates.gpsInterval)
        }
        return line(rates: rates)
    }

    /// A profile as the log names it: its parts and its rates.
    private struct ProfileKey: Hashable {
        var state: MotionState
        var lowPower: Bool
        var shedding: Bool
        var rates: StreamRates
    }

    /// The log line of a change of profile, made once per profile and rates (a walker who
    /// stops and goes on changes between the same few again and again). Every profile without
    /// shedding is written at start, so a change of motion costs the output thread nothing.
    private func line(rates: StreamRates) -> String {
        let key = ProfileKey(
            state: sampler.state, lowPower: sampler.power.lowPower, shedding: sampler.shedder.isShedding, rates: rates)
        if let said = lines[key] { return said }
        let line = Self.line(profile: sampler.profile, rates: rates)
        if lines.count < 64 { lines[key] = line }
        return line
    }

    private static func line(profile: String, rates: StreamRates) -> String {
        "sampling profile \(profile): IMU \(fixed(rates.imu, 0)) Hz, magnetometer \(fixed(rates.magnetometer, 0)) Hz, "
            + "barometer \(fixed(rates.barometer, 0)) Hz, processing \(fixed(rates.processing, 0)) Hz, GPS every \(fixed(rates.gpsInterval, 1)) s"
    }

    /// Every unshed profile's line, for the table as it stands.
    private func writeUnshedLines() {
        lines.reserveCapacity(64)
        for state in MotionState.allCases {
            for lowPower in [false, true] {
                let rates = sampler.table.rates(for: state, lowPower: lowPower, loopRateHz: sampler.loopRateHz)
                let profile = state.rawValue + (lowPower ? "/lowPower" : "")
                let key = ProfileKey(state: state, lowPower: lowPower, shedding: false, rates: rates)
                if lines[key] == nil, lines.count < 64 { lines[key] = Self.line(profile: profile, rates: rates) }
            }
        }
    }
    private var lines: [ProfileKey: String] = [:]
}
