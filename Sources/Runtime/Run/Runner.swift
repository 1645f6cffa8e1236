import Glibc
import LodestoneCore
import LodestoneDomain
import LodestoneHAL
import LodestoneOutputs
import LodestoneReports
import LodestoneSim
import LodestoneSampling
import LodestoneServices
import LodestoneSettings
import LodestoneStorage
import LodestoneBoard

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
            // Holding the lock, the run is the folder's one writer: what a killed write left is stale.
            let stale = StaleTemporaries.remove(under: directory)
            if !stale.isEmpty {
                Log.info("removed \(stale.count) temporary files an interrupted write left in \(directory): \(stale.prefix(3).joined(separator: ", "))")
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
    public static func run(
        _ configuration: Configuration, board given: BoardDescription? = nil,
        observer: (any RunObserver)? = nil, reload: ConfigurationReload? = nil
    ) -> Int32 {
        let stop = StopSignal()  // before any thread starts, so all inherit the blocked signals
        let board: BoardDescription
        if let given {
            board = given
        } else if configuration.board == "sim" {
            // An unknown scenario is refused below, with the list of the known ones.
            board = ScenarioName(rawValue: configuration.scenario).map(BoardDescription.simulatedBoard(in:)) ?? .simulatedBoard
        } else {
            do { board = try BoardDescription.load(file: configuration.board) } catch {
                Log.error(error.description)
                return 1
            }
        }
        let recording = configuration.recordPath.map {
            RunRecording(
                path: $0, maximumMB: configuration.recordMaxMB, board: board,
                boardText: given == nil && configuration.board != "sim" ? try? readTextFile(BoardDescription.find(configuration.board)) : nil)
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
                return runSimulated(
                    board: board, scenario: scenario, configuration: configuration, clock: clock,
                    pacer: clock, halt: {}, observer: observer, stop: stop, reload: reload, recording: recording)
            }
            let clock = SimulationClock(speed: configuration.speed)
            return runSimulated(
                board: board, scenario: scenario, configuration: configuration, clock: clock,
                pacer: clock.pacer, halt: clock.halt, observer: observer, stop: stop, reload: reload, recording: recording)
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
        let station = WeatherStation.onBoard(board, gpio: gpio?.provider, clock: clock)
        if let recording {
            let recorded = recording.clock(clock)
            let pipeline = BoardWiring.pipeline(
                board: board, bus: { path in buses[path].map { recording.bus($0, path: path) } }, gps: serial.map(recording.serial),
                clock: recorded, qnh: configuration.qnh, gpio: gpio?.provider,
                imuRateHz: configuration.imuRateHz, line: recording.line)
            return serve(
                pipeline: pipeline, gpsPath: board.gpsPort, board: board, clock: recorded, configuration: configuration,
                stop: stop, gpio: gpio, startUTC: nil, observer: observer, reload: reload, station: station, recording: recording)
        }
        let pipeline = BoardWiring.pipeline(
            board: board, bus: { buses[$0] }, gps: serial, clock: clock,
            qnh: configuration.qnh, gpio: gpio?.provider,
            imuRateHz: configuration.imuRateHz)
        return serve(
            pipeline: pipeline, gpsPath: board.gpsPort, board: board, clock: clock, configuration: configuration,
            stop: stop, gpio: gpio, startUTC: nil, observer: observer, reload: reload, station: station)
    }

    /// The simulated board on a clock: `clock` for every thread's reading, `pacer` for the
    /// sampling loop that drives it.
    static func runSimulated<Pacer: MonotonicClock>(
        board: BoardDescription, scenario: ScenarioName, configuration: Configuration,
        clock: any MonotonicClock, pacer: Pacer, halt: @escaping () -> Void,
        observer: (any RunObserver)?, stop: StopSignal,
        reload: ConfigurationReload? = nil, recording: RunRecording? = nil
    ) -> Int32 {
        let simulated: SimulatedBoard
        do {
            simulated = try SimulatedBoard(board: board, scenario: scenario, clock: clock, configuration: configuration)
        } catch {
            Log.error(error.description)
            return 1
        }
        Log.info(
            "simulated board, scenario \(scenario.rawValue): \(scenario.summary); GPS on \(simulated.gps.devicePath)"
                + (configuration.speed == 1 ? "" : " (speed \(configuration.speed))")
                + configuration.faults.map { "; fault \($0.description)" }.joined())
        observer?.simulationStarted(world: simulated.world, clock: clock)
        simulated.gps.start(clock: clock)
        defer {
            halt()  // the sampling loop has stopped: let the receiver's thread see time is over
            simulated.gps.stop()
        }
        let serial = ReconnectingSerialPort(path: simulated.gps.devicePath, baudRate: board.gpsBaud, clock: pacer)
        // A simulated board's buttons and buzzer are lines nobody presses or hears.
        let gpio = board.gpio.map { (wiring: $0, provider: SimulatedGPIO() as any GPIOLineProvider) }
        // A board file that wires a pulse line gets the simulated receiver's pulse on it.
        let pulse = board.gpsPPSLine.map { _ in SimulatedPulse(world: simulated.world) as any DigitalInput }
        let startUTC = simulated.world.scenario.startUTC + simulated.world.elapsed
        let station = WeatherStation.simulated(board, world: simulated.world, clock: clock, seed: configuration.seed, speed: configuration.speed)
        if let recording {
            let recorded = recording.clock(pacer)
            let pipeline = BoardWiring.pipeline(
                board: board, bus: { path in recording.bus(simulated.bus, path: path) }, gps: recording.serial(serial), clock: recorded,
                qnh: configuration.qnh, gpio: gpio?.provider,
                imuRateHz: configuration.imuRateHz, pulse: pulse, line: recording.line)
            return serve(
                pipeline: pipeline, gpsPath: simulated.gps.devicePath, board: board, clock: recorded,
                configuration: configuration, stop: stop, gpio: gpio, trip: clock as? SimulationClock,
                setGPSInterval: { simulated.gps.setFixInterval($0) },
                startUTC: startUTC, observer: observer, reload: reload, station: station, recording: recording)
        }
        let pipeline = BoardWiring.pipeline(
            board: board, bus: { _ in simulated.bus }, gps: serial, clock: pacer,
            qnh: configuration.qnh, gpio: gpio?.provider,
            imuRateHz: configuration.imuRateHz, pulse: pulse)
        return serve(
            pipeline: pipeline, gpsPath: simulated.gps.devicePath, board: board, clock: pacer,
            configuration: configuration, stop: stop, gpio: gpio, trip: clock as? SimulationClock,
            setGPSInterval: { simulated.gps.setFixInterval($0) },
            startUTC: startUTC, observer: observer, reload: reload, station: station)
    }

    /// The run itself, step by step: the calibration, the sampling thread's table, the
    /// outputs, the sampling thread, the display, the services, the output loop until a stop.
    /// - Parameters:
    ///   - startUTC: UTC now on the simulated board (its trip's time); nil on a real one.
    ///   - trip: the trip's own clock when a simulated trip runs faster than real time.
    static func serve<Clock: MonotonicClock>(
        pipeline: SensorPipeline, gpsPath: String?, board: BoardDescription, clock: Clock,
        configuration c: Configuration, stop: StopSignal,
        gpio: (wiring: BoardDescription.GPIOWiring, provider: any GPIOLineProvider)?,
        trip: SimulationClock? = nil,
        setGPSInterval: ((Double) -> Void)? = nil, startUTC: Double?,
        observer: (any RunObserver)?, reload: ConfigurationReload? = nil,
        station: WeatherStation? = nil, recording: RunRecording? = nil, ledger: (any HandoverLedger)? = nil,
        lockstep: Lockstep? = nil
    ) -> Int32 {
        let dataDirectory = c.dataDir ?? Configuration.defaultDataDirectory()
        loadAccelerometerCalibration(into: pipeline, dataDirectory: dataDirectory)
        let tasks = TaskTable.tasks(for: pipeline, configuration: c)
        let scheduler: FixedRateScheduler<Clock>
        do { scheduler = try FixedRateScheduler(loopRateHz: c.loopRateHz, tasks: tasks, clock: clock) } catch {
            Log.error(error.description)
            return 1
        }
        guard let outputs = OpenedOutputs.open(c, dataDirectory: dataDirectory) else { return 1 }
        // The device's time base: UTC at a reading of its clock (a recording keeps the pair).
        let startUTC = startUTC ?? OutputClock.unixTime()
        var reportLines: ReportLines?
        if let path = c.reportsPath {
            do { reportLines = try ReportLines(path: path) } catch {
                Log.error(error.description)
                outputs.shutdown()
                return 1
            }
        }
        // The one zone every face shows; a recording names it, so a replay shows the same times.
        let remembered = DeviceMemoryFile(dataDirectory: dataDirectory).timeZone()
        let zone = DeviceZone.resolve(c, simulated: board.simulated, remembered: remembered)
        if let recording {
            guard
                recording.begin(configuration: c, board: board, gpsPath: gpsPath, startUTC: startUTC, zone: zone.current.name)
            else {
                outputs.shutdown()
                return 1
            }
        }
        if let recording {
            station?.tap = { readings, time in recording.note(OutputSideEntries.station(readings, at: time)) }
        }
        if let ledger = (recording?.recorder as (any HandoverLedger)?) ?? ledger {
            pipeline.ledger = ledger
            scheduler.ledger = ledger
        }
        // A replay runs both sides in turn on this thread (`Lockstep`); a run has a sampling thread.
        var sampling: LoopThread?
        if lockstep == nil {
            sampling = startSampling(scheduler, configuration: c, stop: stop, recording: recording)
            if sampling == nil {
                outputs.shutdown()
                return 1
            }
        }
        let display: DisplayTarget
        do { display = try openDisplay(c, board: board) } catch {
            Log.error(error.description)
            stop.request()
            sampling?.join()
            outputs.shutdown()
            return 1
        }
        let services = makeServices(
            c, board: board, pipeline: pipeline, clock: clock, gpsPath: gpsPath, gpio: gpio, station: station,
            dataDirectory: dataDirectory, startUTC: startUTC, zone: zone)
        station?.start()
        defer { station?.stop() }
        let devices = { (state: NavigationState) in deviceList(board: board, state: state, gpsPath: gpsPath, problems: pipeline.problems) }
        let adaptive =
            c.adaptiveSampling ? AdaptiveService(scheduler: scheduler, pipeline: pipeline, configuration: c, setGPSInterval: setGPSInterval) : nil
        if let adaptive { Log.info(adaptive.startLine) }
        if let recording { adaptive?.powerTap = { reading, time in recording.note(OutputSideEntries.power(reading, at: time)) } }
        let memory = c.picture == nil ? restoreMemory(display: display, services: services, configuration: c, dataDirectory: dataDirectory) : nil
        let loop = OutputLoop(
            outputs: pipeline, scheduler: scheduler, budgets: TaskTable.budgets(tasks), server: outputs.server,
            display: display, stop: stop, deviceName: board.name, devices: devices, services: services,
            adaptive: adaptive,
            nmea: outputs.nmea,
            deviceClock: DeviceClock(utc: startUTC, at: recording?.startMonotonic ?? clock.now()), memory: memory,
            pollMilliseconds: Int32(max(1, (20 / c.speed).rounded())), recording: recording)
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
        loop.context.fanout.signalK = outputs.signalK
        if let web = outputs.web {
            // The web app's actions are the socket's requests, through the same table.
            web.app.requests = SocketRequests.table(for: loop)
            web.app.reads.merge(WebLiveReads.routes(loop, dataDirectory: dataDirectory)) { stored, _ in stored }
            web.app.reads.merge(WebWaypointReads.routes(loop, dataDirectory: dataDirectory)) { stored, _ in stored }
            web.app.reads["/api/v1/tracks"] = WebCardReads.tracks(loop, dataDirectory: dataDirectory, otherwise: web.app.reads["/api/v1/tracks"])
            web.app.writes = WebWrites.routes(loop, dataDirectory: dataDirectory)
            loop.context.fanout.web = web
        }
        if let settings = c.mqtt {
            loop.context.fanout.mqtt = MQTTFeed(settings: settings, dataDirectory: dataDirectory, now: OutputClock.unixTime())
            Log.info("publishing to the MQTT broker at \(settings.broker) under \(settings.topicPrefix)/\(settings.deviceName)/")
        }
        if let path = c.chronySocket {
            if board.simulated && c.speed != 1 {
                Log.warning(
                    "chrony: the simulated trip runs at speed \(DecimalText.compact(c.speed, 2)): its time is no clock for the system, so chrony is not sent it (use --speed 1)"
                )
            } else {
                loop.context.fanout.chrony = ChronyFeed(path: path, baud: board.simulated ? nil : board.gpsBaud)
                Log.info("sending the GPS time to chrony at \(path) (chrony.conf: refclock SOCK \(path) refid GPS)")
            }
        }
        loop.reload = reload
        // The sensors are open and the socket serves: a Type=notify service is ready now.
        let notifier = ServiceNotifier()
        loop.service = ServiceManagerLink(notifier: notifier)
        notifier?.send("READY=1\nSTATUS=started")
        if let tap = lockstep?.reportTap { loop.context.fanout.tap = tap }
        if let reportLines { loop.context.fanout.tap = { reportLines.write($0) } }
        let reason = lockstep.map { loop.run(lockstep: $0) } ?? loop.run(until: deadline, wallClock: wallClock, tripEnd: tripEnd)
        notifier?.send("STOPPING=1")
        stop.request()
        sampling?.join()
        // What the sampling side did before it stopped is published too (and recorded, so a
        // replay ends on the same reports).
        loop.intake.follow()
        let pictureWritten = c.picture.map { writePicture($0, of: display, loop: loop) } ?? true
        if pictureWritten { display.showStopped(utc: loop.context.utcNow()) }
        loop.close()
        reportLines?.close()
        recording?.close()
        outputs.shutdown()
        guard pictureWritten else { return 1 }
        Log.info("stopped (\(reason))")
        if c.stats { printStatistics(loop, scheduler: scheduler) }
        return 0
    }

    static func deviceList(board: BoardDescription, state: NavigationState, gpsPath: String?, problems: SensorProblems) -> [DeviceEntry] {
        var list: [DeviceEntry] = []
        func problem(_ sensor: SensorProblems.Sensor, _ health: SensorHealth) -> String? {
            health == .degraded ? problems.problem(sensor)?.description : nil
        }
        if let imu = board.imu {
            list.append(
                .init(
                    path: "\(board.bus(of: imu))@\(hexByte(imu.address))", driver: imu.chip.uppercased(), health: state.imuHealth,
                    role: .imu, error: problem(.imu, state.imuHealth)))
        }
        if let mag = board.magnetometer {
            list.append(
                .init(
                    path: "\(board.bus(of: mag))@\(hexByte(mag.address))", driver: mag.chip.uppercased(), health: state.magnetometerHealth,
                    role: .magnetometer, error: problem(.magnetometer, state.magnetometerHealth)))
        }
        if let baro = board.barometer {
            list.append(
                .init(
                    path: "\(board.bus(of: baro))@\(hexByte(baro.address))", driver: baro.chip.uppercased(), health: state.barometerHealth,
                    role: .barometer, error: problem(.barometer, state.barometerHealth)))
        }
        if let gpsPath { list.append(.init(path: gpsPath, driver: "NMEA0183", health: state.gpsHealth, role: .gps)) }
        return list
    }
}
