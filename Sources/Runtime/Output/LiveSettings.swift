import LodestoneCore
import LodestoneOutputs
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
    /// SIGHUP: the configuration file is read again and the settings the table marks `live`
    /// are applied (the display's page, theme and units, the sampling rates, the QNH, the
    /// sounds, the outputs), with the alert rules (`<dataDir>/alerts.json`); those marked
    /// `restart` are named as waiting for one. A bad file is refused with the error a start
    /// gives, and the running configuration stays.
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
        var changed: [String] = []
        let running = loop.running
        var applied = running
        applyDisplay(fresh, to: &applied, changed: &changed, loop: loop)
        applyRates(fresh, to: &applied, changed: &changed, loop: loop)
        if fresh.qnh != running.qnh, let chronicle = loop.context.services.chronicle {
            _ = chronicle.weather.handle(.qnh(fresh.qnh))
            changed.append("qnh \(fixed(running.qnh, 2)) -> \(fixed(fresh.qnh, 2)) hPa")
            applied.qnh = fresh.qnh
        }
        if let alerts = loop.context.services.chronicle?.alerts {
            changed += alerts.reloadRules(now: loop.context.utcNow()).map { "alert \($0)" }
        }
        if fresh.sounds != running.sounds {
            loop.context.services.controls?.sounds = fresh.sounds
            changed.append("sounds")
            applied.sounds = fresh.sounds
        }
        if fresh.flipAction != running.flipAction {
            changed.append("flipAction \(running.flipAction.rawValue) -> \(fresh.flipAction.rawValue)")
            applied.flipAction = fresh.flipAction
            loop.context.services.motion?.flipAction = fresh.flipAction
        }
        applyOutputs(fresh, to: &applied, changed: &changed, loop: loop)
        // Everything else is fixed while running: the board, the socket, the data directory...
        let waiting = Setting.all.filter { $0.reload == .restart && $0.current(applied) != $0.current(fresh) }.map(\.key)
        let restart = waiting.isEmpty ? "" : "; " + waiting.joined(separator: ", ") + " take effect after a restart"
        loop.running = applied
        loop.displayDriver.flipAction = applied.flipAction
        Log.info("configuration read again: " + (changed.isEmpty ? "nothing to change" : changed.joined(separator: ", ")) + restart)
        loop.displayDriver.redrawSoon()
    }

    private static func applyDisplay<Clock: MonotonicClock>(
        _ fresh: Configuration, to applied: inout Configuration, changed: inout [String],
        loop: OutputLoop<Clock>
    ) {
        let running = loop.running
        if fresh.page != running.page { loop.display.page = fresh.page; changed.append("page \(running.page.rawValue) -> \(fresh.page.rawValue)") }
        if fresh.theme != running.theme { loop.display.theme = fresh.theme; changed.append("theme \(running.theme.rawValue) -> \(fresh.theme.rawValue)") }
        if fresh.north != running.north { loop.display.north = fresh.north; changed.append("north \(running.north.rawValue) -> \(fresh.north.rawValue)") }
        if fresh.units != running.units { loop.display.units = fresh.units; changed.append("units \(running.units.rawValue) -> \(fresh.units.rawValue)") }
        (applied.page, applied.theme, applied.unitsChoice) = (fresh.page, fresh.theme, fresh.unitsChoice)
    }

    private static func applyRates<Clock: MonotonicClock>(
        _ fresh: Configuration, to applied: inout Configuration, changed: inout [String],
        loop: OutputLoop<Clock>
    ) {
        let running = loop.running
        let rates = [
            ("imu", running.imuRateHz, fresh.imuRateHz), ("magnetometer", running.magnetometerRateHz, fresh.magnetometerRateHz),
            ("barometer", running.barometerRateHz, fresh.barometerRateHz), ("processing", running.processingRateHz, fresh.processingRateHz)
        ]
        let newRates = rates.filter { $0.1 != $0.2 }
        guard !newRates.isEmpty else { return }
        changed += newRates.map { "rates.\($0.0) \(fixed($0.1, 1)) -> \(fixed($0.2, 1)) Hz" }
        if let adaptive = loop.ticks.adaptive {
            adaptive.useWalkingRates(
                imu: fresh.imuRateHz, magnetometer: fresh.magnetometerRateHz,
                barometer: fresh.barometerRateHz, processing: fresh.processingRateHz)
        } else {
            for (task, hz) in [
                ("imu", fresh.imuRateHz), ("mag", fresh.magnetometerRateHz), ("baro", fresh.barometerRateHz), ("process", fresh.processingRateHz)
            ] {
                if let index = loop.scheduler.taskIndex(named: task) { loop.scheduler.setRate(task: index, hz: hz) }
            }
        }
        (applied.imuRateHz, applied.magnetometerRateHz, applied.barometerRateHz, applied.processingRateHz) =
            (fresh.imuRateHz, fresh.magnetometerRateHz, fresh.barometerRateHz, fresh.processingRateHz)
    }

    /// Moves the gpsd TCP listener and the NMEA outputs. An address that cannot be opened is
    /// said, and the old one is opened again, so a typo never leaves a client with nothing.
    private static func applyOutputs<Clock: MonotonicClock>(
        _ fresh: Configuration, to applied: inout Configuration, changed: inout [String],
        loop: OutputLoop<Clock>
    ) {
        let running = loop.running
        if fresh.listen != running.listen, let server = loop.context.fanout.server {
            do {
                try server.relisten(tcp: fresh.listen)
                changed.append("listen \(running.listen ?? "none") -> \(fresh.listen ?? "none")")
                applied.listen = fresh.listen
            } catch {
                Log.error(error.description + "; gpsd JSON stays on TCP \(running.listen ?? "none")")
                try? server.relisten(tcp: running.listen)
            }
        }
        let fanout = loop.context.fanout
        applySignalK(fresh, to: &applied, changed: &changed, loop: loop)
        if fresh.mqtt != running.mqtt {
            fanout.mqtt?.close()
            fanout.mqtt = nil
            fanout.mqtt = fresh.mqtt.map {
                MQTTFeed(settings: $0, dataDirectory: running.dataDir ?? Configuration.defaultDataDirectory(), now: loop.context.utcNow())
            }
            changed.append("mqtt \(running.mqtt?.broker ?? "off") -> \(fresh.mqtt?.broker ?? "off")")
            applied.mqtt = fresh.mqtt
        }
        guard fresh.nmeaListen != running.nmeaListen || fresh.nmeaUDP != running.nmeaUDP else { return }
        fanout.nmea?.shutdown()
        fanout.nmea = nil
        do {
            fanout.nmea = try StreamServer.opened(.nmea, address: fresh.nmeaListen, udp: fresh.nmeaUDP)
            if fresh.nmeaListen != running.nmeaListen { changed.append("nmeaListen \(running.nmeaListen ?? "none") -> \(fresh.nmeaListen ?? "none")") }
            if fresh.nmeaUDP != running.nmeaUDP { changed.append("nmeaUDP \(running.nmeaUDP ?? "none") -> \(fresh.nmeaUDP ?? "none")") }
            (applied.nmeaListen, applied.nmeaUDP) = (fresh.nmeaListen, fresh.nmeaUDP)
        } catch {
            Log.error(error.description + "; NMEA 0183 stays on \(running.nmeaListen ?? "no TCP") and \(running.nmeaUDP ?? "no UDP")")
            fanout.nmea = try? StreamServer.opened(.nmea, address: running.nmeaListen, udp: running.nmeaUDP)
        }
    }

    private static func applySignalK<Clock: MonotonicClock>(
        _ fresh: Configuration, to applied: inout Configuration, changed: inout [String],
        loop: OutputLoop<Clock>
    ) {
        let running = loop.running
        guard
            fresh.signalKListen != running.signalKListen || fresh.signalKUDP != running.signalKUDP
                || fresh.signalKRates != running.signalKRates
        else { return }
        let fanout = loop.context.fanout
        fanout.signalK?.server.shutdown()
        fanout.signalK = nil
        do {
            fanout.signalK = try SignalKOutput.opened(address: fresh.signalKListen, udp: fresh.signalKUDP, rates: fresh.signalKRates)
            if fresh.signalKListen != running.signalKListen {
                changed.append("signalKListen \(running.signalKListen ?? "none") -> \(fresh.signalKListen ?? "none")")
            }
            if fresh.signalKUDP != running.signalKUDP { changed.append("signalKUDP \(running.signalKUDP ?? "none") -> \(fresh.signalKUDP ?? "none")") }
            if fresh.signalKRates != running.signalKRates { changed.append("signalKRates") }
            (applied.signalKListen, applied.signalKUDP, applied.signalKRates) = (fresh.signalKListen, fresh.signalKUDP, fresh.signalKRates)
        } catch {
            Log.error(error.description + "; Signal K stays on \(running.signalKListen ?? "no TCP") and \(running.signalKUDP ?? "no UDP")")
            fanout.signalK = try? SignalKOutput.opened(address: running.signalKListen, udp: running.signalKUDP, rates: running.signalKRates)
        }
    }
}
