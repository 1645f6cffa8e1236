import LodestoneCore
import LodestoneDomain
import LodestoneHAL
import LodestoneOutputs
import LodestoneSim
import LodestoneSampling
import LodestoneServices
import LodestoneSettings
import LodestoneStorage
import LodestoneBoard
import LodestoneReports

/// The outputs a run opens before it samples: the socket (with its TCP listener), NMEA 0183,
/// Signal K and the web app. A failure to open one stops the start, said in the log.
struct OpenedOutputs {
    let server: ReportServer
    let nmea: StreamServer?
    let signalK: SignalKOutput?
    let web: WebOutput?

    static func open(_ c: Configuration, dataDirectory: String) -> OpenedOutputs? {
        let socketPath = c.socket ?? Configuration.defaultSocketPath()
        // Only the default runtime directory is made; a --socket path's directory must exist
        // (a typo must not leave directories behind).
        if c.socket == nil, let slash = socketPath.lastIndex(of: "/"), slash != socketPath.startIndex {
            // Reached by other users' gpsd clients: the socket's own mode says who may connect.
            _ = makeDirectories(String(socketPath[..<slash]), mode: 0o755)
        }
        let server: ReportServer
        do { server = try ReportServer(path: socketPath) } catch {
            Log.error(error.description)
            return nil
        }
        Log.info("serving gpsd JSON on \(socketPath)")
        if let address = c.listen {
            do { try server.listen(tcp: address) } catch {
                Log.error(error.description)
                server.shutdown()
                return nil
            }
            Log.info("serving gpsd JSON on TCP \(address)" + reach(address))
        }
        var nmea: StreamServer?
        if c.nmeaListen != nil || c.nmeaUDP != nil {
            do { nmea = try StreamServer.opened(.nmea, address: c.nmeaListen, udp: c.nmeaUDP) } catch {
                Log.error(error.description)
                server.shutdown()
                return nil
            }
            if let address = c.nmeaListen { Log.info("serving NMEA 0183 on TCP \(address)") }
            if let address = c.nmeaUDP { Log.info("sending NMEA 0183 over UDP to \(address)") }
        }
        let signalK: SignalKOutput?
        do { signalK = try SignalKOutput.opened(address: c.signalKListen, udp: c.signalKUDP, rates: c.signalKRates) } catch {
            Log.error(error.description)
            server.shutdown()
            nmea?.shutdown()
            return nil
        }
        if let address = c.signalKListen { Log.info("serving Signal K deltas on TCP \(address)" + reach(address)) }
        if let address = c.signalKUDP { Log.info("sending Signal K deltas over UDP to \(address)") }
        var web: WebOutput?
        if let address = c.httpListen {
            do {
                var settings = WebServer.Settings()
                (settings.connectionsPerAddress, settings.streamsPerAddress) = (c.httpConnectionsPerAddress, c.httpStreamsPerAddress)
                web = try WebOutput(
                    listen: address, access: c.httpAccess, names: c.httpNames.flatMap(WebHostNames.parse) ?? [], dataDirectory: dataDirectory,
                    settings: settings, pairingAttempts: c.httpPairingAttempts)
            } catch {
                Log.error(error.description)
                server.shutdown()
                nmea?.shutdown()
                signalK?.server.shutdown()
                return nil
            }
            Log.info(
                "serving the web app on http://\(web?.reachedAt ?? address)/ (access \(c.httpAccess.rawValue)"
                    + (c.httpAccess == .paired ? ": pair a browser with 'lodestone web pair')" : "; actions need a pairing)"))
        }
        return OpenedOutputs(server: server, nmea: nmea, signalK: signalK, web: web)
    }

    /// What a listening address lets in, for the log.
    static func reach(_ address: String) -> String {
        let host = NetworkAddress.parse(address)?.host ?? address
        return NetworkAddress.isLoopback(host) ? "" : ": reachable from the network, with no authentication"
    }

    func shutdown() {
        server.shutdown()
        nmea?.shutdown()
        signalK?.server.shutdown()
        web?.server.shutdown()
    }
}

extension Runner {
    static func loadAccelerometerCalibration(into pipeline: SensorPipeline, dataDirectory: String) {
        guard let accelerometer = CalibrationStore(dataDirectory: dataDirectory).loadAccelerometer() else { return }
        pipeline.accelerometerCalibration.publish(accelerometer)
        Log.info("accelerometer calibration loaded")
    }

    /// The sampling thread, at the configured real-time priority; nil when it cannot start.
    static func startSampling<Clock: MonotonicClock>(
        _ scheduler: FixedRateScheduler<Clock>, configuration c: Configuration,
        stop: StopSignal, recording: RunRecording? = nil
    ) -> LoopThread? {
        let options = RealTimeOptions(
            fifoPriority: c.realTimePriority.map { Int32($0) }, cpu: c.cpu,
            lockMemory: c.lockMemory, timerSlackNanoseconds: 1,
            keepCPUAwake: c.keepCPUAwake)
        let sampling = LoopThread()
        let started = sampling.start(name: "sampling") {
            recording?.claim()
            let outcome = RealTime.apply(options)
            for message in outcome.messages { Log.info(message) }
            scheduler.run(until: stop.requested)
        }
        guard started else {
            Log.error("could not start the sampling thread: the system is out of threads or memory")
            return nil
        }
        return sampling
    }

    /// The display the configuration names (the board file's by default), or the picture a
    /// screenshot draws into.
    static func openDisplay(_ c: Configuration, board: BoardDescription) throws(FramebufferError) -> DisplayTarget {
        let display: DisplayTarget
        if let picture = c.picture {
            let frame = MemoryFramebuffer(width: picture.width, height: picture.height, format: picture.format)
            display = DisplayTarget(
                .framebuffer(frame, back: MemoryFramebuffer(like: frame), screenshot: nil), page: c.page, theme: c.theme, units: c.units, north: c.north)
        } else {
            display = try DisplayTarget.open(c.display ?? board.display, page: c.page, theme: c.theme, units: c.units, north: c.north)
        }
        display.language = c.language
        return display
    }

    /// The output thread's services for what the board has.
    static func makeServices(
        _ c: Configuration, board: BoardDescription, pipeline: SensorPipeline, clock: any MonotonicClock,
        gpsPath: String?, gpio: (wiring: BoardDescription.GPIOWiring, provider: any GPIOLineProvider)?,
        station: WeatherStation?, dataDirectory: String, startUTC: Double?, zone: (current: DeviceZone.Choice, unset: DeviceZone.Choice)
    ) -> OutputServices {
        let localClock = LocalClock(zone: DeviceZone.rules(zone.current.name), twelveHour: c.clock == .h12)
        let services = OutputServices(
            controls: gpio.map { gpio in
                let controls = Controls(wiring: gpio.wiring, provider: gpio.provider)
                controls.sounds = c.sounds
                return controls
            },
            compass: board.magnetometer == nil ? nil : CompassService(pipeline: pipeline, use: c.compassUse, dataDirectory: dataDirectory, now: clock.now()),
            motion: board.imu == nil ? nil : MotionService(dataDirectory: dataDirectory),
            positions: gpsPath == nil ? nil : PositionService(),
            tracks: TrackService(
                store: TrackStore(dataDirectory: dataDirectory), mode: c.trackInterval,
                autoPause: (c.autoPauseSpeed, c.autoPauseSeconds)),
            waypoints: WaypointService(store: WaypointStore(dataDirectory: dataDirectory)),
            chronicle: Chronicle(dataDirectory: dataDirectory, qnh: c.qnh, now: OutputClock.unixTime()),
            sky: SkyService(clock: localClock, observer: c.observer.map { ($0.latitude, $0.longitude) }),
            activity: board.imu == nil ? nil : DailyActivity(clock: localClock, dataDirectory: dataDirectory, now: startUTC ?? OutputClock.unixTime()),
            satellites: c.satelliteTLE.flatMap { SatelliteService(file: $0, satellite: c.satelliteName, alertMinutes: c.satelliteAlertMinutes) },
            transit: TransitService(dataDirectory: dataDirectory),
            station: station.map {
                StationService(
                    station: $0, wiring: board.station, clock: clock,
                    gpioChip: board.gpio?.chip ?? (board.simulated ? "sim:gpiochip0" : "/dev/gpiochip0"),
                    bus: board.i2c)
            }, localClock: localClock)
        (services.zone, services.unsetZone) = zone
        services.chronicle?.station = services.station
        services.motion?.flipAction = c.flipAction
        services.transit?.nearestWithin = c.nearestStopWithinKm * 1000
        services.transit?.localClock = localClock
        services.photos = camera(board).map { PhotoService(camera: $0, store: PhotoStore(dataDirectory: dataDirectory)) }
        return services
    }

    /// The board's camera, streaming; nil (said) when it names none or it cannot be opened.
    static func camera(_ board: BoardDescription) -> (any Camera)? {
        guard let wiring = board.camera else { return nil }
        if wiring.device == "sim" {
            guard board.simulated else {
                Log.error("camera \"sim\" is the simulated board's; give a V4L2 device such as /dev/video0: no photos")
                return nil
            }
            return SimulatedCamera(width: wiring.width, height: wiring.height)
        }
        do {
            let camera = try V4L2Camera(path: wiring.device, width: wiring.width, height: wiring.height)
            Log.info("camera \(wiring.device): \(camera.format.rawValue) \(camera.width)x\(camera.height), streaming")
            return camera
        } catch {
            Log.error("camera: \(error.description); no photos")
            return nil
        }
    }

    /// The theme and units a key chose last time, unless the command line says otherwise, and
    /// the last fix's place for the sky until a fix comes.
    static func restoreMemory(
        display: DisplayTarget, services: OutputServices, configuration c: Configuration,
        dataDirectory: String
    ) -> DeviceMemoryFile {
        let memory = DeviceMemoryFile(dataDirectory: dataDirectory)
        if let saved = memory.displayChoice() {
            if !c.commandLineDisplay.contains("theme") { display.theme = saved.theme }
            if !c.commandLineDisplay.contains("units") { display.units = saved.units }
        }
        if let last = memory.lastPosition() { services.sky?.lastKnown = (last.latitude, last.longitude, last.time) }
        return memory
    }

    /// `lodestone screenshot`'s last frame, drawn now and written as a PNG; false when it
    /// could not be written (said in the log).
    static func writePicture<Clock: MonotonicClock>(_ picture: Configuration.Picture, of display: DisplayTarget, loop: OutputLoop<Clock>) -> Bool {
        guard case .framebuffer(let frame, let back, _) = display.output else { return true }
        if picture.layoutPath != nil { (back.textRuns, back.drawnBoxes) = ([], []) }
        loop.displayDriver.redrawNow()
        do {
            try replaceFile(picture.path, with: PNGEncoder.encode(frame))
            if let layout = picture.layoutPath {
                let document = TextLayoutJSON.document(
                    page: display.page.rawValue, width: back.width, height: back.height, runs: back.textRuns ?? [], drawings: back.drawnBoxes ?? [])
                try replaceFile(layout, with: Array((document + "\n").utf8))
            }
            return true
        } catch {
            Log.error(error.description)
            return false
        }
    }

    /// `--stats`: both task tables and the loop's figures.
    static func printStatistics<Clock: MonotonicClock>(_ loop: OutputLoop<Clock>, scheduler: FixedRateScheduler<Clock>) {
        writeOut("sampling thread:\n" + SchedulerTable.text(loop.taskLines()) + "\n")
        writeOut("output thread:\n" + SchedulerTable.text(loop.outputTaskLines()) + "\n")
        let l = scheduler.currentLoopStatistics
        writeOut(
            "loop \(fixed(l.rateHz, 0)) Hz: \(l.ticks) ticks, \(l.overruns) overruns, wake-up lateness p50 "
                + "\(fixed(scheduler.latenessPercentile(0.5), 0)) us p99 \(fixed(scheduler.latenessPercentile(0.99), 0)) us\n")
    }
}
