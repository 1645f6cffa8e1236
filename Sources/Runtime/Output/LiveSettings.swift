import LodestoneCore
import LodestoneSettings

/// Re-reads the configuration file (and the command line over it, as at start): the new
/// configuration, or the error a start would give.
public typealias ConfigurationReload = () -> Result<Configuration, ConfigurationReloadError>

public struct ConfigurationReloadError: Error {
    public var message: String
    public init(_ message: String) { self.message = message }
}

/// SIGHUP on the running device.
enum LiveSettings {
    /// SIGHUP: the configuration file is read again and every changed setting the table marks
    /// `live` is put in force (`LiveEffects` says how), with the alert rules
    /// (`<dataDir>/alerts.json`); those marked `restart` are named as waiting for one. A bad
    /// file is refused with the error a start gives, and the running configuration stays.
    static func reload<Clock: MonotonicClock>(_ loop: OutputLoop<Clock>) {
        guard let reload = loop.reload else {
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
        putInForce(fresh, loop)
    }

    /// Every changed setting of `fresh` the table marks `live` put in force, as a reload does
    /// (a reload, and a change from the web app on a device without a configuration file); the
    /// rest named as waiting for a restart. `loop.running` is what the device runs with after.
    static func putInForce<Clock: MonotonicClock>(_ fresh: Configuration, _ loop: OutputLoop<Clock>) {
        let running = loop.running
        let changes = SettingChanges(running: running, fresh: fresh)
        var kept = changes.restart
        var changed: [String] = []
        var uncovered = changes.live
        for effect in LiveEffects.all(Clock.self) {
            let settings = changes.live.filter { effect.covers($0.key) }
            guard !settings.isEmpty else { continue }
            uncovered.removeAll { effect.covers($0.key) }
            // A part that could not take the new values keeps the running ones (it said why).
            guard effect.apply(loop, running, fresh) else {
                kept += settings
                continue
            }
            changed += settings.map { SettingChanges.describe($0, from: running, to: fresh) }
        }
        if let alerts = loop.context.services.chronicle?.alerts {
            changed += alerts.reloadRules(now: loop.context.utcNow()).map { "alert \($0)" }
        }
        // A setting marked live that nothing here puts in force is not claimed as applied.
        kept += uncovered
        let waiting = (changes.restart + uncovered).map(\.key)
        let restart = waiting.isEmpty ? "" : "; " + waiting.joined(separator: ", ") + " take effect after a restart"
        loop.running = SettingChanges.keeping(kept, of: running, in: fresh)
        Log.info("configuration read again: " + (changed.isEmpty ? "nothing to change" : changed.joined(separator: ", ")) + restart)
        loop.displayDriver.redrawSoon()
    }
}
