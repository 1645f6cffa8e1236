import LodestoneCore
import LodestoneOutputs
import LodestoneSettings

/// What the running device does to put a live setting in force, one entry per part of it.
/// Which settings a reload takes is the table's `reload` column; an entry here says how, and a
/// live setting no entry covers waits for a restart rather than being claimed as applied.
struct LiveEffect<Clock: MonotonicClock> {
    /// Whether it puts the setting with this key (the table's) in force.
    let covers: (String) -> Bool
    /// Puts `fresh`'s values in force; false when it could not, and the running ones stay.
    let apply: (_ loop: OutputLoop<Clock>, _ running: Configuration, _ fresh: Configuration) -> Bool

    init(_ keys: Set<String> = [], prefix: String? = nil, apply: @escaping (OutputLoop<Clock>, Configuration, Configuration) -> Bool) {
        covers = { key in keys.contains(key) || prefix.map { key.hasPrefix($0) } == true }
        self.apply = apply
    }
}

enum LiveEffects {
    static func all<Clock: MonotonicClock>(_: Clock.Type = Clock.self) -> [LiveEffect<Clock>] {
        [
            // Only what changed: a page the user turned to stays unless the file's page moved.
            LiveEffect(["page", "units", "theme", "north", "language"]) { loop, running, fresh in
                if fresh.page != running.page { loop.display.page = fresh.page }
                if fresh.theme != running.theme { loop.display.theme = fresh.theme }
                if fresh.north != running.north { loop.display.north = fresh.north }
                if fresh.units != running.units { loop.display.units = fresh.units }
                loop.display.language = fresh.language
                return true
            },
            // Every face takes its times from the one local clock: changed there, changed everywhere.
            LiveEffect(["timeZone", "clock"]) { loop, _, fresh in
                let services = loop.context.services
                let phone = services.unsetZone.source == .phone && DeviceZone.isUTC(fresh.timeZone)
                let wanted = phone ? services.unsetZone : fresh.timeZone.map { DeviceZone.Choice(name: $0, source: .configuration) } ?? services.unsetZone
                guard let zone = try? TimeZoneRules(wanted.name) else {
                    Log.warning("timeZone: '\(fresh.timeZone ?? "")' cannot be read; the zone stays \(services.localClock.zone.name)")
                    return false
                }
                services.localClock.set(zone: zone, twelveHour: fresh.clock == .h12)
                services.zone = wanted
                Log.info("times are shown in \(zone.name) (\(zone.abbreviation(at: loop.context.utcNow()))) on a \(fresh.clock.rawValue) clock")
                return true
            },
            LiveEffect(["rates.imu", "rates.magnetometer", "rates.barometer", "rates.processing"]) { loop, _, fresh in
                setRates(fresh, loop: loop)
                return true
            },
            LiveEffect(["qnh"]) { loop, _, fresh in
                guard let chronicle = loop.context.services.chronicle else {
                    Log.warning("qnh: no weather service runs to take it")
                    return false
                }
                _ = chronicle.weather.handle(.qnh(fresh.qnh))
                return true
            },
            LiveEffect(prefix: "sounds.") { loop, _, fresh in
                loop.context.services.controls?.sounds = fresh.sounds
                return true
            },
            // The display driver takes it from the running configuration.
            LiveEffect(["flipAction"]) { loop, _, fresh in
                loop.context.services.motion?.flipAction = fresh.flipAction
                return true
            },
            LiveEffect(["listen"], apply: moveListener),
            LiveEffect(["nmeaListen", "nmeaUDP"], apply: reopenNMEA),
            LiveEffect(["signalKListen", "signalKUDP", "signalKRates"], apply: reopenSignalK),
            LiveEffect(prefix: "mqtt.") { loop, running, fresh in
                let fanout = loop.context.fanout
                fanout.mqtt?.close()
                fanout.mqtt = nil
                fanout.mqtt = fresh.mqtt.map {
                    MQTTFeed(settings: $0, dataDirectory: running.dataDir ?? Configuration.defaultDataDirectory(), now: loop.context.utcNow())
                }
                return true
            },
            // `track import` reads it from the file each time: the running device holds none of it.
            LiveEffect(["tracks.importMaxMB"]) { _, _, _ in true }
        ]
    }

    private static func setRates<Clock: MonotonicClock>(_ fresh: Configuration, loop: OutputLoop<Clock>) {
        if let adaptive = loop.ticks.adaptive {
            adaptive.useWalkingRates(
                imu: fresh.imuRateHz, magnetometer: fresh.magnetometerRateHz,
                barometer: fresh.barometerRateHz, processing: fresh.processingRateHz)
            return
        }
        for (task, hz) in [
            ("imu", fresh.imuRateHz), ("mag", fresh.magnetometerRateHz), ("baro", fresh.barometerRateHz), ("process", fresh.processingRateHz)
        ] {
            if let index = loop.scheduler.taskIndex(named: task) { loop.scheduler.setRate(task: index, hz: hz) }
        }
    }

    /// An address that cannot be opened is said, and the old one opened again, so a typo never
    /// leaves a client with nothing.
    private static func moveListener<Clock: MonotonicClock>(_ loop: OutputLoop<Clock>, running: Configuration, fresh: Configuration) -> Bool {
        guard let server = loop.context.fanout.server else {
            Log.warning("listen: no gpsd JSON server runs to move")
            return false
        }
        do {
            try server.relisten(tcp: fresh.listen)
            return true
        } catch {
            Log.error(error.description + "; gpsd JSON stays on TCP \(running.listen ?? "none")")
            try? server.relisten(tcp: running.listen)
            return false
        }
    }

    private static func reopenNMEA<Clock: MonotonicClock>(_ loop: OutputLoop<Clock>, running: Configuration, fresh: Configuration) -> Bool {
        let fanout = loop.context.fanout
        fanout.nmea?.shutdown()
        fanout.nmea = nil
        do {
            fanout.nmea = try StreamServer.opened(.nmea, address: fresh.nmeaListen, udp: fresh.nmeaUDP)
            return true
        } catch {
            Log.error(error.description + "; NMEA 0183 stays on \(running.nmeaListen ?? "no TCP") and \(running.nmeaUDP ?? "no UDP")")
            fanout.nmea = try? StreamServer.opened(.nmea, address: running.nmeaListen, udp: running.nmeaUDP)
            return false
        }
    }

    private static func reopenSignalK<Clock: MonotonicClock>(_ loop: OutputLoop<Clock>, running: Configuration, fresh: Configuration) -> Bool {
        let fanout = loop.context.fanout
        fanout.signalK?.server.shutdown()
        fanout.signalK = nil
        do {
            fanout.signalK = try SignalKOutput.opened(address: fresh.signalKListen, udp: fresh.signalKUDP, rates: fresh.signalKRates)
            return true
        } catch {
            Log.error(error.description + "; Signal K stays on \(running.signalKListen ?? "no TCP") and \(running.signalKUDP ?? "no UDP")")
            fanout.signalK = try? SignalKOutput.opened(address: running.signalKListen, udp: running.signalKUDP, rates: running.signalKRates)
            return false
        }
    }
}
