import Glibc
import LodestoneCore
import LodestoneDevices
import LodestoneDomain
import LodestoneOutputs
import LodestoneReports
import LodestoneHAL
import LodestoneSampling
import LodestoneServices
import LodestoneSettings
import LodestoneStorage

/// What the output side reads from the sampling side: rings of samples and the latest state.
public protocol SamplingOutputs: AnyObject {
    var imuRing: SPSCRing<ImuSample> { get }
    var magneticRing: SPSCRing<MagneticSample> { get }
    var pressureRing: SPSCRing<PressureSample> { get }
    var fixRing: SPSCRing<GPSFix> { get }
    var skyRing: SPSCRing<SkyItem> { get }
    var sentenceRing: SPSCRing<RawSentence> { get }
    var state: LatestValue<NavigationState> { get }
    var problems: SensorProblems { get }
}

extension SensorPipeline: SamplingOutputs {}

/// The I/O thread's wiring: the output task table (`OutputTaskTable`) runs the services, the
/// socket's request table (`SocketRequests`) answers clients, and every report goes to the
/// adapters (the socket's gpsd JSON, NMEA 0183, the display). It only ever reads from the
/// sampling side (rings and the state cell), so a slow client, terminal or disk can delay
/// nothing but itself.
///
/// Unchecked Sendable: it lives on the output thread; its task table's closures run there only.
final class OutputLoop<Clock: MonotonicClock>: @unchecked Sendable {
    let outputs: any SamplingOutputs
    /// The sampling thread's scheduler (read for its statistics and retuned by adaptive sampling).
    let scheduler: FixedRateScheduler<Clock>
    let budgets: [Double]
    let server: ReportServer?
    let display: DisplayTarget
    let stop: StopSignal
    let deviceName: String
    let devices: () -> [DeviceEntry]
    let clock: Clock
    let services: OutputServices
    let adaptive: AdaptiveService<Clock>?
    /// The NMEA 0183 output (replaced when SIGHUP changes its addresses).
    var nmea: StreamServer?
    /// The Signal K output (replaced when SIGHUP changes its addresses or rates).
    var signalK: SignalKOutput?
    /// The MQTT output, when configured.
    var mqtt: MQTTFeed?
    let deviceClock: DeviceClock
    /// How long one wait for clients may take, real milliseconds: shorter when a simulated
    /// trip runs faster than real time, so reports keep their pace in the trip's time.
    let pollMilliseconds: Int32
    /// On a trip's own clock, this thread's hold on it (`SimulationClock.hold(at:)`): time runs
    /// at most `heldAhead` past where the thread last looked, so a stall of the output thread
    /// pauses the trip rather than leaving a stretch of it unserved.
    var timeHolder: SimulationClock? {
        didSet {
            // A quarter second of the trip, or two of the thread's waits if they are longer.
            let waits = 2 * Double(pollMilliseconds) * 1e6 * (timeHolder?.speed ?? 1)
            heldAhead = UInt64(max(250_000_000, min(waits, 60e9)))
        }
    }
    private var heldAhead: UInt64 = 250_000_000
    /// The output thread's own task table (built once the loop exists: its tasks call it).
    private(set) var tasks: FixedRateScheduler<Clock>?
    private var taskBudgets: [Double] = []
    /// The configuration in force, and how to read it again on SIGHUP (nil: no file).
    var running = Configuration()
    var reload: ConfigurationReload?
    /// The socket client (`ReportServer.requester`) whose guided calibration is running.
    var calibrationClient: Int?
    /// The service manager (systemd), when run as a notify service.
    var service = ServiceManagerLink(notifier: nil)
    /// The chips' problems last said in the log (IMU, magnetometer, barometer).
    var loggedProblems: (DeviceError?, DeviceError?, DeviceError?) = (nil, nil, nil)
    /// `waitForWork`'s descriptors, kept from wait to wait.
    private var waitedOn: [Int32] = []
    private var polled: [pollfd] = []

    /// The device names reports carry, as DEVICES lists them: the GPS's port for TPV and SKY,
    /// the IMU's bus address for ATT and IMU, the barometer's for ENV (the board's name when
    /// there is none).
    let gpsDevice: String
    let imuDevice: String
    let barometerDevice: String
    /// The device name ENV carries when only the weather station reports.
    static var stationDevice: String { "station" }
    /// The newest state, with the filtered position and the levelled barometric altitude.
    var latest = NavigationState()
    /// When the devices were opened (UTC), for DEVICES.
    let started: Double
    /// The sampling side's state and the time the last ATT carried: each ATT is a new state,
    /// later than the one before.
    var lastAttitude: (sample: MonotonicNanoseconds, time: Double) = (0, -.infinity)
    /// The newest TPV: what the display shows of the position.
    var lastPosition: PositionReport?
    /// Each sampled kind's time moves forward per device (`ForwardTimes`).
    var forwardTimes = ForwardTimes()
    var lastMagnetic: MagneticSample?
    var satellites: [Satellite] = []
    var spareSatellites: [Satellite] = []
    var lastSky: SatelliteReport?
    var trackButtonHeld = false
    /// The display's heading, smoothed on the unit circle so 359° and 1° average to 0°, not 180°.
    var displayHeading = HeadingSmoother(timeConstant: 0.5)
    var lastDisplay: MonotonicNanoseconds = 0
    var nextDisplay: MonotonicNanoseconds = 0
    /// The motion service's flip state last seen, so each flip toggles the theme once.
    /// The flips the display has acted on.
    var seenFlips = 0
    /// The display's theme and units as last saved (a key, the button or a flip changes them).
    var savedDisplay: DeviceMemoryFile.DisplayChoice?
    var memory: DeviceMemoryFile?
    var positionSaved = -Double.infinity
    var cardinalClicker = CardinalClicker()
    /// Gathers what the pages show from the services.
    lazy var displayFeed = DisplayFeed(deviceName: deviceName, services: services,
                                       profile: { [unowned self] in self.adaptive?.profile },
                                       health: { [unowned self] in (self.server?.clientCount ?? 0, self.scheduler.loopStatistics.read(), self.taskLines()) },
                                       problems: { [unowned self] in self.sensorProblems })

    init(outputs: any SamplingOutputs, scheduler: FixedRateScheduler<Clock>, budgets: [Double], server: ReportServer?,
         display: DisplayTarget, stop: StopSignal, deviceName: String, devices: @escaping () -> [DeviceEntry],
         services: OutputServices, adaptive: AdaptiveService<Clock>? = nil, nmea: StreamServer? = nil,
         deviceClock: DeviceClock, pollMilliseconds: Int32 = 20) {
        self.outputs = outputs
        self.scheduler = scheduler
        self.budgets = budgets
        self.server = server
        self.display = display
        self.stop = stop
        self.deviceName = deviceName
        self.devices = devices
        self.services = services
        self.adaptive = adaptive
        self.nmea = nmea
        self.deviceClock = deviceClock
        self.pollMilliseconds = pollMilliseconds
        clock = scheduler.clock
        started = deviceClock.utc(at: scheduler.clock.now())
        let listed = devices()
        gpsDevice = listed.first { $0.role == .gps }?.path ?? deviceName
        imuDevice = listed.first { $0.role == .imu }?.path ?? deviceName
        barometerDevice = listed.first { $0.role == .barometer }?.path ?? deviceName
        let table = OutputTaskTable.tasks(for: self)
        taskBudgets = table.map(\.budgetMicroseconds)
        do {
            tasks = try FixedRateScheduler(loopRateHz: OutputTaskTable.loopRateHz, tasks: table, clock: clock)
        } catch {
            Log.error("the output task table is not valid: \(error.description)")
        }
        server?.requests = SocketRequests.table(for: self)
        server?.clientGone = { [unowned self] number in self.clientGone(number) }
    }

    /// Runs until a stop signal, the duration, or `stop.request()`; returns why it stopped.
    /// - Parameters:
    ///   - deadline: on `wallClock` (real time, `--duration`).
    ///   - tripEnd: on the device's clock (the referee's trips).
    func run(until deadline: MonotonicNanoseconds?, wallClock: SystemMonotonicClock = SystemMonotonicClock(),
             tripEnd: MonotonicNanoseconds? = nil) -> String {
        display.begin()
        defer {
            timeHolder?.leave()
            display.end()
        }
        while !stop.isRequested {
            timeHolder?.hold(at: clock.now() &+ heldAhead)
            if let signal = waitForWork() {
                // SIGHUP reads the configuration again, unless the display is the terminal:
                // there a hang-up is the terminal going away (its window closed, the SSH
                // session ended), and nobody is left to see the device. SIGINT and SIGTERM stop.
                if signal == "SIGHUP" && !display.isTerminal {
                    reloadConfiguration()
                    continue
                }
                stop.request()
                return signal == "SIGHUP" ? "SIGHUP: the terminal hung up" : signal
            }
            if let deadline, wallClock.now() >= deadline {
                stop.request()
                return "duration"
            }
            if let tripEnd, clock.now() >= tripEnd {
                stop.request()
                return "end of the trip"
            }
            if handleKeys() {
                stop.request()
                return "quit key"
            }
            tasks?.runDue()
            if let lost = display.terminalLost {
                stop.request()
                return "the terminal is gone: " + lost
            }
        }
        return "stop request"
    }

    /// Serves the socket (or just waits) for up to `pollMilliseconds`; the name of a stop signal if one came.
    private func waitForWork() -> String? {
        // The descriptor lists are kept from wait to wait: nothing is allocated once they have grown.
        waitedOn.removeAll(keepingCapacity: true)
        if stop.descriptor >= 0 { waitedOn.append(stop.descriptor) }
        if let key = display.keyDescriptor { waitedOn.append(key) }
        nmea?.appendPollDescriptors(to: &waitedOn)
        signalK?.server.appendPollDescriptors(to: &waitedOn)
        var stopped = false
        if let server {
            server.service(timeoutMilliseconds: pollMilliseconds, extra: waitedOn) { fd in
                if fd == stop.descriptor { stopped = true }
            }
        } else {
            polled.removeAll(keepingCapacity: true)
            for fd in waitedOn { polled.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0)) }
            _ = Glibc.poll(&polled, nfds_t(polled.count), pollMilliseconds)
            for entry in polled where entry.revents != 0 && entry.fd == stop.descriptor { stopped = true }
        }
        return stopped ? stop.takeSignal() : nil
    }

    /// Keys on the terminal display; true when the person asked to quit.
    private func handleKeys() -> Bool {
        var quit = false
        for key in display.keys() {
            quit = display.apply(key) || quit
            nextDisplay = 0
        }
        rememberDisplayChoice()
        return quit
    }

    /// Hands a report to the socket's clients.
    func send(_ report: Report) {
        guard forwardTimes.admits(report) else { return }
        if case .position(let position) = report { lastPosition = position }
        // The NMEA sentences go to the NMEA listeners and to the socket's NMEA watchers before
        // the report they come from, as a gpsd with a compass attached passes its sentences
        // (OpenCPN and signalk-server ask so).
        if nmea != nil || server?.hasNMEAWatchers == true {
            for sentence in NMEAFeed.sentences(for: report) {
                nmea?.send(sentence)
                server?.broadcastSentence(sentence, device: report.device ?? "")
            }
        }
        server?.broadcast(report)
        signalK?.publish(report, now: utcNow())
        mqtt?.take(report)
    }

    /// Saves what must outlive the process (the history, an open log session).
    func close() {
        services.chronicle?.close(time: utcNow())
        services.activity?.save(time: utcNow())
        rememberPosition(time: utcNow(), force: true)
        mqtt?.close()
    }

    /// UTC now on the device's one time base, following the GPS's time as fixes come.
    func utcNow() -> Double {
        if latest.fix.hasPosition, let utc = latest.fix.utc, latest.fix.received != 0,
           deviceClock.gpsTime(utc, receivedAt: latest.fix.received) {
            services.chronicle?.clockChanged(to: utc)
        }
        return deviceClock.now(clock.now())
    }

    /// The sampling thread's tasks.
    func taskLines() -> [TaskLine] {
        scheduler.taskNames.indices.map { index in
            TaskLine(name: scheduler.taskNames[index], statistics: scheduler.taskStatistics[index].read(), budgetMicroseconds: budgets[index])
        }
    }

    /// The output thread's tasks.
    func outputTaskLines() -> [TaskLine] {
        guard let tasks else { return [] }
        return tasks.taskNames.indices.map { index in
            TaskLine(name: tasks.taskNames[index], statistics: tasks.currentTaskStatistics(index), budgetMicroseconds: taskBudgets[index])
        }
    }
}
