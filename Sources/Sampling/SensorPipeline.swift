import Synchronization
import Glibc
import LodestoneCore
import LodestoneDevices
import LodestoneDomain
import LodestoneHAL

/// The sampling side of the runtime: reads each sensor into its ring, keeps the latest
/// readings, and turns them into the published navigation state. It holds the chips' slots,
/// the rings and the handovers (what crosses between the sampling and the output threads);
/// the receiver's work is `GPSReader`'s and the attitude's `AttitudeStep`'s, both concrete
/// types it calls directly. The services reach it through `SamplingControl` alone.
///
/// Every method here runs on the sampling thread as a scheduler task and allocates nothing
/// in steady state: samples are plain values, rings and the state cell were allocated at
/// start, and the GPS bytes go through fixed buffers.
public final class SensorPipeline: SamplingControl, @unchecked Sendable {
    public let clock: any MonotonicClock
    /// The chips' samples, five seconds of each: the output side takes every one in order, and
    /// when it falls that far behind the newest are refused (and noted in a recording, so a
    /// replay loses the same ones), never the ones it is about to take.
    public let imuRing = SPSCRing<ImuSample>(capacity: 512, policy: .dropNewest)
    public let magneticRing = SPSCRing<MagneticSample>(capacity: 256, policy: .dropNewest)
    public let pressureRing = SPSCRing<PressureSample>(capacity: 128, policy: .dropNewest)
    /// GPS fixes are rare and each one matters to a track: keep the oldest if the reader stalls.
    public let fixRing: SPSCRing<GPSFix>
    /// Satellites of each completed GSV cycle, for SKY reports; the freshest view matters most.
    public let skyRing: SPSCRing<SkyItem>
    /// Every sentence the receiver sent, for pass-through; the oldest go first when no one
    /// drains them.
    public let sentenceRing: SPSCRing<RawSentence>
    /// Every state `process` made, with the rings' marks: the output side follows them one by
    /// one. Kept in order when the output side falls behind: the newest are dropped, counted,
    /// and the next one kept covers their samples.
    public let stateRing = SPSCRing<StateSnapshot>(capacity: 128, policy: .dropNewest)
    /// Handed in by the output side: Earth's field where the device is (from the model, when
    /// there is a fix) and the magnetometer calibration (loaded at start or newly fitted).
    public let expectedField = LatestValue<ExpectedField?>(nil)
    public let magnetometerCalibration = LatestValue<MagnetometerCalibration?>(nil)
    /// The six-position accelerometer calibration (in g), when one was saved.
    public let accelerometerCalibration = LatestValue<AccelerometerCalibration?>(nil)
    /// Chip output rates asked for by adaptive sampling, applied on the sampling thread (which
    /// owns the bus): the rate's bit pattern, 0 when nothing is pending.
    private let imuRateRequest = Atomic<UInt64>(0)
    private let magnetometerRateRequest = Atomic<UInt64>(0)
    /// Seconds between GPS fixes the receiver was set to (adaptive sampling changes it).
    private let expectedFixInterval = Atomic<UInt64>(1.0.bitPattern)
    /// Every value above as this thread takes it: through the run's recording or replay when
    /// there is one (`ledger`).
    private let taken = TakenHandovers()
    public var ledger: (any HandoverLedger)? {
        get { taken.ledger }
        set {
            taken.ledger = newValue
            handsOver = newValue != nil
        }
    }
    /// Whether there is a ledger: without one (a run that does not record) the values are used
    /// as taken, at the cost of one flag's test.
    private var handsOver = false

    private let imu: SensorSlot<AnySensor<ImuSample>>?
    private let magnetometer: SensorSlot<AnySensor<MagneticSample>>?
    private let barometer: SensorSlot<AnySensor<PressureSample>>?
    /// Why each chip is failing, for the output side to say (published when it changes).
    public let problems = SensorProblems()
    private var imuProblem = PublishedProblem(), magnetometerProblem = PublishedProblem(), barometerProblem = PublishedProblem()
    private var imuReady: DataReadyGate?
    /// Chip axes to body axes (x forward, y right, z down), from each chip's mounting.
    private let imuAxes: AxisMapping
    public let magnetometerAxes: AxisMapping
    /// The receiver's line, when one is wired.
    private let gps: GPSReader<NMEADecoder>?
    private var attitude: AttitudeStep

    private var current = NavigationState()
    /// What goes with the state `process` queues: the rings' marks and the fix interval taken.
    private var marks = StateSnapshot.Marks()
    private var fixInterval = 1.0
    /// The pressure and reference the barometric altitude was last worked out from: the
    /// barometer is read at a fifth of the processing rate, and the altitude (a power) is
    /// worked out again only when one of them changed.
    private var altitudeFrom = (pressure: Double.nan, reference: Double.nan)
    /// The healths last published, to stamp when one changes.
    private var publishedHealth: SensorHealthChanges.Healths = (.absent, .absent, .absent, .absent)

    /// - Parameters:
    ///   - imuMounting, magnetometerMounting: how each chip sits on the board (board axis from
    ///     chip axis); identity for a breakout lying flat with its markings forward.
    public init(
        clock: any MonotonicClock, imu: AnySensor<ImuSample>?, magnetometer: AnySensor<MagneticSample>?,
        barometer: AnySensor<PressureSample>?, gps: (any SerialPort)?, qnh: Double,
        imuMounting: AxisMapping = .identity, magnetometerMounting: AxisMapping = .identity,
        imuDataReady: (any DigitalInput)? = nil, imuRateHz: Double = 100, gpsPulse: (any DigitalInput)? = nil
    ) {
        self.clock = clock
        let fixes = SPSCRing<GPSFix>(capacity: 64, policy: .dropNewest)
        let sky = SPSCRing<SkyItem>(capacity: 512, policy: .overwriteOldest)
        let sentences = SPSCRing<RawSentence>(capacity: 256, policy: .overwriteOldest)
        (fixRing, skyRing, sentenceRing) = (fixes, sky, sentences)
        attitude = AttitudeStep(imuRateHz: imuRateHz)
        imuReady = imuDataReady.map { DataReadyGate(line: $0) }
        imuAxes = imuMounting.then(.boardToBody)
        magnetometerAxes = magnetometerMounting.then(.boardToBody)
        self.imu = imu.map { SensorSlot($0) }
        self.magnetometer = magnetometer.map { SensorSlot($0) }
        self.barometer = barometer.map { SensorSlot($0) }
        self.gps = gps.map {
            GPSReader(port: $0, decoder: NMEADecoder(), pulse: gpsPulse, clock: clock, fixes: fixes, sky: sky, sentences: sentences)
        }
        current.seaLevelPressure = qnh * 100
        current.gpsHealth = gps == nil ? .absent : .degraded
    }

    // MARK: Scheduler tasks

    /// Tells the GPS health check how often fixes should now come (any thread).
    public func expectFixes(every seconds: Double) {
        guard seconds.isFinite, seconds > 0 else { return }
        // Bounded so the nanoseconds derived from it always fit.
        expectedFixInterval.store(min(seconds, 3600).bitPattern, ordering: .relaxed)
    }

    /// Asks for a chip's own output rate to follow a new sampling rate (any thread).
    public func requestChipRate(imu hz: Double?, magnetometer magnetometerHz: Double?) {
        if let hz, hz > 0 { imuRateRequest.store(hz.bitPattern, ordering: .releasing) }
        if let magnetometerHz, magnetometerHz > 0 { magnetometerRateRequest.store(magnetometerHz.bitPattern, ordering: .releasing) }
    }

    public func sampleIMU() {
        guard imu != nil else { return }
        let now = clock.now()
        let imuRequest = imuRateRequest.exchange(0, ordering: .acquiring)
        let requested = handsOver ? taken.imuRate.request(imuRequest, none: 0) : imuRequest
        if requested != 0 { imu?.configureRate(Double(bitPattern: requested), at: now) }
        // Only a running chip drives its pin; one being brought up is always tried.
        if imu?.health == .ok {
            if imuReady?.shouldRead(at: now) == false { return }
        } else {
            imuReady?.noteRead(at: now)
        }
        if let sample = imu?.sample(at: now) {
            var force = sample.acceleration
            let accelerometer = accelerometerCalibration.read()
            if let calibration = handsOver ? taken.accelerometerCalibration.state(accelerometer) : accelerometer {
                force = calibration.apply(force * (1 / Self.standardGravity)) * Self.standardGravity
            }
            let body = ImuSample(
                time: sample.time, acceleration: imuAxes.apply(force),
                rotationRate: imuAxes.apply(sample.rotationRate), temperature: sample.temperature)
            current.imu = body
            queue(body, on: imuRing, id: 0)
            attitude.update(body, in: current, alongAcceleration: gps?.alongAcceleration ?? 0)
        }
        current.imuHealth = imu?.health ?? .absent
        imuProblem.update(imu, as: .imu, into: problems)
    }

    public func sampleMagnetometer() {
        guard magnetometer != nil else { return }
        let magnetometerRequest = magnetometerRateRequest.exchange(0, ordering: .acquiring)
        let requested = handsOver ? taken.magnetometerRate.request(magnetometerRequest, none: 0) : magnetometerRequest
        if requested != 0 { magnetometer?.configureRate(Double(bitPattern: requested), at: clock.now()) }
        let now = clock.now()
        if let sample = magnetometer?.sample(at: now) {
            // Calibration is fitted in the chip's own axes, so it applies before the mounting turn.
            let fitted = magnetometerCalibration.read()
            let calibration = handsOver ? taken.magnetometerCalibration.state(fitted) : fitted
            attitude.noteField(calibratedWith: calibration)
            let corrected = calibration?.apply(sample.field) ?? sample.field
            let body = MagneticSample(
                time: sample.time, field: magnetometerAxes.apply(corrected), raw: sample.field,
                specificForce: attitude.lastGravity ?? current.imu?.acceleration)
            current.magnetic = body
            queue(body, on: magneticRing, id: 1)
        } else if let last = current.magnetic, now > last.time, now - last.time > Self.staleField {
            // A chip that stopped answering must not go on steering the heading with its last
            // word: the heading is carried on the gyro until it answers again.
            current.magnetic = nil
        }
        current.magnetometerHealth = magnetometer?.health ?? .absent
        magnetometerProblem.update(magnetometer, as: .magnetometer, into: problems)
    }

    public func sampleBarometer() {
        guard barometer != nil else { return }
        if let sample = barometer?.sample(at: clock.now()) {
            current.pressure = sample
            queue(sample, on: pressureRing, id: 2)
        }
        current.barometerHealth = barometer?.health ?? .absent
        barometerProblem.update(barometer, as: .barometer, into: problems)
    }

    /// Drains the GPS serial port and hands each completed fix on.
    public func pollGPS() {
        guard let gps, let now = gps.read(into: &current) else { return }
        let asked = expectedFixInterval.load(ordering: .relaxed)
        fixInterval = Double(bitPattern: handsOver ? taken.fixInterval.state(asked) : asked)
        gps.judgeHealth(fixInterval: fixInterval, into: &current, at: now)
    }

    /// Computes attitude, heading and altitude from the latest readings and publishes the state.
    public func process() {
        let now = clock.now()
        let field = expectedField.read()
        attitude.publish(into: &current, expected: handsOver ? taken.expectedField.state(field) : field, at: now)
        if let pressure = current.pressure, pressure.pressure != altitudeFrom.pressure || current.seaLevelPressure != altitudeFrom.reference {
            current.barometricAltitude = BarometricAltitude.altitude(
                pressure: pressure.pressure,
                reference: current.seaLevelPressure)
            altitudeFrom = (pressure.pressure, current.seaLevelPressure)
        }
        current.updated = now
        publishedHealth = current.healthChanged.note(current, since: publishedHealth, at: now)
        marks.imu = imuRing.pushed
        marks.magnetic = magneticRing.pushed
        marks.pressure = pressureRing.pushed
        marks.fixes = fixRing.pushed
        marks.sky = skyRing.pushed
        marks.sentences = sentenceRing.pushed
        queue(StateSnapshot(state: current, marks: marks, fixInterval: fixInterval), on: stateRing, id: 3)
    }

    /// Queues an item for the output side, through the recording or replay when there is one.
    @inline(__always) private func queue<Element>(_ item: Element, on ring: SPSCRing<Element>, id: UInt8) {
        if handsOver { taken.queue(item, on: ring, id: id) } else { ring.push(item) }
    }

    /// The state as `process` last made it: on the sampling thread, or once it has stopped.
    public var newestState: NavigationState { current }

    static var standardGravity: Double { 9.80665 }
    /// A magnetometer reading older than this no longer counts (the slowest adaptive rate
    /// reads it every 0.1 s), nanoseconds.
    static var staleField: UInt64 { 300_000_000 }

    // MARK: Introspection (sampling thread, or after it stopped)

    public var parserCounts: (accepted: Int, rejected: Int, overlong: Int, garbled: Int) {
        let counts = gps?.counts ?? ReceiverCounts()
        return (counts.accepted, counts.rejected, counts.overlong, counts.garbled)
    }
}
