import Glibc
import LodestoneCore
import LodestoneDomain
import LodestoneOutputs
import LodestoneHAL

/// What the output side reads from the sampling side: rings of samples and the latest state.
public protocol SamplingOutputs: AnyObject {
    var imuRing: SPSCRing<ImuSample> { get }
    var magneticRing: SPSCRing<MagneticSample> { get }
    var pressureRing: SPSCRing<PressureSample> { get }
    var fixRing: SPSCRing<GPSFix> { get }
    var skyRing: SPSCRing<SkyItem> { get }
    var sentenceRing: SPSCRing<RawSentence> { get }
    var state: LatestValue<NavigationState> { get }
}

extension SensorPipeline: SamplingOutputs {}

/// The I/O thread: serves the socket, draws the display, and turns samples into reports.
/// It only ever reads from the sampling side (rings and the state cell), so a slow client,
/// terminal or disk can delay nothing but itself.
final class OutputLoop<Clock: MonotonicClock> {
    let outputs: any SamplingOutputs
    let scheduler: FixedRateScheduler<Clock>
    let budgets: [Double]
    let server: ReportServer?
    let display: DisplayTarget
    let stop: StopSignal
    let deviceName: String
    let devices: () -> [GPSDReports.Device]
    let clock: Clock
    let controls: Controls?
    let compass: CompassService?
    let motion: MotionService?
    let adaptive: AdaptiveService<Clock>?
    let tracks: TrackService?
    let waypoints: WaypointService?
    let positions: PositionService?
    let chronicle: Chronicle?
    let sky: SkyService?
    let nmea: NMEAServer?
    private var nmeaFeed = NMEAFeed()
    /// The device names reports carry, as DEVICES lists them: the GPS's port for TPV and SKY,
    /// the IMU's bus address for ATT and IMU, the barometer's for ENV (the board's name when
    /// there is none).
    private let gpsDevice: String
    private let imuDevice: String
    private let barometerDevice: String
    private var latest = NavigationState()
    /// When the devices were opened, for DEVICES.
    private var started = ""
    /// The display's heading, smoothed on the unit circle so 359° and 1° average to 0°, not 180°.
    private var displayHeading = HeadingSmoother(timeConstant: 0.5)
    private var lastDisplay: MonotonicNanoseconds = 0
    /// The motion service's flip state last seen, so each flip toggles the theme once.
    private var flipNight = false
    /// Gathers what the pages show from the services.
    private lazy var displayFeed = DisplayFeed(deviceName: deviceName, compass: compass, motion: motion, positions: positions,
                                               waypoints: waypoints, chronicle: chronicle, sky: sky, tracks: tracks,
                                               profile: { [unowned self] in self.adaptive?.profile },
                                               health: { [unowned self] in (self.server?.clientCount ?? 0, self.scheduler.loopStatistics.read(), self.taskLines()) })
    private var lastMagnetic: MagneticSample?
    private var satellites: [Satellite] = []
    private var lastSky: String?
    private var trackButtonHeld = false
    let deviceClock: DeviceClock
    /// How long one wait for clients may take, real milliseconds: shorter when a simulated
    /// trip runs faster than real time, so reports keep their pace in the trip's time.
    let pollMilliseconds: Int32

    init(outputs: any SamplingOutputs, scheduler: FixedRateScheduler<Clock>, budgets: [Double], server: ReportServer?,
         display: DisplayTarget, stop: StopSignal, deviceName: String, devices: @escaping () -> [GPSDReports.Device],
         controls: Controls? = nil, compass: CompassService? = nil, motion: MotionService? = nil,
         adaptive: AdaptiveService<Clock>? = nil, tracks: TrackService? = nil, waypoints: WaypointService? = nil,
         positions: PositionService? = nil, sky: SkyService? = nil, chronicle: Chronicle? = nil, nmea: NMEAServer? = nil,
         deviceClock: DeviceClock, pollMilliseconds: Int32 = 20) {
        self.deviceClock = deviceClock
        self.pollMilliseconds = pollMilliseconds
        started = deviceClock.iso8601(at: scheduler.clock.now())
        self.sky = sky
        self.nmea = nmea
        let listed = devices()
        gpsDevice = listed.first { $0.role == .gps }?.path ?? deviceName
        imuDevice = listed.first { $0.role == .imu }?.path ?? deviceName
        barometerDevice = listed.first { $0.role == .barometer }?.path ?? deviceName
        self.waypoints = waypoints
        self.positions = positions
        self.chronicle = chronicle
        self.adaptive = adaptive
        self.tracks = tracks
        self.controls = controls
        self.compass = compass
        self.motion = motion
        self.outputs = outputs
        self.scheduler = scheduler
        self.budgets = budgets
        self.server = server
        self.display = display
        self.stop = stop
        self.deviceName = deviceName
        self.devices = devices
        clock = scheduler.clock
        server?.answer = { [unowned self] request in self.answer(request) }
    }

    private var nextAttitude: MonotonicNanoseconds = 0
    private var nextEnvironment: MonotonicNanoseconds = 0
    private var nextDisplay: MonotonicNanoseconds = 0

    /// Runs until a stop signal, the duration, or `stop.request()`; returns why it stopped.
    /// - Parameters:
    ///   - deadline: on `wallClock` (real time, `--duration`).
    ///   - tripEnd: on the device's clock (the referee's trips).
    func run(until deadline: MonotonicNanoseconds?, wallClock: SystemMonotonicClock = SystemMonotonicClock(),
             tripEnd: MonotonicNanoseconds? = nil) -> String {
        display.begin()
        defer { display.end() }
        while !stop.isRequested {
            if let signal = waitForWork() {
                stop.request()
                return signal
            }
            let now = clock.now()
            if let deadline, wallClock.now() >= deadline {
                stop.request()
                return "duration"
            }
            if let tripEnd, now >= tripEnd {
                stop.request()
                return "end of the trip"
            }
            if handleKeys() {
                stop.request()
                return "quit key"
            }
            latest = outputs.state.read()
            publishSamples()
            if let filtered = positions?.fix, filtered.hasPosition, latest.fix.hasPosition {
                // Everything downstream (waypoints, the display) sees the filtered position.
                (latest.fix.latitude, latest.fix.longitude) = (filtered.latitude, filtered.longitude)
            }
            if let weather = chronicle?.weather, weather.fused.isFinite {
                // And the barometric altitude levelled by the reference and GPS.
                latest.barometricAltitude = weather.fused
                latest.seaLevelPressure = weather.qnh * 100
            }
            tickServices(now)
            publishPeriodic(now)
            if display.isActive && now >= nextDisplay {
                nextDisplay = now + display.refreshPeriod
                redraw(now)
            }
        }
        return "stop request"
    }

    /// Serves the socket (or just waits) for up to 20 ms; the name of a stop signal if one came.
    private func waitForWork() -> String? {
        let extra = (stop.descriptor >= 0 ? [stop.descriptor] : []) + (display.keyDescriptor.map { [$0] } ?? [])
            + (nmea?.pollDescriptors.map(\.fd) ?? [])
        defer { nmea?.service() }
        let woken: [Int32]
        if let server {
            woken = server.service(timeoutMilliseconds: pollMilliseconds, extra: extra)
        } else {
            var fds = extra.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            _ = poll(&fds, nfds_t(fds.count), pollMilliseconds)
            woken = fds.filter { $0.revents != 0 }.map(\.fd)
        }
        return woken.contains(stop.descriptor) ? stop.takeSignal() : nil
    }

    /// The compass, adaptive sampling, motion features and controls, each at its own pace.
    private func tickServices(_ now: MonotonicNanoseconds) {
        if let compass {
            for event in compass.tick(latest, now: now) { send(event) }
        }
        // A calibration in progress needs every magnetometer reading: sample as when walking.
        // So does a device never calibrated while it is turned in the hand (the figure-8 the
        // README asks for), or the background fit starves on the still profile's few readings.
        let turning = motion.map { $0.classifier.rotation > $0.classifier.settings.stillRotation } ?? false
        let handled = turning && motion?.motion == .still   // turned in the hand, not a car's bend
        let collecting = compass.map { $0.isCalibrating || ($0.calibration == nil && handled) } ?? false
        let state = collecting ? .walking : (motion?.motion ?? .walking)
        if let adaptive, let line = adaptive.tick(motion: state, now: now) {
            Log.info(line)
            positions?.setFixInterval(adaptive.rates.gpsInterval, at: now)
        }
        if let motion {
            for event in motion.tick(latest, now: now) { send(event) }
            if motion.levelReached { controls?.signal(.levelTick, at: now) }
        }
        if let controls {
            for (button, event) in controls.update(at: now) {
                send(Controls.report(button: button, event: event, time: stamp()))
                if button == "bearingLock", event == .press, let motion { send(motion.toggleLock()) }
                if button == "track", let tracks { trackButton(event, tracks) }
                if button == "snapshot", event == .press, let chronicle {
                    send(chronicle.takeSnapshot(nil, state: latest, accuracy: positions.map { PositionService.sigma($0.fix) } ?? .nan, time: utcNow()))
                }
                if button == "log", event == .press, let chronicle { send(chronicle.logs.toggle(time: utcNow())) }
                if button == "page" {
                    display.pageButton(event)
                    nextDisplay = 0
                }
            }
        }
    }

    /// Saves what must outlive the process (the history, an open log session).
    func close() { chronicle?.close(time: utcNow()) }

    /// UTC now on the device's one time base, following the GPS's time as fixes come.
    private func utcNow() -> Double {
        if latest.fix.hasPosition, let utc = latest.fix.utc, latest.fix.received != 0,
           deviceClock.gpsTime(utc, receivedAt: latest.fix.received) {
            chronicle?.clockChanged(to: utc)
        }
        return deviceClock.now(clock.now())
    }

    /// Now as ISO-8601 on the device's time base.
    private func stamp() -> String { CivilTime(unixSeconds: utcNow()).iso8601 }

    private func weatherFigures() -> GPSDReports.Weather? {
        guard let weather = chronicle?.weather else { return nil }
        return GPSDReports.Weather(seaLevelPressure: weather.seaLevel, altitudeFused: weather.fused, trend: weather.trendJSON())
    }

    /// The track button: a short press starts or stops the recording, a long one (1 s) pauses
    /// or resumes it. Acting on release keeps a long press from also starting or stopping.
    private func trackButton(_ event: Button.Event, _ tracks: TrackService) {
        switch event {
        case .press:
            break
        case .longPress:
            trackButtonHeld = true
            send(tracks.state == .paused ? tracks.resume() : tracks.pause())
        case .release:
            if !trackButtonHeld { send(tracks.toggle(at: utcNow())) }
            trackButtonHeld = false
        }
    }

    /// ATT at 10 Hz; ENV and MOTION at 1 Hz.
    private func publishPeriodic(_ now: MonotonicNanoseconds) {
        if now >= nextAttitude {
            nextAttitude = now + 100_000_000
            if let nmea { for sentence in nmeaFeed.heading(latest, now: now) { nmea.send(sentence) } }
            if latest.imu != nil {
                send(GPSDReports.att(latest, device: imuDevice, time: deviceClock.iso8601(at: latest.updated), calibration: compass?.status.rawValue,
                                     annotations: annotations()))
            }
        }
        if now >= nextEnvironment {
            nextEnvironment = now + 1_000_000_000
            if let nmea {
                let seaLevel = chronicle.map { $0.weather.seaLevel }.flatMap { $0.isFinite ? $0 : nil }
                for sentence in nmeaFeed.weather(latest, seaLevel: seaLevel) { nmea.send(sentence) }
            }
            if latest.pressure != nil { send(GPSDReports.env(latest, device: barometerDevice, time: latest.pressure.map { deviceClock.iso8601(at: $0.time) } ?? stamp(), weather: weatherFigures())) }
            for report in sky?.tick(latest, time: utcNow(), wallClock: stamp()) ?? [] { send(report) }
            if let chronicle {
                let (reports, alerted) = chronicle.tick(state: latest, time: utcNow(), wallClock: stamp())
                for report in reports { send(report) }
                if alerted { controls?.signal(.alert, at: now) }
            }
            for event in positions?.tick(now: now, time: stamp()) ?? [] { send(event) }
            if let predicted = positions?.bridge(now: now) {
                send(GPSDReports.tpv(predicted, device: gpsDevice, confidence: positions?.confidence))
                if let event = tracks?.add(predicted, state: latest, now: now, time: stamp()) { send(event) }
            }
            if let motion, latest.imu != nil { send(motion.report(time: stamp())) }
            if let waypoints, waypoints.target != nil {
                waypoints.update(latest)
                send(waypoints.report(message: nil))
            }
        }
    }

    /// Draws the display now, whatever its refresh period (the last frame of a screenshot).
    func redrawNow() { redraw(clock.now()) }

    /// The screen, with the heading smoothed for reading.
    private func redraw(_ now: MonotonicNanoseconds) {
        var shown = latest
        if let attitude = latest.attitude {
            let interval = lastDisplay == 0 ? 1 : Double(now &- lastDisplay) / 1e9
            displayHeading.update(heading: attitude.magneticHeading, interval: min(interval, 1))
            lastDisplay = now
            if let smoothed = displayHeading.heading {
                shown.attitude?.magneticHeading = smoothed
                shown.trueHeading = latest.declination.map { Angle.heading(smoothed + $0) }
            }
        }
        // The flip gesture toggles the theme, whichever way it was set before.
        if let motion, motion.nightTheme != flipNight {
            flipNight = motion.nightTheme
            display.theme = display.theme.toggled
        }
        display.draw(displayFeed.model(shown, latest: latest, time: utcNow(), page: display.page), now: now)
    }

    /// Keys on the terminal display; true when the person asked to quit.
    private func handleKeys() -> Bool {
        var quit = false
        for key in display.keys() {
            quit = display.apply(key) || quit
            nextDisplay = 0
        }
        return quit
    }

    private func publishSamples() {
        outputs.magneticRing.drain { sample in
            lastMagnetic = sample
            compass?.add(sample)
        }
        _ = utcNow()   // follows the newest fix's time before samples are stamped
        let resting = motion?.motion == .still
        outputs.pressureRing.drain { sample in
            for report in chronicle?.add(sample, state: latest, confidence: positions?.confidence ?? 100,
                                         time: deviceClock.utc(at: sample.time), resting: resting) ?? [] { send(report) }
        }
        motion?.stamp = stamp()
        let recentFix = latest.fix.hasPosition && latest.fix.speed.isFinite
        outputs.imuRing.drain { sample in
            motion?.add(sample, gpsSpeed: recentFix ? latest.fix.speed : nil)
            send(GPSDReports.imu(sample, magnetic: lastMagnetic, device: imuDevice, time: deviceClock.iso8601(at: sample.time)))
        }
        let now = clock.now()
        let state = motion?.motion ?? .walking
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
            // Outliers are dropped here; what is published and recorded is the filtered position.
            guard let fix = positions.map({ $0.add(raw, motion: state, now: now) }) ?? raw else { return }
            send(GPSDReports.tpv(fix, device: gpsDevice, confidence: positions?.confidence))
            if let event = tracks?.add(fix, state: latest, now: now, time: stamp()) { send(event) }
        }
        outputs.sentenceRing.drain { raw in
            guard server != nil || nmea != nil else { return }
            let sentence = raw.text
            server?.broadcastSentence(sentence, device: gpsDevice)
            if NMEAFeed.passesThrough(sentence) { nmea?.send(sentence) }
        }
        outputs.skyRing.drain { item in
            satellites.append(item.satellite)
            guard item.endsCycle else { return }
            var dops = GPSFix()
            (dops.hdop, dops.pdop, dops.vdop) = (item.hdop, item.pdop, item.vdop)
            let report = GPSDReports.sky(satellites, fix: dops, device: gpsDevice)
            lastSky = report
            send(report)
            satellites.removeAll(keepingCapacity: true)
        }
    }

    private func send(_ line: String) {
        guard let server else { return }
        server.broadcast(line)
    }

    func annotations() -> GPSDReports.AttitudeAnnotations {
        guard let motion else { return GPSDReports.AttitudeAnnotations() }
        return GPSDReports.AttitudeAnnotations(lockedBearing: motion.lock.bearing, deviation: motion.lock.deviation,
                                               offCourse: motion.lock.isOffCourse, level: motion.level.isLevel)
    }

    func taskLines() -> [SchedulerTable.TaskLine] {
        scheduler.taskNames.indices.map { index in
            SchedulerTable.TaskLine(name: scheduler.taskNames[index], statistics: scheduler.taskStatistics[index].read(),
                                budgetMicroseconds: budgets[index])
        }
    }

    private func answer(_ request: ClientRequest) -> [String] {
        switch request {
        case .devices:
            return [GPSDReports.devices(devices(), activated: started)]
        case .poll:
            let time = stamp()
            var w = JSONObjectWriter(class: "POLL")
            w.string("time", time)
            w.integer("active", latest.fix.mode.rawValue >= 2 ? 1 : 0)
            w.raw("tpv", "[" + GPSDReports.tpv(positions?.fix ?? latest.fix, device: gpsDevice, confidence: positions?.confidence) + "]")
            w.raw("att", latest.imu == nil ? "[]" : "[" + GPSDReports.att(latest, device: imuDevice, time: time) + "]")
            w.raw("sky", "[" + (lastSky ?? "") + "]")
            return [w.finished]
        case .calibrate(let argument):
            guard let compass else { return [GPSDReports.error("this board has no magnetometer to calibrate")] }
            if argument?["cancel"]?.boolValue == true {
                compass.cancelGuided()
                return []
            }
            var mode = compass.use == .boat ? CalibrationMode.swing : .figure8
            if let given = argument?["mode"] {
                guard let name = given.stringValue, let chosen = CalibrationMode(rawValue: name) else {
                    return [GPSDReports.error("?CALIBRATE mode must be \"figure8\" or \"swing\"")]
                }
                mode = chosen
            }
            compass.startGuided(at: clock.now(), mode: mode)
            return []
        case .lock(let argument):
            guard let motion else { return [GPSDReports.error("this board has no IMU")] }
            if let bearing = argument?["bearing"] {
                guard let value = bearing.numberValue, (0...360).contains(value) else {
                    return [GPSDReports.error("?LOCK bearing must be a number of degrees from 0 to 360")]
                }
                return [motion.lockBearing(Angle.heading(value))]
            }
            return [motion.lockBearing(nil)]
        case .unlock:
            return motion.map { [$0.unlockBearing()] } ?? [GPSDReports.error("this board has no IMU")]
        case .level(let argument):
            guard let motion else { return [GPSDReports.error("this board has no IMU")] }
            if argument?["clear"]?.boolValue == true { return [motion.zeroLevel(clear: true)] }
            if argument?["zero"]?.boolValue == true { return [motion.zeroLevel(clear: false)] }
            return [motion.report(time: stamp())]
        case .waypoint(let argument):
            return [waypoints?.handle(argument, state: latest) ?? GPSDReports.error("waypoints need a data directory")]
        case .track(let argument):
            guard let tracks else { return [GPSDReports.error("track recording needs a data directory")] }
            let utc = utcNow()
            switch argument?["action"]?.stringValue {
            case "start"?:
                var mode: TrackSampler.Mode?
                if let interval = argument?["interval"] {
                    guard let parsed = TrackSampler.Mode(interval.stringValue ?? interval.numberValue.map { String($0) } ?? "") else {
                        return [GPSDReports.error("?TRACK interval must be 1..30 seconds or \"adaptive\"")]
                    }
                    mode = parsed
                }
                let tags = TrackFile.tags((argument?["tags"]?.arrayValue?.compactMap(\.stringValue) ?? []).joined(separator: ","))
                return [tracks.start(name: argument?["name"]?.stringValue, tags: tags, mode: mode, at: utc)]
            case "pause"?: return [tracks.pause()]
            case "resume"?: return [tracks.resume()]
            case "stop"?: return [tracks.stop()]
            case nil: return [tracks.report(nil)]
            case let other?: return [GPSDReports.error("?TRACK action must be start, pause, resume or stop, not '\(other)'")]
            }
        case .baro(let argument):
            return [chronicle?.weather.handle(argument) ?? GPSDReports.error("this board has no barometer")]
        case .alert(let argument):
            return [chronicle?.alerts.handle(argument) ?? GPSDReports.error("alerts need a data directory")]
        case .log(let argument):
            return [chronicle?.logs.handle(argument, time: utcNow()) ?? GPSDReports.error("logging needs a data directory")]
        case .snapshot(let argument):
            guard let chronicle else { return [GPSDReports.error("snapshots need a data directory")] }
            return [chronicle.takeSnapshot(argument, state: latest, accuracy: positions.map { PositionService.sigma($0.fix) } ?? .nan,
                                           time: utcNow())]
        case .status:
            let overflows = outputs.imuRing.overflows + outputs.magneticRing.overflows + outputs.pressureRing.overflows
                + outputs.fixRing.overflows
            return [GPSDReports.health(latest, loop: scheduler.loopStatistics.read(), tasks: taskLines(),
                                       ringOverflows: overflows, clients: server?.clientCount ?? 0,
                                       droppedClients: server?.droppedSlowClients ?? 0, profile: adaptive?.profile, gpsInterval: adaptive?.rates.gpsInterval,
                                       storage: tracks.map { $0.storageProblem ?? "ok" }, changedAt: { self.deviceClock.iso8601(at: $0) })]
        default:
            return []
        }
    }
}
