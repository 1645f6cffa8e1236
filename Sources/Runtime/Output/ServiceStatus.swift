import LodestoneCore

extension OutputLoop {
    /// Keeps the service manager told (called at the samples task's rate): the watchdog's ping
    /// while the sampling loop still ticks, and once a second the health line when it changed.
    func tellServiceManager() {
        guard let notifier = service.notifier else { return }
        let now = service.clock.now()
        if service.watchdog?.shouldPing(now: now, samplingTicks: scheduler.heartbeat.load(ordering: .relaxed)) == true {
            notifier.send("WATCHDOG=1")
        }
        guard now >= service.nextStatus else { return }
        service.nextStatus = now &+ 1_000_000_000
        let line = serviceStatusLine
        if line != service.lastStatus {
            notifier.send("STATUS=" + line)
            service.lastStatus = line
        }
    }

    /// One line of health for `systemctl status`: each sensor, then the clients.
    var serviceStatusLine: String {
        let sensors = [("imu", latest.imuHealth), ("magnetometer", latest.magnetometerHealth),
                       ("barometer", latest.barometerHealth), ("gps", latest.gpsHealth)]
            .filter { $0.1 != .absent }.map { "\($0.0) \($0.1.name)" }.joined(separator: ", ")
        let clients = server?.clientCount ?? 0
        return sensors + "; \(clients) client" + (clients == 1 ? "" : "s")
    }
}

/// The output loop's side of the service manager: the notifier, the watchdog's gate on real
/// (not simulated) time, and the status line last sent.
final class ServiceManagerLink {
    let notifier: ServiceNotifier?
    var watchdog: WatchdogGate?
    let clock = SystemMonotonicClock()
    var nextStatus: MonotonicNanoseconds = 0
    var lastStatus = ""

    init(notifier: ServiceNotifier?) {
        self.notifier = notifier
        watchdog = notifier?.watchdogInterval.map { WatchdogGate(interval: $0) }
    }
}
