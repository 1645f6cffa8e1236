import LodestoneCore
import LodestoneDomain
import LodestoneOutputs
import LodestoneReports

/// The "samples" task: the newest state and every sample the rings brought, in order, to the
/// services that follow them; per-sample reports carry their sample's own time.
extension OutputLoop {
    func drainSamples() {
        latest = outputs.state.read()
        logSensorProblems()
        tellServiceManager()
        let services = self.services
        outputs.magneticRing.drain { sample in
            lastMagnetic = sample
            services.compass?.add(sample)
        }
        _ = utcNow()   // follows the newest fix's time before samples are stamped
        let resting = services.motion?.motion == .still
        outputs.pressureRing.drain { sample in
            for report in services.chronicle?.add(sample, state: latest, confidence: services.positions?.confidence ?? 100,
                                                  time: deviceClock.utc(at: sample.time), resting: resting) ?? [] { send(report) }
        }
        let recentFix = latest.fix.hasPosition && latest.fix.speed.isFinite
        outputs.imuRing.drain { sample in
            let time = deviceClock.utc(at: sample.time)
            services.motion?.add(sample, gpsSpeed: recentFix ? latest.fix.speed : nil, time: time)
            send(.inertial(InertialReport(imu: sample, magnetic: lastMagnetic, device: imuDevice, time: time)))
        }
        drainFixes()
        outputs.sentenceRing.drain { raw in
            guard server != nil || nmea != nil else { return }
            raw.withBytes { sentence in
                server?.broadcastSentence(sentence, device: gpsDevice)
                if NMEAFeed.passesThrough(sentence) { nmea?.send(sentence) }
            }
        }
        outputs.skyRing.drain { item in
            satellites.append(item.satellite)
            guard item.endsCycle else { return }
            let report = SatelliteReport(satellites: satellites, hdop: item.hdop, pdop: item.pdop, vdop: item.vdop, device: gpsDevice)
            lastSky = report
            send(.satellites(report))
            // The next cycle fills the list the report before last held (this one's stays with
            // `lastSky`): two lists taking turns, so neither is copied or allocated again.
            swap(&satellites, &spareSatellites)
            satellites.removeAll(keepingCapacity: true)
        }
        if let filtered = services.positions?.fix, filtered.hasPosition, latest.fix.hasPosition {
            // Everything downstream (waypoints, the display) sees the filtered position.
            (latest.fix.latitude, latest.fix.longitude) = (filtered.latitude, filtered.longitude)
        }
        if let weather = services.chronicle?.weather, weather.fused.isFinite {
            // And the barometric altitude levelled by the reference and GPS.
            latest.barometricAltitude = weather.fused
            latest.seaLevelPressure = weather.qnh * 100
        }
    }

    /// Fixes: their time vetted against the device's clock, outliers dropped by the position
    /// service; what is published and recorded is the filtered position.
    private func drainFixes() {
        let now = clock.now()
        let state = services.motion?.motion ?? .walking
        let services = self.services
        outputs.fixRing.drain { raw in
            var raw = raw
            if let utc = raw.utc, raw.received != 0, !deviceClock.believes(utc, receivedAt: raw.received) {
                // One bad date must not stop the positions: they carry the device's own time.
                if deviceClock.refused == 1 || deviceClock.refused % 600 == 0 {
                    Log.warning("GPS: ignoring the receiver's time \(CivilTime(unixSeconds: utc).iso8601) (\(deviceClock.refused) so far): "
                        + "it is not believable against the device's clock (a damaged sentence or a week-number rollover); "
                        + "positions carry the device's time")
                }
                raw.utc = deviceClock.utc(at: raw.received)
            }
            guard let fix = services.positions.map({ $0.add(raw, motion: state, now: now) }) ?? raw else { return }
            send(.position(positionReport(fix)))
            if let event = services.tracks?.add(fix, state: latest, now: now, time: deviceClock.utc(at: fix.received == 0 ? now : fix.received)) {
                send(event)
            }
        }
    }

    /// TPV for a fix: its errors where the receiver and the dilutions give them
    /// (`FixErrorModel`), the climb from the barometer, the declination here.
    func positionReport(_ fix: GPSFix) -> PositionReport {
        var fix = fix
        if let eph = FixErrorModel.horizontal(fix) { fix.eph = eph }
        if let epv = FixErrorModel.vertical(fix) { fix.epv = epv }
        var report = PositionReport(fix: fix, device: gpsDevice, confidence: services.positions?.confidence)
        report.speedError = FixErrorModel.speed(fix)
        if fix.hasPosition {
            report.climb = services.chronicle?.weather.climb.metresPerSecond
            report.magneticVariation = latest.declination
        }
        return report
    }
}
