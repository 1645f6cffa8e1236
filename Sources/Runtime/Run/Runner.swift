import Glibc
import LodestoneCore
import LodestoneDomain
import LodestoneHAL
import LodestoneOutputs
import LodestoneReports
import LodestoneSim

/// What the referee (`lodestone verify`) is told of a run it watches.
public protocol RunObserver: AnyObject, Sendable {
    /// The simulated trip has started: its world, and the clock the device lives on.
    func simulationStarted(world: SimulatedWorld, clock: any MonotonicClock)
    /// The socket is served; `stop` ends the run.
    func outputsStarted(stop: @escaping @Sendable () -> Void)
}

/// `lodestone run`: builds the board, starts the sampling thread, and serves outputs on the
/// calling thread until a signal, the duration, or a fatal error.
public enum Runner {
    /// Takes the data directory for this run: its lock (a second run on it is refused with the
    /// first one's process id), and its files made private where an earlier version left them
    /// looser. A lock that cannot be taken on a read-only folder is said and the run goes on.
    static func ownDataDirectory(_ directory: String) -> (lock: DataDirectoryLock?, refused: Bool) {
        switch DataDirectoryLock.take(dataDirectory: directory) {
        case .success(let lock):
            let tightened = PrivateFolder.tighten(directory)
            if tightened > 0 {
                Log.info("made \(tightened) files and folders in \(directory) private to their owner (folders 0700, files 0600)")
            }
            return (lock, false)
        case .failure(let refusal):
            switch refusal {
            case .held:
                Log.error(refusal.description + ": stop it first, or give this run another --data-dir")
                return (nil, true)
            case .refused(let reason):
                Log.error(reason)
                return (nil, true)
            case .unusable(let reason):
                Log.warning(reason + "; running without the data directory's lock")
                return (nil, false)
            }
        }
    }

    /// Exit status: 0 after a clean stop, 1 when the runtime could not start.
    public static func run(_ configuration: Configuration, board given: BoardDescription? = nil,
                           observer: (any RunObserver)? = nil, reload: ConfigurationReload? = nil) -> Int32 {
        let stop = StopSignal()   // before any thread starts, so all inherit the blocked signals
        let board: BoardDescription
        if let given {
            board = given
        } else if configuration.board == "sim" {
            board = .simulatedBoard
        } else {
            do { board = try BoardDescription.load(file: configuration.board) } catch {
                Log.error(error.description)
                return 1
            }
        }
        let dataDirectory = configuration.dataDir ?? Configuration.defaultDataDirectory()
        var lock: DataDirectoryLock?
        if !makeDirectories(dataDirectory) {
            Log.warning("cannot create data directory \(dataDirectory): calibration, tracks and logs will not be kept; give --data-dir")
        } else {
            let owned = ownDataDirectory(dataDirectory)
            if owned.refused { return 1 }
            lock = owned.lock
        }
        defer { withExtendedLifetime(lock) {} }
        if board.simulated {
            guard let scenario = ScenarioName(rawValue: configuration.scenario) else {
                Log.error("unknown scenario '\(configuration.scenario)': use one of \(ScenarioName.list)")
                return 1
            }
            // Faster than real time, the device lives on the trip's own clock, so nothing it
            // computes can tell the speed (see `SimulationClock`); at speed 1 it is the real one.
            if configuration.speed == 1 {
                let clock = SystemMonotonicClock()
                return runSimulated(board: board, scenario: scenario, configuration: configuration, clock: clock,
                                    pacer: clock, halt: {}, observer: observer, stop: stop, reload: reload)
            }
            let clock = SimulationClock(speed: configuration.speed)
            return runSimulated(board: board, scenario: scenario, configuration: configuration, clock: clock,
                                pacer: clock.pacer, halt: clock.halt, observer: observer, stop: stop, reload: reload)
        }
        let clock = SystemMonotonicClock()
        // A bus that is not there yet does not stop the start: the sensors on it are reported
        // failing with the reason, and start when it appears (i2c-dev loaded late).
        var buses: [String: ReopeningI2CBus] = [:]
        for chip in [board.imu, board.magnetometer, board.barometer].compactMap({ $0 }) {
            let path = board.bus(of: chip)
            if buses[path] != nil { continue }
            let bus = ReopeningI2CBus(path: path)
            if let problem = bus.openingError { Log.warning(problem.description + "; the sensors on it start when it can be opened") }
            buses[path] = bus
        }
        let serial = board.gpsPort.map { ReconnectingSerialPort(path: $0, baudRate: board.gpsBaud, clock: clock) }
        if let serial, let problem = serial.lastError {
            Log.warning(problem.description + "; retrying every few seconds")
        }
        var gpio: (wiring: BoardDescription.GPIOWiring, provider: any GPIOLineProvider)?
        if let wiring = board.gpio {
            do { gpio = (wiring, try LinuxGPIOChip(path: wiring.chip)) } catch {
                Log.warning(error.description + "; running without buttons, buzzer and LED")
            }
        }
        let pipeline = BoardWiring.pipeline(board: board, bus: { buses[$0] }, gps: serial, clock: clock,
                                            qnh: configuration.qnh, gpio: gpio?.provider,
                                                imuRateHz: configuration.imuRateHz)
        return serve(pipeline: pipeline, gpsPath: board.gpsPort, board: board, clock: clock, configuration: configuration,
                     stop: stop, gpio: gpio, startUTC: nil, observer: observer, reload: reload,
                     station: WeatherStation.onBoard(board, gpio: gpio?.provider, clock: clock))
    }

    /// The simulated board on a clock: `clock` for every thread's reading, `pacer` for the
    /// sampling loop that drives it.
    static func runSimulated<Pacer: MonotonicClock>(board: BoardDescription, scenario: ScenarioName, configuration: Configuration,
                                                    clock: any MonotonicClock, pacer: Pacer, halt: @escaping () -> Void,
                                                    observer: (any RunObserver)?, stop: StopSignal,
                                                    reload: ConfigurationReload? = nil) -> Int32 {
        let simulated: SimulatedBoard
        do {
            simulated = try SimulatedBoard(board: board, scenario: scenario, clock: clock, configuration: configuration)
        } catch {
            Log.error(error.description)
            return 1
        }
        Log.info("simulated board, scenario \(scenario.rawValue): \(scenario.summary); GPS on \(simulated.gps.devicePath)"
                 + (configuration.speed == 1 ? "" : " (speed \(configuration.speed))")
                 + configuration.faults.map { "; fault \($0.description)" }.joined())
        observer?.simulationStarted(world: simulated.world, clock: clock)
        simulated.gps.start(clock: clock)
        defer {
            halt()   // the sampling loop has stopped: let the receiver's thread see time is over
            simulated.gps.stop()
        }
        let serial = ReconnectingSerialPort(path: simulated.gps.devicePath, baudRate: board.gpsBaud, clock: pacer)
        // A simulated board's buttons and buzzer are lines nobody presses or hears.
        let gpio = board.gpio.map { (wiring: $0, provider: SimulatedGPIO() as any GPIOLineProvider) }
        let pipeline = BoardWiring.pipeline(board: board, bus: { _ in simulated.bus }, gps: serial, clock: pacer,
                                            qnh: configuration.qnh, gpio: gpio?.provider,
                                            imuRateHz: configuration.imuRateHz)
        return serve(pipeline: pipeline, gpsPath: simulated.gps.devicePath, board: board, clock: pacer,
                     configuration: configuration, stop: stop, gpio: gpio, trip: clock as? SimulationClock,
                     setGPSInterval: { simulated.gps.setFixInterval($0) },
                     startUTC: simulated.world.scenario.startUTC + simulated.world.elapsed, observer: observer, reload: reload,
                     station: WeatherStation.simulated(board, world: simulated.world, clock: clock, seed: configuration.seed,
                                                       speed: configuration.speed))
    }

    /// - Parameters:
    ///   - startUTC: UTC now on the simulated board (its trip's time); nil on a real one.
    ///   - trip: the trip's own clock when a simulated trip runs faster than real time.
    static func serve<Clock: MonotonicClock>(pipeline: SensorPipeline, gpsPath: String?, board: BoardDescription, clock: Clock,
                                             configuration c: Configuration, stop: StopSignal,
                                             gpio: (wiring: BoardDescription.GPIOWiring, provider: any GPIOLineProvider)?,
                                             trip: SimulationClock? = nil,
                                             setGPSInterval: ((Double) -> Void)? = nil, startUTC: Double?,
                                             observer: (any RunObserver)?, reload: ConfigurationReload? = nil,
                                             station: WeatherStation? = nil) -> Int32 {
        let store = CalibrationStore(dataDirectory: c.dataDir ?? Configuration.defaultDataDirectory())
        if let accelerometer = store.loadAccelerometer() {
            pipeline.accelerometerCalibration.publish(accelerometer)
            Log.info("accelerometer calibration loaded")
        }
        let tasks = TaskTable.tasks(for: pipeline, configuration: c)
        let scheduler: FixedRateScheduler<Clock>
        do { scheduler = try FixedRateScheduler(loopRateHz: c.loopRateHz, tasks: tasks, clock: clock) } catch {
            Log.error(error.description)
            return 1
        }
        let socketPath = c.socket ?? Configuration.defaultSocketPath()
        var server: ReportServer?
        // Only the default runtime directory is made; a --socket path's directory must exist
        // (a typo must not leave directories behind).
        if c.socket == nil, let slash = socketPath.lastIndex(of: "/"), slash != socketPath.startIndex {
            // Reached by other users' gpsd clients: the socket's own mode says who may connect.
            _ = makeDirectories(String(socketPath[..<slash]), mode: 0o755)
        }
        do { server = try ReportServer(path: socketPath) } catch {
            Log.error(error.description)
            return 1
        }
        Log.info("serving gpsd JSON on \(socketPath)")
        if let address = c.listen {
            do { try server?.listen(tcp: address) } catch {
                Log.error(error.description)
                return 1
            }
            let host = NetworkAddress.parse(address)?.host ?? address
            Log.info("serving gpsd JSON on TCP \(address)" + (NetworkAddress.isLoopback(host) ? "" : ": reachable from the network, with no authentication"))
        }
        var nmeaServer: StreamServer?
        if c.nmeaListen != nil || c.nmeaUDP != nil {
            do { nmeaServer = try StreamServer.opened(.nmea, address: c.nmeaListen, udp: c.nmeaUDP) } catch {
                Log.error(error.description)
                return 1
            }
            if let address = c.nmeaListen { Log.info("serving NMEA 0183 on TCP \(address)") }
            if let address = c.nmeaUDP { Log.info("sending NMEA 0183 over UDP to \(address)") }
        }
        var signalK: SignalKOutput?
        do { signalK = try SignalKOutput.opened(address: c.signalKListen, udp: c.signalKUDP, rates: c.signalKRates) } catch {
            Log.error(error.description)
            return 1
        }
        if let address = c.signalKListen {
            let host = NetworkAddress.parse(address)?.host ?? address
            Log.info("serving Signal K deltas on TCP \(address)" + (NetworkAddress.isLoopback(host) ? "" : ": reachable from the network, with no authentication"))
        }
        if let address = c.signalKUDP { Log.info("sending Signal K deltas over UDP to \(address)") }

        let options = RealTimeOptions(fifoPriority: c.realTimePriority.map { Int32($0) }, cpu: c.cpu,
                                      lockMemory: c.lockMemory, timerSlackNanoseconds: 1,
                                      keepCPUAwake: c.keepCPUAwake)
        let sampling = LoopThread()
        let started = sampling.start(name: "sampling") {
            let outcome = RealTime.apply(options)
            for message in outcome.messages { Log.info(message) }
            scheduler.run(until: stop.requested)
        }
        guard started else {
            Log.error("could not start the sampling thread: the system is out of threads or memory")
            return 1
        }
        let display: DisplayTarget
        do {
            if let picture = c.picture {
                let frame = MemoryFramebuffer(width: picture.width, height: picture.height, format: picture.format)
                display = DisplayTarget(.framebuffer(frame, back: MemoryFramebuffer(like: frame), screenshot: nil), page: c.page, theme: c.theme, units: c.units)
            } else {
                display = try DisplayTarget.open(c.display ?? board.display, page: c.page, theme: c.theme, units: c.units)
            }
        } catch {
            Log.error(error.description)
            stop.request()
            sampling.join()
            server?.shutdown()
            return 1
        }
        let devices = {
            let state = pipeline.state.read()
            return deviceList(board: board, state: state, gpsPath: gpsPath, problems: pipeline.problems)
        }
        let dataDirectory = c.dataDir ?? Configuration.defaultDataDirectory()
        let services = OutputServices(
            controls: gpio.map { gpio in
                let controls = Controls(wiring: gpio.wiring, provider: gpio.provider)
                controls.sounds = c.sounds
                return controls
            },
            compass: board.magnetometer == nil ? nil : CompassService(pipeline: pipeline, use: c.compassUse, dataDirectory: dataDirectory, now: clock.now()),
            motion: board.imu == nil ? nil : MotionService(dataDirectory: dataDirectory),
            positions: gpsPath == nil ? nil : PositionService(),
            tracks: TrackService(store: TrackStore(dataDirectory: dataDirectory), mode: c.trackInterval),
            waypoints: WaypointService(store: WaypointStore(dataDirectory: dataDirectory)),
            chronicle: Chronicle(dataDirectory: dataDirectory, qnh: c.qnh, now: OutputClock.unixTime()),
            sky: SkyService(zone: (try? TimeZoneRules(c.timeZone)) ?? .utc, observer: c.observer.map { ($0.latitude, $0.longitude) }),
            activity: board.imu == nil ? nil : DailyActivity(zone: (try? TimeZoneRules(c.timeZone)) ?? .utc, dataDirectory: dataDirectory,
                                                             now: startUTC ?? OutputClock.unixTime()),
            satellites: c.satelliteTLE.flatMap { SatelliteService(file: $0, satellite: c.satelliteName, alertMinutes: c.satelliteAlertMinutes) },
            transit: TransitService(dataDirectory: dataDirectory),
            station: station.map { StationService(station: $0, wiring: board.station, clock: clock,
                                                  gpioChip: board.gpio?.chip ?? (board.simulated ? "sim:gpiochip0" : "/dev/gpiochip0"),
                                                  bus: board.i2c) })
        services.chronicle?.station = services.station
        services.motion?.flipAction = c.flipAction
        station?.start()
        defer { station?.stop() }
        let loop = OutputLoop(outputs: pipeline, scheduler: scheduler, budgets: TaskTable.budgets(tasks), server: server,
                              display: display, stop: stop, deviceName: board.name, devices: devices, services: services,
                              adaptive: c.adaptiveSampling
                                  ? AdaptiveService(scheduler: scheduler, pipeline: pipeline, configuration: c, setGPSInterval: setGPSInterval) : nil,
                              nmea: nmeaServer,
                              deviceClock: DeviceClock(utc: startUTC ?? OutputClock.unixTime(), at: clock.now()),
                              pollMilliseconds: Int32(max(1, (20 / c.speed).rounded())))
        for problem in services.controls?.problems ?? [] { Log.warning(problem + "; running without it") }
        // --duration is real time (a run at speed 60 for 60 s covers an hour of the trip);
        // the referee's trips end on the device's own clock.
        let wallClock = SystemMonotonicClock()
        let deadline = c.duration.map { wallClock.now() + UInt64($0 * 1e9) }
        let tripEnd = c.tripDuration.map { clock.now() + UInt64($0 * 1e9) }
        // The output thread acts on the trip's time as the receiver does: it holds the clock
        // from here (and lets go when its loop ends, before the sampling thread is joined).
        loop.timeHolder = trip?.follower()
        observer?.outputsStarted(stop: { stop.request() })
        loop.running = c
        // The theme and units a key chose last time, unless the command line says otherwise;
        // the last fix's place for the sky until a fix comes (a screenshot uses neither).
        if c.picture == nil {
            let memory = DeviceMemoryFile(dataDirectory: dataDirectory)
            if let saved = memory.displayChoice() {
                if !c.commandLineDisplay.contains("theme") { display.theme = saved.theme }
                if !c.commandLineDisplay.contains("units") { display.units = saved.units }
            }
            loop.memory = memory
            loop.savedDisplay = DeviceMemoryFile.DisplayChoice(theme: display.theme, units: display.units)
            if let last = memory.lastPosition() { services.sky?.lastKnown = (last.latitude, last.longitude, last.time) }
        }
        loop.signalK = signalK
        if let settings = c.mqtt {
            loop.mqtt = MQTTFeed(settings: settings, dataDirectory: dataDirectory, now: OutputClock.unixTime())
            Log.info("publishing to the MQTT broker at \(settings.broker) under \(settings.topicPrefix)/\(settings.deviceName)/")
        }
        loop.reload = reload
        // The sensors are open and the socket serves: a Type=notify service is ready now.
        let notifier = ServiceNotifier()
        loop.service = ServiceManagerLink(notifier: notifier)
        notifier?.send("READY=1\nSTATUS=started")
        let reason = loop.run(until: deadline, wallClock: wallClock, tripEnd: tripEnd)
        notifier?.send("STOPPING=1")
        if let picture = c.picture, case .framebuffer(let frame, _, _) = display.output {
            loop.redrawNow()
            do {
                try replaceFile(picture.path, with: PNGEncoder.encode(frame))
            } catch {
                Log.error(error.description)
                loop.close()
                stop.request()
                sampling.join()
                server?.shutdown()
                return 1
            }
        }
        display.showStopped(utc: loop.utcNow())
        loop.close()
        stop.request()
        sampling.join()
        server?.shutdown()
        nmeaServer?.shutdown()
        Log.info("stopped (\(reason))")
        if c.stats {
            writeOut("sampling thread:\n" + SchedulerTable.text(loop.taskLines()) + "\n")
            writeOut("output thread:\n" + SchedulerTable.text(loop.outputTaskLines()) + "\n")
            let l = scheduler.currentLoopStatistics
            writeOut("loop \(fixed(l.rateHz, 0)) Hz: \(l.ticks) ticks, \(l.overruns) overruns, wake-up lateness p50 "
                     + "\(fixed(scheduler.latenessPercentile(0.5), 0)) us p99 \(fixed(scheduler.latenessPercentile(0.99), 0)) us\n")
        }
        return 0
    }

    static func deviceList(board: BoardDescription, state: NavigationState, gpsPath: String?, problems: SensorProblems) -> [DeviceEntry] {
        var list: [DeviceEntry] = []
        func problem(_ sensor: SensorProblems.Sensor, _ health: SensorHealth) -> String? {
            health == .degraded ? problems.problem(sensor)?.description : nil
        }
        if let imu = board.imu {
            list.append(.init(path: "\(board.bus(of: imu))@\(hexByte(imu.address))", driver: imu.chip.uppercased(), health: state.imuHealth,
                              role: .imu, error: problem(.imu, state.imuHealth)))
        }
        if let mag = board.magnetometer {
            list.append(.init(path: "\(board.bus(of: mag))@\(hexByte(mag.address))", driver: mag.chip.uppercased(), health: state.magnetometerHealth,
                              role: .magnetometer, error: problem(.magnetometer, state.magnetometerHealth)))
        }
        if let baro = board.barometer {
            list.append(.init(path: "\(board.bus(of: baro))@\(hexByte(baro.address))", driver: baro.chip.uppercased(), health: state.barometerHealth,
                              role: .barometer, error: problem(.barometer, state.barometerHealth)))
        }
        if let gpsPath { list.append(.init(path: gpsPath, driver: "NMEA0183", health: state.gpsHealth, role: .gps)) }
        return list
    }
}
