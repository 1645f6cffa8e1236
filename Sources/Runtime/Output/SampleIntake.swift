import LodestoneCore
import LodestoneDomain
import LodestoneOutputs
import LodestoneReports
import LodestoneSampling
import LodestoneServices

/// The output thread's intake (the "samples" task): it follows the sampling side's states one
/// by one, in order. For each, it hands the samples the rings brought before that state (up to
/// the state's marks) to the services that follow them, sending the reports that come of them
/// (IMU, TPV, SKY and the GPS's own sentences), then takes the state as the newest and runs the
/// report tasks whose slots it reaches (`ReportSlots`). Every report is thereby a function of
/// the samples and their times: when this thread ran, and how many states it found waiting,
/// changes nothing but how late the reports leave.
final class SampleIntake<Clock: MonotonicClock> {
    let context: OutputContext<Clock>
    /// The report tasks, run on sample time (set once the loop exists).
    var slots: ReportSlots?
    /// The newest magnetometer sample at or before the IMU sample in hand, and the next one,
    /// taken from the ring but later than it.
    private var lastMagnetic: MagneticSample?
    private var nextMagnetic: MagneticSample?
    private var satellites: [Satellite] = []
    private var spareSatellites: [Satellite] = []
    /// The newest SKY, for POLL.
    private(set) var lastSky: SatelliteReport?
    private var problemLog = SensorProblemLog()
    /// The seconds between fixes the position filter was last told.
    private var fixInterval = 1.0

    init(context: OutputContext<Clock>) { self.context = context }

    private var outputs: any SamplingOutputs { context.outputs }
    private var deviceClock: DeviceClock { context.deviceClock }
    private func send(_ report: Report) { context.send(report) }

    /// Every state the sampling side made since the last round, each with its samples and reports.
    func follow() {
        problemLog.update(outputs.problems)
        let ring = outputs.stateRing
        // At most a ringful a round: a sampling side that outruns this thread cannot keep it
        // from its clients (the states it cannot queue are dropped and counted).
        for _ in 0..<ring.capacity {
            // Each state is read where it lies in the ring (hundreds of bytes, fifty times a second).
            guard let updated = ring.withOldest({ take($0) }) else { return }
            slots?.run(at: updated)
        }
    }

    /// One state: the samples before it, in the order they were taken, then the state itself;
    /// returns the state's time.
    private func take(_ snapshot: UnsafePointer<StateSnapshot>) -> MonotonicNanoseconds {
        let marks = snapshot.pointee.marks
        let updated = snapshot.pointee.state.updated
        context.sampleTime = updated
        context.latest = snapshot.pointee.state
        let services = context.services
        if snapshot.pointee.fixInterval != fixInterval {
            fixInterval = snapshot.pointee.fixInterval
            services.positions?.setFixInterval(fixInterval, at: updated)
        }
        let context = self.context
        // The services and names each sample needs, taken once a state rather than once a
        // sample (each taking is a retain and a release).
        let compass = services.compass, motion = services.motion, imuDevice = context.imuDevice, deviceClock = self.deviceClock
        _ = context.utcNow()  // follows the newest fix's time before samples are stamped
        let resting = motion?.motion == .still
        let pressureRing = outputs.pressureRing
        if let chronicle = services.chronicle {
            let confidence = services.positions?.confidence ?? 100
            while let sample = pressureRing.pop(before: marks.pressure) {
                for report in chronicle.add(sample, state: context.latest, confidence: confidence, time: deviceClock.utc(at: sample.time), resting: resting) {
                    send(report)
                }
            }
        } else {
            while pressureRing.pop(before: marks.pressure) != nil {}
        }
        let gpsSpeed = context.latest.fix.hasPosition && context.latest.fix.speed.isFinite ? context.latest.fix.speed : nil
        let imuRing = outputs.imuRing
        while let sample = imuRing.pop(before: marks.imu) {
            // The field an IMU report carries is the magnetometer's newest at or before its time.
            magneticSamples(through: sample.time, before: marks.magnetic, compass: compass)
            let time = deviceClock.utc(at: sample.time)
            motion?.add(sample, gpsSpeed: gpsSpeed, time: time)
            context.send(
                .inertial(InertialReport(imu: sample, magnetic: lastMagnetic, device: imuDevice, time: time)), kind: .inertial, device: imuDevice,
                time: time)
        }
        magneticSamples(through: .max, before: marks.magnetic, compass: compass)
        takeFixes(before: marks.fixes)
        let sentenceRing = outputs.sentenceRing
        while let raw = sentenceRing.pop(before: marks.sentences) {
            guard context.fanout.takesSentences else { continue }
            raw.withBytes { context.fanout.passThrough($0, device: context.gpsDevice) }
        }
        let skyRing = outputs.skyRing
        while let item = skyRing.pop(before: marks.sky) {
            satellites.append(item.satellite)
            guard item.endsCycle else { continue }
            let report = SatelliteReport(satellites: satellites, hdop: item.hdop, pdop: item.pdop, vdop: item.vdop, device: context.gpsDevice)
            lastSky = report
            send(.satellites(report))
            // The next cycle fills the list the report before last held (this one's stays with
            // `lastSky`): two lists taking turns, so neither is copied or allocated again.
            swap(&satellites, &spareSatellites)
            satellites.removeAll(keepingCapacity: true)
        }
        if let filtered = services.positions?.fix, filtered.hasPosition, context.latest.fix.hasPosition {
            // Everything downstream (waypoints, the display) sees the filtered position.
            (context.latest.fix.latitude, context.latest.fix.longitude) = (filtered.latitude, filtered.longitude)
        }
        if let weather = services.chronicle?.weather, weather.fused.isFinite {
            // And the barometric altitude levelled by the reference and GPS.
            context.latest.barometricAltitude = weather.fused
            context.latest.seaLevelPressure = weather.qnh * 100
        }
        return updated
    }

    /// The magnetometer's samples before `mark` taken up to `time`, each to the compass; the
    /// first later one waits for the IMU sample it precedes.
    private func magneticSamples(through time: MonotonicNanoseconds, before mark: Int, compass: CompassService?) {
        while true {
            if nextMagnetic == nil { nextMagnetic = outputs.magneticRing.pop(before: mark) }
            guard let sample = nextMagnetic, sample.time <= time else { return }
            nextMagnetic = nil
            lastMagnetic = sample
            compass?.add(sample)
        }
    }

    /// Fixes: their time vetted against the device's clock, outliers dropped by the position
    /// service; what is published and recorded is the filtered position.
    private func takeFixes(before mark: Int) {
        let now = context.sampleTime
        // The system's clock beside the device's monotonic one, for chrony's samples.
        let clockNow = context.clock.now()
        let systemNow = context.fanout.chrony == nil ? 0 : OutputClock.unixTime()
        let services = context.services
        let state = services.motion?.motion ?? .walking
        let context = self.context
        let deviceClock = self.deviceClock
        let fixRing = outputs.fixRing
        while var raw = fixRing.pop(before: mark) {
            if let utc = raw.utc, raw.received != 0, !deviceClock.believes(utc, receivedAt: raw.received) {
                // One bad date must not stop the positions: they carry the device's own time.
                if deviceClock.refused == 1 || deviceClock.refused % 600 == 0 {
                    Log.warning(
                        "GPS: ignoring the receiver's time \(CivilTime(unixSeconds: utc).iso8601) (\(deviceClock.refused) so far): "
                            + "it is not believable against the device's clock (a damaged sentence or a week-number rollover); "
                            + "positions carry the device's time")
                }
                raw.utc = deviceClock.utc(at: raw.received)
            } else if let chrony = context.fanout.chrony, let utc = raw.utc, raw.received != 0, raw.received <= clockNow, !raw.deadReckoning {
                let pulse = raw.pulse != 0 && raw.pulse <= clockNow ? (raw.pulse, systemNow - Double(clockNow &- raw.pulse) / 1e9) : nil
                chrony.send(utc: utc, receivedAt: systemNow - Double(clockNow &- raw.received) / 1e9, burstBytes: raw.burstBytes, pulse: pulse)
            }
            guard let fix = services.positions.map({ $0.add(raw, motion: state, now: now) }) ?? raw else { continue }
            send(.position(context.positionReport(fix)))
            if let event = services.tracks?.add(fix, state: context.latest, now: now, time: deviceClock.utc(at: fix.received == 0 ? now : fix.received)) {
                send(event)
            }
        }
    }
}
