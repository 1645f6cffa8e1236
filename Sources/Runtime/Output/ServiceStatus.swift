import LodestoneCore
import LodestoneDomain

/// The link to the service manager (systemd) when run as a notify service: the watchdog's
/// ping while the sampling loop still ticks, and the health line `systemctl status` shows.
final class ServiceManagerLink {
    let notifier: ServiceNotifier?
    var watchdog: WatchdogGate?
    let clock = SystemMonotonicClock()
    private var nextStatus: MonotonicNanoseconds = 0
    private var lastStatus = ""

    init(notifier: ServiceNotifier?) {
        self.notifier = notifier
        watchdog = notifier?.watchdogInterval.map { WatchdogGate(interval: $0) }
    }

    /// Called at the samples task's rate: pings the watchdog while `samplingTicks` still moves,
    /// and once a second says the health line when it changed.
    func tell(_ state: NavigationState, clients: Int, samplingTicks: UInt64) {
        guard let notifier else { return }
        let now = clock.now()
        if watchdog?.shouldPing(now: now, samplingTicks: samplingTicks) == true {
            notifier.send("WATCHDOG=1")
        }
        guard now >= nextStatus else { return }
        nextStatus = now &+ 1_000_000_000
        let line = Self.statusLine(state, clients: clients)
        if line != lastStatus {
            notifier.send("STATUS=" + line)
            lastStatus = line
        }
    }

    /// "imu ok, magnetometer ok, gps no fix; 2 clients".
    static func statusLine(_ state: NavigationState, clients: Int) -> String {
        let sensors = [
            ("imu", state.imuHealth), ("magnetometer", state.magnetometerHealth),
            ("barometer", state.barometerHealth), ("gps", state.gpsHealth)
        ]
        .filter { $0.1 != .absent }.map { "\($0.0) \($0.1.name)" }.joined(separator: ", ")
        return sensors + "; \(clients) client" + (clients == 1 ? "" : "s")
    }
}
