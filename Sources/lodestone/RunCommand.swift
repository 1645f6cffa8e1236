import LodestoneCore
import LodestoneOutputs
import LodestoneDomain
import LodestoneRuntime
import LodestoneSim

enum RunCommand {
    static let spec = OptionSpec(
        valued: ["board", "scenario", "use", "speed", "seed", "duration", "socket", "display", "page", "units", "theme", "listen", "nmea-listen", "nmea-udp", "signalk-listen", "signalk-udp", "mqtt", "data-dir", "config",
                 "loop-rate", "imu-rate", "mag-rate", "baro-rate", "gps-rate", "qnh", "priority", "cpu", "fault"],
        flags: ["stats", "no-mlock", "no-adaptive", "low-power"])

    static func main(_ arguments: ArraySlice<String>) throws(UsageError) -> Int32 {
        let options = try Options(arguments, spec: spec, command: "run")
        guard options.positional.isEmpty else {
            throw UsageError(message: "'run' takes no arguments, found '\(options.positional[0])' (see 'lodestone run --help')")
        }
        var configuration = Configuration()
        let configFile = options.values["config"]
            ?? (fileExists(Configuration.defaultConfigurationFile) ? Configuration.defaultConfigurationFile : nil)
        if let configFile {
            // A file that contradicts itself is the file's error (exit 1, named); one that the
            // command line makes contradictory is a usage error (exit 2).
            do {
                try configuration.load(file: configFile)
                try configuration.validate(file: configFile)
            } catch {
                Log.error(error.description)
                return 1
            }
        }
        try apply(options, to: &configuration)
        do { try configuration.validate() } catch { throw UsageError(message: error.description) }
        // SIGHUP reads the same file again, with the same command line over it.
        let reload: ConfigurationReload? = configFile.map { file in
            {
                var fresh = Configuration()
                do {
                    try fresh.load(file: file)
                    try fresh.validate(file: file)
                } catch {
                    return .failure(ConfigurationReloadError(String(describing: error)))
                }
                do { try apply(options, to: &fresh) } catch let error as UsageError {
                    return .failure(ConfigurationReloadError(error.message))
                } catch {
                    return .failure(ConfigurationReloadError(String(describing: error)))
                }
                do { try fresh.validate() } catch { return .failure(ConfigurationReloadError(String(describing: error))) }
                return .success(fresh)
            }
        }
        return Runner.run(configuration, reload: reload)
    }

    /// Command-line options override the configuration file.
    static func apply(_ o: Options, to c: inout Configuration) throws(UsageError) {
        if let board = o.values["board"] { c.board = board }
        if let scenario = o.values["scenario"] {
            guard ScenarioName(rawValue: scenario) != nil else {
                throw UsageError(message: "--scenario must be one of \(ScenarioName.list), not '\(scenario)'")
            }
            c.scenario = scenario
        }
        if let use = o.values["use"] {
            guard let chosen = CompassUse(rawValue: use) else {
                throw UsageError(message: "--use must be handheld or boat, not '\(use)'")
            }
            c.use = chosen
        }
        if let speed = try o.number("speed", in: 0.1...1000) { c.speed = speed }
        if let list = o.values["fault"] {
            c.faults = try list.split(separator: ",").map { text throws(UsageError) -> SimulatedFault in
                guard let fault = SimulatedFault(String(text)) else {
                    throw UsageError(message: "--fault takes KIND@SECONDS[+DURATION] with KIND one of "
                                     + SimulatedFault.Kind.allCases.map(\.rawValue).joined(separator: ", ") + ", not '\(text)'")
                }
                return fault
            }
        }
        if let seed = try o.integer("seed", in: 0...Int.max) { c.seed = UInt64(seed) }
        if let duration = try o.number("duration", in: 0...1e9) { c.duration = duration }
        if let socket = o.values["socket"] { c.socket = socket }
        if let display = o.values["display"] {
            guard display == "terminal" || display == "none" || (display.hasPrefix("fb:") && display.count > 3) else {
                throw UsageError(message: "--display must be terminal, none or fb:/dev/fbN, not '\(display)'")
            }
            c.display = display
        }
        if let name = o.values["page"] {
            guard let page = DisplayPage(rawValue: name) else {
                throw UsageError(message: "--page must be one of \(DisplayPage.allCases.map(\.rawValue).joined(separator: ", ")), not '\(name)'")
            }
            c.page = page
        }
        if o.values["units"] != nil {
            c.units = try Units.option(o)
            c.commandLineDisplay.insert("units")
        }
        if let name = o.values["theme"] {
            guard let theme = Theme(rawValue: name) else { throw UsageError(message: "--theme must be day or night, not '\(name)'") }
            c.theme = theme
            c.commandLineDisplay.insert("theme")
        }
        for (option, example) in [("listen", 2947), ("nmea-listen", 10110), ("signalk-listen", 8375)] {
            guard let address = o.values[option] else { continue }
            guard NetworkAddress.parse(address) != nil else {
                throw UsageError(message: "--\(option) takes HOST:PORT (127.0.0.1:\(example)) or a port, not '\(address)'")
            }
            switch option {
            case "listen": c.listen = address
            case "nmea-listen": c.nmeaListen = address
            default: c.signalKListen = address
            }
        }
        if let address = o.values["nmea-udp"] {
            guard NetworkAddress.destination(address, defaultPort: NetworkAddress.nmeaPort) != nil else {
                throw UsageError(message: "--nmea-udp takes HOST:PORT (192.168.1.255:10110), a host or a port, not '\(address)'")
            }
            c.nmeaUDP = address
        }
        if let broker = o.values["mqtt"] {
            guard MQTTSettings.isBrokerAddress(broker) else {
                throw UsageError(message: "--mqtt takes the broker's HOST:PORT (192.168.1.10:1883; a host alone means port 1883), not '\(broker)'")
            }
            if c.mqtt == nil { c.mqtt = MQTTSettings(broker: broker) } else { c.mqtt?.broker = broker }
        }
        if let address = o.values["signalk-udp"] {
            guard NetworkAddress.destination(address, defaultPort: nil) != nil else {
                throw UsageError(message: "--signalk-udp takes HOST:PORT (192.168.1.20:8375; the port signalk-server's \"Signal K over UDP\" connection listens on), not '\(address)'")
            }
            c.signalKUDP = address
        }
        if let dataDir = o.values["data-dir"] { c.dataDir = dataDir }
        if let rate = try o.number("loop-rate", in: 10...2000) { c.loopRateHz = rate }
        if let rate = try o.number("imu-rate", in: 1...1000) { c.imuRateHz = rate }
        if let rate = try o.number("mag-rate", in: 1...1000) { c.magnetometerRateHz = rate }
        if let rate = try o.number("baro-rate", in: 1...1000) { c.barometerRateHz = rate }
        if let rate = try o.number("gps-rate", in: 1...10) { c.simulatedGPSRateHz = rate }
        if let qnh = try o.number("qnh", in: 850...1100) { c.qnh = qnh }
        if let priority = o.values["priority"] {
            if priority == "none" { c.realTimePriority = nil } else {
                guard let p = Int(priority), (1...99).contains(p) else {
                    throw UsageError(message: "--priority must be 1..99 or none, not '\(priority)'")
                }
                c.realTimePriority = p
            }
        }
        if let cpu = try o.integer("cpu", in: 0...1023) { c.cpu = cpu }
        if o.flags.contains("no-mlock") { c.lockMemory = false }
        if o.flags.contains("no-adaptive") { c.adaptiveSampling = false }
        if o.flags.contains("low-power") { c.lowPower = true }
        if o.flags.contains("stats") { c.stats = true }
    }
}
