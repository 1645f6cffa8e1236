import LodestoneCore
import LodestoneDomain
import LodestoneHAL
import LodestoneReports
import LodestoneServices

/// The "controls" task: the device's buttons, and what each one does.
extension OutputLoop {
    func serveControls() {
        guard let controls = services.controls else { return }
        let now = clock.now()
        if let zone = services.sky?.zone {
            let local = CivilTime(unixSeconds: utcNow() + Double(zone.offset(at: utcNow())))
            controls.minuteOfDay = local.hour * 60 + local.minute
        }
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
                    send(chronicle.takeSnapshot(SnapshotRequest(name: nil, notes: nil), state: latest, accuracy: positionAccuracy, time: time,
                                                                activity: services.activity))
                    controls.signal(.snapshot, at: now)
                }
            case ("log", .press):
                if let chronicle = services.chronicle { send(chronicle.logs.toggle(time: time)) }
            case ("page", _):
                display.pageButton(event)
                nextDisplay = 0
            default:
                break
            }
        }
    }

    /// One sigma of the position, metres (NaN without a position service).
    var positionAccuracy: Double { services.positions.map { PositionService.sigma($0.fix) } ?? .nan }

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
                send(startBacktrack())
            }
        case .release:
            if !trackButtonHeld { send(tracks.toggle(at: utcNow())) }
            trackButtonHeld = false
        }
    }
}
