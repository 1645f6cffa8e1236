import Synchronization
import Glibc
import LodestoneCore
import LodestoneDevices
import LodestoneDomain
import LodestoneHAL

/// The sampling side of the runtime: reads each sensor into its ring, keeps the latest
/// readings, and turns them into the published navigation state.
///
/// Every method here runs on the sampling thread as a scheduler task and allocates nothing
/// in steady state: samples are plain values, rings and the state cell were allocated at
/// start, and the GPS bytes go through fixed buffers.
public final class SensorPipeline: @unchecked Sendable {
    public let clock: any MonotonicClock
    public let imuRing = SPSCRing<ImuSample>(capacity: 512, policy: .overwriteOldest)
    public let magneticRing = SPSCRing<MagneticSample>(capacity: 256, policy: .overwriteOldest)
    public let pressureRing = SPSCRing<PressureSample>(capacity: 128, policy: .overwriteOldest)
    /// GPS fixes are rare and each one matters to a track: keep the oldest if the reader stalls.
    public let fixRing = SPSCRing<GPSFix>(capacity: 64, policy: .dropNewest)
    /// Satellites of each completed GSV cycle, for SKY reports; the freshest view matters most.
    public let skyRing = SPSCRing<SkyItem>(capacity: 512, policy: .overwriteOldest)
    /// Every sentence the receiver sent, for pass-through; the oldest go first when no one
    /// drains them.
    public let sentenceRing = SPSCRing<RawSentence>(capacity: 256, policy: .overwriteOldest)
    private var skyCycles = 0
    public let state = LatestValue(NavigationState())
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
    /// Chip axes to body axes (x forward, y right, z down), from each chip's mounting.
    private var imuReady: DataReadyGate?
    private let imuAxes: AxisMapping
    public let magnetometerAxes: AxisMapping
    private let gps: (any SerialPort)?
    private var framer = NMEAFramer()
    private var parser = NMEAParser()
    /// When the GPS last sent a byte.
    private var lastByteTime: MonotonicNanoseconds = 0
    /// Bytes read since the line was last quiet (the burst so far).
    private var burstBytes: Int32 = 0
    private var burstStart: MonotonicNanoseconds = 0
    /// The receiver's pulse-per-second line, when wired, and its latest rising edge (the
    /// kernel's time stamp): the start of a UTC second.
    private let pulseLine: (any DigitalInput)?
    private var lastPulse: MonotonicNanoseconds = 0
    /// The pulse before the current burst began: the second its fix was made in.
    private var burstPulse: MonotonicNanoseconds = 0
    private let serialBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 512, alignment: 8)
    private var lastFixTime: MonotonicNanoseconds = 0
    /// The fix interval asked of the receiver, as this thread has seen it.
    private var fixPace = FixPace()
    /// Along-course acceleration from the receiver's speed.
    private var groundAcceleration = GroundAcceleration()

    private var current = NavigationState()
    /// The healths last published, to stamp when one changes.
    private var publishedHealth: SensorHealthChanges.Healths = (.absent, .absent, .absent, .absent)
    private var attitude: AttitudeFilter
    private var gyroBias: GyroBiasEstimator
    private var turnRate = TurnRate()
    private let imuPeriod: Double
    private var lastIMUTime: MonotonicNanoseconds = 0
    private var compass = CompassFigures()
    private var lastProcess: MonotonicNanoseconds = 0
    /// The magnetometer calibration the heading was last computed with.
    private var appliedCalibration: MagnetometerCalibration?
    /// Whether the magnetometer has ever given a reading (the heading exists from then on).
    private var hadMagneticField = false
    /// The accelerometer's latest reading with the turn's and the speeding up's share taken
    /// out (`gravityAlone`): gravity, as a calibration pairs it with the field. A boat's swing
    /// at 2 m/s and 3 deg/s feels 0.1 m/s^2 towards the circle's centre, a steady 0.6 degree
    /// lean of "down" that would otherwise move the fitted offset by half a microtesla.
    private var lastGravity: Vector3?

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
        attitude = AttitudeFilter()
        gyroBias = GyroBiasEstimator()
        imuPeriod = 1 / imuRateHz
        imuReady = imuDataReady.map { DataReadyGate(line: $0) }
        imuAxes = imuMounting.then(.boardToBody)
        magnetometerAxes = magnetometerMounting.then(.boardToBody)
        self.imu = imu.map { SensorSlot($0) }
        self.magnetometer = magnetometer.map { SensorSlot($0) }
        self.barometer = barometer.map { SensorSlot($0) }
        self.gps = gps
        pulseLine = gpsPulse
        current.seaLevelPressure = qnh * 100
        current.gpsHealth = gps == nil ? .absent : .degraded
    }

    deinit { serialBuffer.deallocate() }

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
            imuRing.push(body)
            updateAttitude(body)
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
            if calibration != appliedCalibration {
                // A new calibration moves the heading by up to tens of degrees at once: the
                // filter takes it up within a second instead of rejecting it as a disturbance.
                if appliedCalibration != nil || calibration != nil { attitude.relearnHeading() }
                appliedCalibration = calibration
            }
            let corrected = calibration?.apply(sample.field) ?? sample.field
            let body = MagneticSample(
                time: sample.time, field: magnetometerAxes.apply(corrected), raw: sample.field,
                specificForce: lastGravity ?? current.imu?.acceleration)
            current.magnetic = body
            magneticRing.push(body)
            hadMagneticField = true
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
            pressureRing.push(sample)
        }
        current.barometerHealth = barometer?.health ?? .absent
        barometerProblem.update(barometer, as: .barometer, into: problems)
    }

    /// Drains the GPS serial port and hands each completed fix on.
    public func pollGPS() {
        guard let gps else { return }
        // The pulses first, so every edge taken is older than `now` and than the bytes read after it.
        if let pulseLine { _ = try? pulseLine.takeEvents { edge in if edge.rising { lastPulse = edge.time } } }
        let now = clock.now()
        while true {
            let count: Int
            do {
                count = try gps.read(into: serialBuffer)
            } catch {
                current.gpsHealth = .degraded
                return
            }
            if count == 0 { break }
            // A read after a quiet line starts a new burst.
            if lastByteTime == 0 || now &- lastByteTime >= Self.quietLine { (burstBytes, burstStart, burstPulse) = (0, now, lastPulse) }
            burstBytes &+= Int32(truncatingIfNeeded: count)
            lastByteTime = now
            framer.feed(UnsafeRawBufferPointer(rebasing: serialBuffer[0..<count])) { sentence in
                let dropped = parser.outOfLimits
                if let fix = parser.parse(sentence, received: now) { publish(fix, at: now) }
                // A sentence dropped for an impossible field is not passed on raw either.
                if parser.outOfLimits == dropped {
                    sentenceRing.push(RawSentence(sentence))
                } else {
                    current.gpsRejected = parser.outOfLimits
                    current.gpsRejectedReason = parser.lastOutOfLimits
                }
                if parser.skyCycles != skyCycles {
                    skyCycles = parser.skyCycles
                    let sky = parser.sky, fix = parser.fix
                    for index in 0..<sky.count {
                        skyRing.push(
                            SkyItem(
                                satellite: sky[index], endsCycle: index == sky.count - 1,
                                hdop: fix.hdop, pdop: fix.pdop, vdop: fix.vdop))
                    }
                }
            }
        }
        // A quiet line after a burst ends its cycle: the fix goes out now, not with the next burst.
        if lastByteTime != 0, now &- lastByteTime >= Self.quietLine, let fix = parser.endOfBurst() { publish(fix, at: now) }
        // A receiver that has missed about three fixes is not healthy, whatever it said before.
        let fixInterval = expectedFixInterval.load(ordering: .relaxed)
        fixPace.set(Double(bitPattern: handsOver ? taken.fixInterval.state(fixInterval) : fixInterval), at: now)
        let interval = fixPace.expected(at: now)
        let silence = UInt64(max(3, 3 * interval) * 1e9)
        current.gpsHealth = now &- lastFixTime < silence && lastFixTime != 0 ? .ok : .degraded
    }

    private func publish(_ fix: GPSFix, at now: MonotonicNanoseconds) {
        var fix = fix
        // A cycle completed by the next burst's first sentence was read in an earlier burst:
        // its length is not known (0).
        fix.burstBytes = fix.received >= burstStart ? burstBytes : 0
        // A receiver sends a second's sentences within that second of its pulse; an older
        // pulse (a line that stopped pulsing) says nothing of this fix.
        fix.pulse = burstPulse != 0 && fix.received >= burstStart && burstStart &- burstPulse < Self.pulseReach ? burstPulse : 0
        groundAcceleration.add(speed: fix.speed, time: Double(fix.received) / 1e9)
        current.fix = fix
        lastFixTime = now
        fixRing.push(fix)
    }

    /// How long the line must be silent after a burst for its cycle to count as complete:
    /// longer than the pauses within a burst, shorter than the gap between a 10 Hz receiver's.
    static let quietLine: MonotonicNanoseconds = 60_000_000
    /// How long after its pulse a burst may begin and still be that second's.
    static let pulseReach: MonotonicNanoseconds = 1_000_000_000

    /// Computes attitude, heading and altitude from the latest readings and publishes the state.
    /// One attitude update per IMU sample, with the newest magnetometer reading.
    private func updateAttitude(_ sample: ImuSample) {
        // The interval from the samples' own stamps, whatever rate adaptive sampling has set;
        // the configured period at start. After a gap longer than any sampling rate gives (the
        // chip stopped answering) the rotation in between is unknown: the filter does not
        // pretend to have integrated it.
        var interval = imuPeriod
        if lastIMUTime != 0, sample.time > lastIMUTime {
            interval = Double(sample.time - lastIMUTime) / 1e9
        }
        lastIMUTime = sample.time
        guard interval <= Self.longestIMUInterval else { turnRate.reset(); return }
        let learned = gyroBias.bias
        let rate = gyroBias.update(sample.rotationRate, interval: interval)
        attitude.biasRemovedUpstream(gyroBias.bias - learned)
        // A field bent by nearby iron would turn the heading: carry it on the gyro instead.
        let field = current.magneticInterference ? nil : current.magnetic?.field
        let gravity = gravityAlone(sample, rate: rate)
        lastGravity = gravity
        attitude.update(rotationRate: rate, specificForce: gravity, field: field, interval: interval)
        turnRate.update(bodyRate: rate, orientation: attitude.orientation, interval: interval)
    }

    /// The accelerometer's reading less the turn's and the speeding up's share (`GravityAlone`),
    /// while the receiver's fix is fresh and the body moves.
    private func gravityAlone(_ sample: ImuSample, rate: Vector3) -> Vector3 {
        let fix = current.fix
        guard fix.hasPosition, fix.speed.isFinite, fix.course.isFinite, fix.speed > 0.5, fix.speed < 200,
            sample.time > fix.received, sample.time - fix.received < 3_000_000_000
        else { return sample.acceleration }
        // The filter's frame points at magnetic north; the receiver's course is true.
        let trusted = appliedCalibration != nil && current.magnetic != nil && !current.magneticInterference
        return GravityAlone.estimate(
            acceleration: sample.acceleration, rate: rate, orientation: attitude.orientation, speed: fix.speed,
            alongAcceleration: groundAcceleration.value,
            magneticCourse: trusted ? fix.course - (current.declination ?? 0) : nil)
    }

    public func process() {
        let now = clock.now()
        let interval = lastProcess == 0 ? 0 : Double(now &- lastProcess) / 1e9
        lastProcess = now
        if current.imu != nil {
            // Without a magnetometer the filter's yaw is only the gyro's drift from where it
            // started: never published as a heading.
            current.attitude = TiltCompensatedHeading(
                roll: attitude.roll, pitch: attitude.pitch,
                magneticHeading: hadMagneticField ? attitude.heading : .nan)
            current.rateOfTurn = turnRate.degreesPerSecond
            current.headingSettling = attitude.isSettlingHeading
        }
        updateCompass(interval: interval, now: now)
        if let pressure = current.pressure {
            current.barometricAltitude = BarometricAltitude.altitude(
                pressure: pressure.pressure,
                reference: current.seaLevelPressure)
        }
        current.updated = now
        publishedHealth = current.healthChanged.note(current, since: publishedHealth, at: now)
        state.publish(current)
    }

    /// True heading, the measured field against the model's, interference and the heading's
    /// accuracy (`CompassFigures`), with the calibration the field was corrected with, not the
    /// newest stored: until the magnetometer's next reading takes a new one up, the heading is
    /// still the old one's.
    private func updateCompass(interval: Double, now: MonotonicNanoseconds) {
        let field = expectedField.read()
        compass.update(
            &current, expected: handsOver ? taken.expectedField.state(field) : field, calibration: appliedCalibration,
            orientation: attitude.orientation,
            magnetometerUsed: attitude.magnetometerUsed, magneticErrorSine: attitude.magneticErrorSine,
            interval: interval, now: now)
    }

    static var standardGravity: Double { 9.80665 }
    /// A magnetometer reading older than this no longer counts (the slowest adaptive rate
    /// reads it every 0.1 s), nanoseconds.
    static var staleField: UInt64 { 300_000_000 }
    /// The slowest IMU rate adaptive sampling sets is 10 Hz; beyond this an interval is a gap, seconds.
    static var longestIMUInterval: Double { 0.25 }

    // MARK: Introspection (sampling thread, or after it stopped)

    public var parserCounts: (accepted: Int, rejected: Int, overlong: Int, garbled: Int) {
        (parser.accepted, parser.rejected, framer.overlong, framer.garbled)
    }
}
