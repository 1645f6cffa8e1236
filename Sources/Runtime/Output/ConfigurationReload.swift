import LodestoneCore

/// Re-reads the configuration file (and the command line over it, as at start): the new
/// configuration, or the error a start would give.
public typealias ConfigurationReload = () -> Result<Configuration, ConfigurationReloadError>

public struct ConfigurationReloadError: Error {
    public var message: String
    public init(_ message: String) { self.message = message }
}

extension OutputLoop {
    /// SIGHUP: the configuration file is read again and what can change while running is
    /// applied (the display's page, theme and units; the sampling rates); the rest is named
    /// as needing a restart. A bad file is refused with the error a start gives, and the
    /// running configuration stays.
    func reloadConfiguration() {
        guard let reload else {
            Log.info("SIGHUP: no configuration file to read again (give --config, or /etc/lodestone/lodestone.json)")
            return
        }
        let fresh: Configuration
        switch reload() {
        case .failure(let error):
            Log.error(error.message + "; keeping the running configuration")
            return
        case .success(let read):
            fresh = read
        }
        var changed: [String] = []
        if fresh.page != running.page { display.page = fresh.page; changed.append("page \(running.page.rawValue) -> \(fresh.page.rawValue)") }
        if fresh.theme != running.theme { display.theme = fresh.theme; changed.append("theme \(running.theme.rawValue) -> \(fresh.theme.rawValue)") }
        if fresh.units != running.units { display.units = fresh.units; changed.append("units \(running.units.rawValue) -> \(fresh.units.rawValue)") }
        let rates = [("imu", running.imuRateHz, fresh.imuRateHz), ("magnetometer", running.magnetometerRateHz, fresh.magnetometerRateHz),
                     ("barometer", running.barometerRateHz, fresh.barometerRateHz), ("processing", running.processingRateHz, fresh.processingRateHz)]
        let newRates = rates.filter { $0.1 != $0.2 }
        if !newRates.isEmpty {
            changed += newRates.map { "rates.\($0.0) \(fixed($0.1, 1)) -> \(fixed($0.2, 1)) Hz" }
            if let adaptive {
                adaptive.useWalkingRates(imu: fresh.imuRateHz, magnetometer: fresh.magnetometerRateHz,
                                         barometer: fresh.barometerRateHz, processing: fresh.processingRateHz)
            } else {
                for (task, hz) in [("imu", fresh.imuRateHz), ("mag", fresh.magnetometerRateHz), ("baro", fresh.barometerRateHz), ("process", fresh.processingRateHz)] {
                    if let index = scheduler.taskIndex(named: task) { scheduler.setRate(task: index, hz: hz) }
                }
            }
        }
        // Everything else is fixed while running: the board, the socket, the outputs' addresses.
        var applied = running
        (applied.page, applied.theme, applied.units) = (fresh.page, fresh.theme, fresh.units)
        (applied.imuRateHz, applied.magnetometerRateHz, applied.barometerRateHz, applied.processingRateHz) =
            (fresh.imuRateHz, fresh.magnetometerRateHz, fresh.barometerRateHz, fresh.processingRateHz)
        let restart = applied == fresh ? "" : "; other changes take effect after a restart"
        running = applied
        Log.info("configuration read again: " + (changed.isEmpty ? "nothing to change" : changed.joined(separator: ", ")) + restart)
        nextDisplay = 0
    }
}
