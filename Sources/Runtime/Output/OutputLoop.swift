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

/// The I/O thread's wiring: the output task table (`OutputTaskTable`) runs the parts (the
/// intake of samples, the services' rounds, the buttons, the display), the socket's request
/// table (`SocketRequests`) answers clients, and every report leaves by one fanout to the
/// adapters (the socket's gpsd JSON, NMEA 0183, Signal K, MQTT). It only ever reads from the
/// sampling side (rings and the state cell), so a slow client, terminal or disk can delay
/// nothing but itself.
///
/// Unchecked Sendable: it lives on the output thread; its task table's closures run there only.
final class OutputLoop<Clock: MonotonicClock>: @unchecked Sendable {
    let context: OutputContext<Clock>
    let intake: SampleIntake<Clock>
    let ticks: ServiceTicks<Clock>
    let displayDriver: DisplayDriver<Clock>
    let buttons: ButtonActions<Clock>
    /// The sampling thread's scheduler (read for its statistics and retuned by adaptive sampling).
    let scheduler: FixedRateScheduler<Clock>
    let budgets: [Double]
    let display: DisplayTarget
    let stop: StopSignal
    /// The devices as DEVICES lists them, with the healths of the state given.
    let devices: (NavigationState) -> [DeviceEntry]
    /// When the devices were opened (UTC), for DEVICES.
    let started: Double
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
    var running = Configuration() { didSet { displayDriver.flipAction = running.flipAction } }
    var reload: ConfigurationReload?
    /// The socket client (`ReportServer.requester`) whose guided calibration is running.
    var calibrationClient: Int?
    /// The service manager (systemd), when run as a notify service.
    var service = ServiceManagerLink(notifier: nil)
    /// `run --record`: the sampling side's recorded bytes, written to the file from here.
    let recording: RunRecording?
    /// `waitForWork`'s descriptors, kept from wait to wait.
    private var waitedOn: [Int32] = []
    private var polled: [pollfd] = []

    init(
        outputs: any SamplingOutputs, scheduler: FixedRateScheduler<Clock>, budgets: [Double], server: ReportServer?,
        display: DisplayTarget, stop: StopSignal, deviceName: String, devices: @escaping (NavigationState) -> [DeviceEntry],
        services: OutputServices, adaptive: AdaptiveService<Clock>? = nil, nmea: StreamServer? = nil,
        deviceClock: DeviceClock, memory: DeviceMemoryFile? = nil, pollMilliseconds: Int32 = 20,
        recording: RunRecording? = nil
    ) {
        self.recording = recording
        let context = OutputContext(
            outputs: outputs, services: services, clock: scheduler.clock, deviceClock: deviceClock,
            fanout: OutputFanout(server: server, nmea: nmea), devices: devices(NavigationState()), boardName: deviceName)
        self.context = context
        intake = SampleIntake(context: context)
        ticks = ServiceTicks(context: context, adaptive: adaptive, memory: memory)
        displayDriver = DisplayDriver(
            context: context, display: display, memory: memory, title: deviceName,
            flipAction: Configuration().flipAction)
        buttons = ButtonActions(context: context, ticks: ticks, displayDriver: displayDriver)
        self.scheduler = scheduler
        self.budgets = budgets
        self.display = display
        self.stop = stop
        self.devices = devices
        self.pollMilliseconds = pollMilliseconds
        started = deviceClock.utc(at: scheduler.clock.now())
        let table = OutputTaskTable.tasks(for: self)
        taskBudgets = table.map(\.budgetMicroseconds)
        intake.slots = ReportSlots(OutputTaskTable.reportTasks(for: self))
        do {
            tasks = try FixedRateScheduler(loopRateHz: OutputTaskTable.loopRateHz, tasks: table, clock: scheduler.clock)
        } catch {
            Log.error("the output task table is not valid: \(error.description)")
        }
        if display.isActive { context.fanout.display = displayDriver.feed }
        displayDriver.health = { [unowned self] in SocketRequests.health(self) }
        server?.requests = SocketRequests.table(for: self)
        server?.clientGone = { [unowned self] number in SocketRequests.clientGone(number, loop: self) }
    }

    /// Runs until a stop signal, the duration, or `stop.request()`; returns why it stopped.
    /// - Parameters:
    ///   - deadline: on `wallClock` (real time, `--duration`).
    ///   - tripEnd: on the device's clock (the referee's trips).
    func run(
        until deadline: MonotonicNanoseconds?, wallClock: SystemMonotonicClock = SystemMonotonicClock(),
        tripEnd: MonotonicNanoseconds? = nil
    ) -> String {
        display.begin()
        defer {
            timeHolder?.leave()
            display.end()
        }
        // Pages the device no longer runs are given back from time to time (see ResidentPages).
        let started = wallClock.now()
        var nextRelease = started &+ Self.releaseSeconds(after: 0) * 1_000_000_000
        while !stop.isRequested {
            if wallClock.now() >= nextRelease {
                ResidentPages.releaseUnused(relock: running.lockMemory)
                nextRelease = started &+ Self.releaseSeconds(after: (wallClock.now() &- started) / 1_000_000_000) * 1_000_000_000
            }
            timeHolder?.hold(at: context.clock.now() &+ heldAhead)
            if let signal = waitForWork() {
                // SIGHUP reads the configuration again, unless the display is the terminal:
                // there a hang-up is the terminal going away (its window closed, the SSH
                // session ended), and nobody is left to see the device. SIGINT and SIGTERM stop.
                if signal == "SIGHUP" && !display.isTerminal {
                    LiveSettings.reload(self)
                    continue
                }
                stop.request()
                return signal == "SIGHUP" ? "SIGHUP: the terminal hung up" : signal
            }
            if let deadline, wallClock.now() >= deadline {
                stop.request()
                return "duration"
            }
            if let tripEnd, context.clock.now() >= tripEnd {
                stop.request()
                return "end of the trip"
            }
            if displayDriver.handleKeys() {
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

    /// When, in seconds after the start, the pages of code the device no longer runs are next
    /// given back, `seconds` after it: 10 s (start-up's: its first fix, its first reports to
    /// every client and its first day of the sky are in by then), a minute (what the first
    /// minute's one-off work touched: a calibration fitted and adopted, the first saves), then
    /// every hour. Each time, what the device still runs comes back at once, as minor faults on
    /// pages the page cache holds; what it ran once does not.
    static func releaseSeconds(after seconds: UInt64) -> UInt64 {
        if seconds < 10 { return 10 }
        if seconds < 60 { return 60 }
        return (seconds / 3600 + 1) * 3600
    }

    /// Serves the socket (or just waits) for up to `pollMilliseconds`; the name of a stop signal if one came.
    private func waitForWork() -> String? { serveClients(waitMilliseconds: pollMilliseconds) }

    /// Serves the socket (or just waits) for up to `waitMilliseconds`; the name of a stop signal if one came.
    func serveClients(waitMilliseconds: Int32) -> String? {
        // The descriptor lists are kept from wait to wait: nothing is allocated once they have grown.
        waitedOn.removeAll(keepingCapacity: true)
        if stop.descriptor >= 0 { waitedOn.append(stop.descriptor) }
        if let key = display.keyDescriptor { waitedOn.append(key) }
        context.fanout.appendPollDescriptors(to: &waitedOn)
        var stopped = false
        if let server = context.fanout.server {
            server.service(timeoutMilliseconds: waitMilliseconds, extra: waitedOn) { fd in
                if fd == stop.descriptor { stopped = true }
            }
        } else {
            polled.removeAll(keepingCapacity: true)
            for fd in waitedOn { polled.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0)) }
            _ = Glibc.poll(&polled, nfds_t(polled.count), waitMilliseconds)
            for entry in polled where entry.revents != 0 && entry.fd == stop.descriptor { stopped = true }
        }
        return stopped ? stop.takeSignal() : nil
    }

    /// Saves what must outlive the process (the history, an open log session).
    func close() {
        let time = context.utcNow()
        context.services.chronicle?.close(time: time)
        context.services.activity?.save(time: time)
        ticks.rememberPosition(time: time, force: true)
        context.fanout.close()
    }

    /// Keeps the service manager told, at the samples task's rate.
    func tellServiceManager() {
        service.tell(
            context.latest, clients: context.fanout.server?.clientCount ?? 0,
            samplingTicks: scheduler.heartbeat.load(ordering: .relaxed))
    }

    /// The sampling thread's tasks.
    func taskLines() -> [TaskLine] { Self.lines(of: scheduler, budgets: budgets) }

    static func lines(of scheduler: FixedRateScheduler<Clock>, budgets: [Double]) -> [TaskLine] {
        scheduler.taskNames.indices.map { index in
            TaskLine(name: scheduler.taskNames[index], statistics: scheduler.taskStatistics[index].read(), budgetMicroseconds: budgets[index])
        }
    }

    /// The output thread's tasks.
    func outputTaskLines() -> [TaskLine] {
        guard let tasks else { return [] }
        return tasks.taskNames.indices.map { index in
            TaskLine(name: tasks.taskNames[index], statistics: tasks.currentTaskStatistics(index), budgetMicroseconds: taskBudgets[index])
        } + (intake.slots?.lines ?? [])
    }
}
