import LodestoneCore
import LodestoneDomain
import LodestoneHAL
import LodestoneReports
import LodestoneServices

/// What the board's buttons do (the "controls" task): each press, long press and release is
/// reported and acted on, and the buzzer or LED answers.
final class ButtonActions<Clock: MonotonicClock> {
    let context: OutputContext<Clock>
    let ticks: ServiceTicks<Clock>
    let displayDriver: DisplayDriver<Clock>
    private var trackButtonHeld = false

    init(context: OutputContext<Clock>, ticks: ServiceTicks<Clock>, displayDriver: DisplayDriver<Clock>) {
        self.context = context
        self.ticks = ticks
        self.displayDriver = displayDriver
    }

    private var services: OutputServices { context.services }
    private var latest: NavigationState { context.latest }
    private var clock: Clock { context.clock }
    private func send(_ report: Report) { context.send(report) }
    private func utcNow() -> Double { context.utcNow() }

    func serveControls() {
        guard let controls = services.controls else { return }
        let now = clock.now()
        let zone = services.localClock.zone
        let local = CivilTime(unixSeconds: utcNow() + Double(zone.offset(at: utcNow())))
        controls.minuteOfDay = local.hour * 60 + local.minute
        for (button, event) in controls.update(at: now) {
            let time = utcNow()
            send(Controls.report(button: button, event: event, time: time))
            switch (button, event) {
            case ("bearingLock", .press):
                if let motion = services.motion {
                    send(motion.toggleLock(time: time))
                    controls.signal(.lock, at: now)
                }
            case ("track", _):
                if let tracks = services.tracks { trackButton(event, tracks) }
            case ("snapshot", .press):
                if let chronicle = services.chronicle {
                    send(
                        chronicle.takeSnapshot(
                            SnapshotRequest(name: nil, notes: nil), state: latest, accuracy: context.positionAccuracy, time: time,
                            activity: services.activity))
                    controls.signal(.snapshot, at: now)
                }
            case ("log", .press):
                if let chronicle = services.chronicle { send(chronicle.logs.toggle(time: time)) }
            case ("page", _):
                displayDriver.pageButton(event)
            case ("photo", .longPress):
                // A long press, so a knock in a pocket takes no picture.
                send(context.takePhoto())
                controls.signal(.snapshot, at: now)
            default:
                break
            }
        }
    }

    /// The track button: a short press starts or stops the recording, a long one (1 s) takes
    /// the person back along it (or stops taking them back). Acting on release keeps a long
    /// press from also starting or stopping.
    private func trackButton(_ event: Button.Event, _ tracks: TrackService) {
        switch event {
        case .press:
            break
        case .longPress:
            trackButtonHeld = true
            if let waypoints = services.waypoints, waypoints.backtrack != nil {
                send(waypoints.handle(.stop, state: latest))
            } else {
                send(ticks.startBacktrack())
            }
        case .release:
            if !trackButtonHeld { send(tracks.toggle(at: utcNow())) }
            trackButtonHeld = false
        }
    }
}
