import LodestoneCore
import LodestoneDomain
import LodestoneReports
import LodestoneStorage

/// The device's memory on the output thread: the barometer's reference and trend, the rolling
/// history, alerts, logging sessions and snapshots. `OutputLoop` feeds it barometer samples
/// and a once-a-second tick, and hands it the requests that concern it.
package final class Chronicle {
    package let weather: WeatherService
    package let history: HistoryService
    package let alerts: AlertService
    package let logs: LogService
    let snapshots: SnapshotStore
    /// The weather station, whose wind and water go into the history and the logs too.
    package var station: StationService?

    package init(dataDirectory: String, qnh: Double, now: Double) {
        weather = WeatherService(qnh: qnh)
        history = HistoryService(dataDirectory: dataDirectory)
        alerts = AlertService(dataDirectory: dataDirectory, now: now)
        logs = LogService(store: LogStore(dataDirectory: dataDirectory))
        snapshots = SnapshotStore(dataDirectory: dataDirectory)
    }

    /// One barometer sample; returns reports to publish (a log session that stopped itself).
    package func add(_ sample: PressureSample, state: NavigationState, confidence: Int, time: Double, resting: Bool = false) -> [Report] {
        weather.add(sample, time: time, fix: state.fix, confidence: confidence, resting: resting)
        return logs.tick({ values(state) }, time: time, sample: true).map { [$0] } ?? []
    }

    /// Once a second: history, alerts and timed log records. Returns reports to publish, and
    /// whether an alert fired (for the buzzer and LED).
    package func tick(state: NavigationState, time: Double) -> (reports: [Report], alerted: Bool) {
        history.add("pressure", weather.station, time: time)
        history.add("seaLevelPressure", weather.seaLevel, time: time)
        history.add("altitude", weather.fused, time: time)
        history.add("temperature", weather.temperature, time: time)
        history.add("humidity", weather.humidity, time: time)
        let station = self.station?.figures
        history.add("waterTemperature", station?.waterTemperature ?? .nan, time: time)
        history.add("windSpeed", station?.wind?.speed ?? .nan, time: time)
        history.add("windGust", station?.wind?.gust ?? .nan, time: time)
        history.save(time: time)
        let weather = self.weather
        var reports = alerts.evaluate(time: time) { kind in
            switch kind {
            case .pressureHigh, .pressureLow: return weather.seaLevel
            case .rapidFall: return weather.reading?.hPaPerHour ?? .nan
            case .altitudeReached: return weather.fused
            case .temperatureHigh, .temperatureLow: return weather.temperature
            }
        }
        let alerted = !reports.isEmpty
        if let stopped = logs.tick({ values(state) }, time: time, sample: false) { reports.append(stopped) }
        return (reports, alerted)
    }

    /// The values a log record or a snapshot takes, by stream name.
    func values(_ state: NavigationState) -> [String: Double] {
        let fix = state.fix
        let station = self.station?.figures, wind = station?.wind
        return [
            "pressure": weather.station, "seaLevelPressure": weather.seaLevel, "altitude": weather.fused,
            "temperature": weather.temperature, "humidity": weather.humidity,
            "latitude": fix.hasPosition ? fix.latitude : .nan, "longitude": fix.hasPosition ? fix.longitude : .nan,
            "gpsAltitude": fix.hasPosition ? fix.altitudeMSL : .nan, "speed": fix.speed, "course": fix.course,
            "heading": state.trueHeading ?? state.attitude?.magneticHeading ?? .nan,
            "roll": state.attitude?.roll ?? .nan, "pitch": state.attitude?.pitch ?? .nan,
            "waterTemperature": station?.waterTemperature ?? .nan, "windSpeed": wind?.speed ?? .nan,
            "windGust": wind?.gust ?? .nan, "windDirection": wind?.direction ?? .nan
        ]
    }

    /// `?SNAPSHOT` (and the snapshot button): every current value, saved; answered with SNAPSHOT.
    package func takeSnapshot(
        _ request: SnapshotRequest, state: NavigationState, accuracy: Double, time: Double,
        activity: DailyActivity? = nil
    ) -> Report {
        let id = snapshots.newID(time: time)
        var s = Snapshot(id: id, timestamp: time, name: request.name ?? "Snapshot " + id, notes: request.notes ?? "")
        let v = values(state)
        (s.latitude, s.longitude, s.accuracy) = (v["latitude"] ?? .nan, v["longitude"] ?? .nan, state.fix.hasPosition ? accuracy : .nan)
        s.altitude = weather.fused.isFinite ? weather.fused : (v["gpsAltitude"] ?? .nan)
        (s.pressure, s.seaLevelPressure) = (weather.station, weather.seaLevel)
        (s.roll, s.pitch, s.yaw) = (v["roll"] ?? .nan, v["pitch"] ?? .nan, v["heading"] ?? .nan)
        (s.temperature, s.humidity) = (weather.temperature, weather.humidity)
        s.conditions = weather.reading?.band.forecast ?? ""
        if let imu = state.imu {
            s.accelerometer = imu.acceleration
            s.gyroscope = Vector3(Angle.degrees(imu.rotationRate.x), Angle.degrees(imu.rotationRate.y), Angle.degrees(imu.rotationRate.z))
        }
        if let magnetic = state.magnetic { s.magnetometer = magnetic.field }
        if let activity {
            (s.stepsToday, s.floorsUp, s.floorsDown) = (Double(activity.stepsToday), Double(activity.floors.up), Double(activity.floors.down))
        }
        do { try snapshots.save(s) } catch { return .error(error.description) }
        return .snapshot(s)
    }

    /// The clock was corrected by more than a minute: data stamped after `now` is forgotten and
    /// the trend starts again.
    package func clockChanged(to now: Double) {
        history.forget(after: now)
        weather.restartTrend()
        logs.session?.restartSchedule()
        Log.info("the clock was set from GPS to \(CivilTime(unixSeconds: now).iso8601); the trend starts again")
    }

    /// Saves what must survive a restart.
    package func close(time: Double) {
        history.save(time: time, force: true)
        if let session = logs.session { session.close(now: time) }
    }
}
