import LodestoneCore
import LodestoneDomain
import LodestoneOutputs
import LodestoneReports

/// The output thread's intake (the "samples" task): each round it reads the sampling side's
/// newest state and hands every sample the rings brought, in order, to the services that
/// follow them, sending the reports that come of them (IMU, TPV, SKY and the GPS's own
/// sentences); per-sample reports carry their sample's own time.
final class SampleIntake<Clock: MonotonicClock> {
    let context: OutputContext<Clock>
    private var lastMagnetic: MagneticSample?
    private var satellites: [Satellite] = []
    private var spareSatellites: [Satellite] = []
    /// The newest SKY, for POLL.
    private(set) var lastSky: SatelliteReport?
    private var problemLog = SensorProblemLog()

    init(context: OutputContext<Clock>) { self.context = context }

    private var outputs: any SamplingOutputs { context.outputs }
    private var deviceClock: DeviceClock { context.deviceClock }
    private func send(_ report: Report) { context.send(report) }

    func drain() {
        context.latest = outputs.state.read()
        problemLog.update(outputs.problems)
        let services = context.services
        let context = self.context
        // The services and names each sample needs, taken once a round rather than once a
        // sample (each taking is a retain and a release).
        let compass = services.compass, motion = services.motion, imuDevice = context.imuDevice, deviceClock = self.deviceClock
        outputs.magneticRing.drain { sample in
            lastMagnetic = sample
            compass?.add(sample)
        }
        _ = context.utcNow()  // follows the newest fix's time before samples are stamped
        let resting = motion?.motion == .still
        if let chronicle = services.chronicle {
            let confidence = services.positions?.confidence ?? 100
            outputs.pressureRing.drain { sample in
                for report in chronicle.add(sample, state: context.latest, confidence: confidence, time: deviceClock.utc(at: sample.time), resting: resting) {
                    send(report)
                }
            }
        } else {
            outputs.pressureRing.drain { _ in }
        }
        let gpsSpeed = context.latest.fix.hasPosition && context.latest.fix.speed.isFinite ? context.latest.fix.speed : nil
        outputs.imuRing.drain { sample in
            let time = deviceClock.utc(at: sample.time)
            motion?.add(sample, gpsSpeed: gpsSpeed, time: time)
            context.send(
                .inertial(InertialReport(imu: sample, magnetic: lastMagnetic, device: imuDevice, time: time)), kind: .inertial, device: imuDevice,
                time: time)
        }
        drainFixes()
        outputs.sentenceRing.drain { raw in
            guard context.fanout.takesSentences else { return }
            raw.withBytes { context.fanout.passThrough($0, device: context.gpsDevice) }
        }
        outputs.skyRing.drain { item in
            satellites.append(item.satellite)
            guard item.endsCycle else { return }
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
    }

    /// Fixes: their time vetted against the device's clock, outliers dropped by the position
    /// service; what is published and recorded is the filtered position.
    private func drainFixes() {
        let now = context.clock.now()
        // The system's clock beside the device's monotonic one, for chrony's samples.
        let systemNow = context.fanout.chrony == nil ? 0 : OutputClock.unixTime()
        let services = context.services
        let state = services.motion?.motion ?? .walking
        let context = self.context
        outputs.fixRing.drain { raw in
            var raw = raw
            if let utc = raw.utc, raw.received != 0, !deviceClock.believes(utc, receivedAt: raw.received) {
                // One bad date must not stop the positions: they carry the device's own time.
                if deviceClock.refused == 1 || deviceClock.refused % 600 == 0 {
                    Log.warning(
                        "GPS: ignoring the receiver's time \(CivilTime(unixSeconds: utc).iso8601) (\(deviceClock.refused) so far): "
                            + "it is not believable against the device's clock (a damaged sentence or a week-number rollover); "
                            + "positions carry the device's time")
                }
                raw.utc = deviceClock.utc(at: raw.received)
            } else if let chrony = context.fanout.chrony, let utc = raw.utc, raw.received != 0, raw.received <= now, !raw.deadReckoning {
                let pulse = raw.pulse != 0 && raw.pulse <= now ? (raw.pulse, systemNow - Double(now &- raw.pulse) / 1e9) : nil
                chrony.send(utc: utc, receivedAt: systemNow - Double(now &- raw.received) / 1e9, burstBytes: raw.burstBytes, pulse: pulse)
            }
            guard let fix = services.positions.map({ $0.add(raw, motion: state, now: now) }) ?? raw else { return }
            send(.position(context.positionReport(fix)))
            if let event = services.tracks?.add(fix, state: context.latest, now: now, time: deviceClock.utc(at: fix.received == 0 ? now : fix.received)) {
                send(event)
            }
        }
    }
}
