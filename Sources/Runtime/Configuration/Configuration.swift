import Glibc
import LodestoneCore
import LodestoneDomain
import LodestoneHAL
import LodestoneOutputs
import LodestoneSim

/// Everything `lodestone run` can be told, from the configuration file and the command line
/// (the command line wins). Defaults are what a handheld on the simulated board needs.
public struct Configuration: Sendable, Equatable {
    /// "sim" or the path of a board file.
    public var board = "sim"
    public var scenario = "walk"
    /// Where the compass is read: in the hand, or fixed to a boat (which calibrates from
    /// swings). Nil: a boat on the simulated boat scenario, a handheld otherwise.
    public var use: CompassUse?
    /// World time per real second on the simulated board.
    public var speed = 1.0
    public var seed: UInt64 = 1
    /// Socket path; nil picks the default for the user (see `defaultSocketPath`).
    public var socket: String?
    /// Also serve gpsd JSON on TCP ("127.0.0.1:2947"); off unless given.
    public var listen: String?
    /// Serve NMEA 0183 on TCP ("127.0.0.1:10110"); off unless given.
    public var nmeaListen: String?
    /// Where to send NMEA 0183 datagrams (unicast or broadcast), if anywhere.
    public var nmeaUDP: String?
    /// Signal K deltas: a TCP listener (newline-framed) and a UDP address (one per datagram),
    /// and sends per second by path over the defaults (0 leaves a path out).
    public var signalKListen: String?
    public var signalKUDP: String?
    public var signalKRates: [String: Double] = [:]
    /// The MQTT output (nil: off).
    public var mqtt: MQTTSettings?
    public var dataDir: String?
    /// "terminal", "none" or "fb:DEVICE"; nil picks terminal when stdout is a terminal.
    public var display: String?
    public var duration: Double?
    /// Faults injected into the simulated trip (`--fault`).
    public var faults: [SimulatedFault] = []
    /// The simulated trip begins with a figure-8 calibration (the referee's trips do).
    public var figure8First = false
    /// Stop after this much of the device's own time (simulated seconds on the simulated
    /// board), whatever the speed: the referee's trips.
    public var tripDuration: Double?
    /// The display's first page, its units and theme (keys and the page button change them).
    public var page = DisplayPage.compass
    /// The units chosen (nil: the default, nautical for a boat, else metric).
    public var unitsChoice: Units?
    public var units: Units {
        get { unitsChoice ?? (compassUse == .boat ? .nautical : .metric) }
        set { unitsChoice = newValue }
    }
    public var theme = Theme.day
    /// What the flip gesture does: toggle the night theme (the default), turn the page, show
    /// only the marked departures (or all again), or nothing.
    public var flipAction = FlipAction.nightTheme
    public enum FlipAction: String, Sendable, Equatable, CaseIterable {
        case nightTheme, nextPage, markedDepartures, none
    }
    /// A satellite's passes (the ISS by default) from a TLE file, announced minutes before.
    public var satelliteTLE: String?
    public var satelliteName: String?
    public var satelliteAlertMinutes = 5.0
    /// What the buzzer plays for each event, the mute, the quiet hours, the cardinal click.
    var sounds = SoundSettings()
    /// The display settings the command line gave: they win over the choice a key saved.
    public var commandLineDisplay: Set<String> = []
    /// `lodestone screenshot`: draw the page into memory of this size and format instead of a
    /// display, and write it to `path` as a PNG when the run ends.
    public var picture: Picture?
    public struct Picture: Sendable, Equatable {
        public var width: Int
        public var height: Int
        public var format: PixelFormat
        public var path: String
        public init(width: Int, height: Int, format: PixelFormat, path: String) {
            self.width = width
            self.height = height
            self.format = format
            self.path = path
        }
    }
    public var stats = false
    public var loopRateHz = 200.0
    public var imuRateHz = 100.0
    public var magnetometerRateHz = 50.0
    public var barometerRateHz = 25.0
    /// How often the serial port is drained of GPS bytes.
    public var gpsPollRateHz = 20.0
    /// How often heading, attitude and altitude are computed and published.
    public var processingRateHz = 50.0
    /// Fix rate of the simulated GPS receiver, 1..10 Hz.
    public var simulatedGPSRateHz = 1.0
    /// Sea-level pressure for barometric altitude, hPa.
    public var qnh = 1013.25
    public var realTimePriority: Int? = 50
    public var cpu: Int?
    public var lockMemory = true
    /// Hold CPU wake-up latency at 0 (more punctual sampling, more idle power); for mains power.
    public var keepCPUAwake = false
    /// Adaptive sampling: rates follow the motion state, the power supply and the CPU load.
    public var adaptiveSampling = true
    /// Run the low-power profile whatever the battery says.
    public var lowPower = false
    public var lowBatteryPercent = 20.0
    public var powerSupplyDirectory = "/sys/class/power_supply"
    /// The adaptive sampling table (its walking row is the configured rates).
    public var samplingTable = SamplingTable.defaults
    /// Where the sky is computed for when there is no GPS fix, and the zone its times are in
    /// (nil: the system's zone).
    public var observer: Place?
    public struct Place: Sendable, Equatable {
        public var latitude: Double
        public var longitude: Double
    }
    public var timeZone: String?
    /// How tracks take points unless a start says otherwise.
    public var trackInterval = TrackSampler.Mode.every(5)

    public init() {}

    /// Where the compass is read, as the run uses it.
    public var compassUse: CompassUse { use ?? (board == "sim" && scenario == "boat" ? .boat : .handheld) }

    /// Keys a configuration file may hold, with what each must be.
    static let keys: [String: String] = [
        "board": "\"sim\" or the path of a board file",
        "scenario": "one of " + ScenarioName.list,
        "use": "\"handheld\" or \"boat\"",
        "speed": "a number from 0.1 to 1000",
        "seed": "a whole number from 0 up",
        "socket": "a path",
        "listen": "a TCP address for gpsd JSON, \"127.0.0.1:2947\" (a bare port means 127.0.0.1)",
        "nmeaListen": "a TCP address for NMEA 0183, \"127.0.0.1:10110\" (a bare port means 127.0.0.1)",
        "nmeaUDP": "a UDP address to send NMEA 0183 to, \"192.168.1.255:10110\" (a host alone means port 10110)",
        "signalKListen": "a TCP address for Signal K deltas, \"127.0.0.1:8375\" (a bare port means 127.0.0.1)",
        "signalKUDP": "a UDP address to send Signal K deltas to, \"192.168.1.20:8375\"",
        "signalKRates": "an object of Signal K paths and sends per second (0 to 50; 0 leaves the path out), {\"navigation.attitude\": 2}",
        "mqtt": "an object with broker (\"HOST:PORT\"), and optionally device, clientId, topicPrefix, username, password (or passwordFile: a file holding it, a bare name read from $CREDENTIALS_DIRECTORY), qos (0 or 1), cleanSession, interval (s), keepAlive (s), discovery, discoveryPrefix, queueLimit",
        "dataDir": "a path",
        "display": "\"terminal\", \"none\" or \"fb:/dev/fbN\"",
        "page": "the display's first page: compass, position, level, barometer, sky, chart, track or health",
        "units": "\"metric\", \"imperial\" or \"nautical\" (knots, nautical miles; the default for a boat)",
        "theme": "\"day\" or \"night\" (red on black)",
        "sounds": "an object: a pattern for any of button, longPress, alert, offCourse, level, snapshot, lock, cardinal, satellitePass (one of "
            + SoundSettings.patternNames + "), mute (true/false), quietHours (\"22:00-07:00\"), cardinalClick (true/false)",
        "satellites": "an object with tle (a TLE file's path), satellite (a name or catalogue number; the ISS by default), alertMinutes (1..120)",
        "flipAction": "what the flip gesture does: \"nightTheme\", \"nextPage\", \"markedDepartures\" or \"none\"",
        "loopRateHz": "a number from 10 to 2000",
        "rates": "an object with imu, magnetometer, barometer, gps, processing (Hz)",
        "simulatedGPSRateHz": "a number from 1 to 10",
        "qnh": "a pressure in hPa from 850 to 1100",
        "trackInterval": "seconds between track points, 1 to 30, or \"adaptive\"",
        "observer": "an object with latitude and longitude (degrees): the sky's place without a GPS fix",
        "timeZone": "an IANA zone (Europe/Zurich) or an offset (+02:00) for the sky's times",
        "realTime": "an object with priority (1..99 or null), cpu (a CPU number or null), lockMemory (true/false), keepCPUAwake (true/false)",
        "sampling": "an object with adaptive (true/false), lowPower (true/false), lowBatteryPercent (5..80), powerSupply (a directory), rates ({\"still\": {\"imu\": 25, ...}, ...}), lowPowerCeiling ({\"imu\": 50, ...})",
    ]
    static let rateKeys = ["imu", "magnetometer", "barometer", "gps", "processing"]
    static let realTimeKeys = ["priority", "cpu", "lockMemory", "keepCPUAwake"]

    /// Reads and validates a configuration file over these settings. The error names the file,
    /// the key and what is wrong with it.
    public mutating func load(file path: String) throws(ConfigurationError) {
        let text: String
        do { text = try readTextFile(path) } catch { throw ConfigurationError(file: path, key: nil, problem: error.description) }
        try load(text: text, file: path)
    }

    /// Reads a configuration file's `text` over these settings; `path` names it in errors.
    mutating func load(text: String, file path: String) throws(ConfigurationError) {
        let root: JSONValue
        do { root = try JSONValue.parse(text) } catch {
            throw ConfigurationError(file: path, key: nil, problem: "not valid JSON: \(error.description)")
        }
        guard case .object(let members) = root else {
            throw ConfigurationError(file: path, key: nil, problem: "the file must hold one JSON object")
        }
        for (key, value) in members {
            try apply(key: key, value: value, file: path)
        }
    }

    mutating func apply(key: String, value: JSONValue, file: String) throws(ConfigurationError) {
        // A key starting with "//" is a comment (JSON has none of its own): the installed
        // file explains each setting that way.
        if key.hasPrefix("//") { return }
        func fail(_ key: String, _ expected: String) -> ConfigurationError {
            ConfigurationError(file: file, key: key, problem: "must be \(expected), found \(describe(value))")
        }
        func number(_ key: String, _ range: ClosedRange<Double>, _ v: JSONValue) throws(ConfigurationError) -> Double {
            guard let n = v.numberValue, range.contains(n) else {
                throw ConfigurationError(file: file, key: key,
                                         problem: "must be a number from \(fixed(range.lowerBound, 3)) to \(fixed(range.upperBound, 3)), found \(describe(v))")
            }
            return n
        }
        func whole(_ key: String, _ range: ClosedRange<Int>, _ v: JSONValue) throws(ConfigurationError) -> Int {
            guard let n = v.numberValue, let value = Int(whole: n, in: range) else {
                throw ConfigurationError(file: file, key: key, problem: "must be a whole number from \(range.lowerBound) to \(range.upperBound), found \(describe(v))")
            }
            return value
        }
        func boolean(_ key: String, _ v: JSONValue) throws(ConfigurationError) -> Bool {
            guard let b = v.boolValue else {
                throw ConfigurationError(file: file, key: key, problem: "must be true or false, found \(describe(v))")
            }
            return b
        }
        switch key {
        case "board":
            guard let s = value.stringValue, !s.isEmpty else { throw fail(key, Self.keys[key] ?? "") }
            board = s
        case "scenario":
            guard let s = value.stringValue, ScenarioName(rawValue: s) != nil else {
                throw ConfigurationError(file: file, key: key, problem: "must be one of \(ScenarioName.list), found \(describe(value))")
            }
            scenario = s
        case "use":
            guard let s = value.stringValue, let chosen = CompassUse(rawValue: s) else {
                throw ConfigurationError(file: file, key: key, problem: "must be \"handheld\" or \"boat\", found \(describe(value))")
            }
            use = chosen
        case "speed": speed = try number(key, 0.1...1000, value)
        case "seed":
            let n = try number(key, 0...9_007_199_254_740_991, value)
            guard let whole = UInt64(whole: n) else { throw fail(key, "a whole number") }
            seed = whole
        case "socket", "dataDir":
            guard let s = value.stringValue, !s.isEmpty else { throw fail(key, "a path") }
            if key == "socket" { socket = s } else { dataDir = s }
        case "listen", "nmeaListen", "signalKListen":
            guard let s = value.stringValue, NetworkAddress.parse(s) != nil else {
                throw ConfigurationError(file: file, key: key, problem: "must be \(Self.keys[key] ?? ""), found \(describe(value))")
            }
            switch key {
            case "listen": listen = s
            case "nmeaListen": nmeaListen = s
            default: signalKListen = s
            }
        case "signalKUDP":
            guard let s = value.stringValue, NetworkAddress.destination(s, defaultPort: nil) != nil else {
                throw ConfigurationError(file: file, key: key, problem: "must be \(Self.keys[key] ?? ""), found \(describe(value))")
            }
            signalKUDP = s
        case "signalKRates":
            guard case .object(let rates) = value else { throw fail(key, "an object") }
            for (name, rate) in rates {
                guard SignalKPath.named(name) != nil else {
                    throw ConfigurationError(file: file, key: key + "." + name,
                                             problem: "not a path Lodestone sends; the paths: " + SignalKPath.allCases.map(\.text).joined(separator: ", "))
                }
                signalKRates[name] = try number(key + "." + name, 0...50, rate)
            }
        case "nmeaUDP":
            guard let s = value.stringValue, NetworkAddress.destination(s, defaultPort: NetworkAddress.nmeaPort) != nil else {
                throw ConfigurationError(file: file, key: key, problem: "must be \(Self.keys[key] ?? ""), found \(describe(value))")
            }
            nmeaUDP = s
        case "display":
            guard let s = value.stringValue, Self.isValidDisplay(s) else {
                throw ConfigurationError(file: file, key: key, problem: "must be \(Self.keys[key] ?? ""), found \(describe(value))")
            }
            display = s
        case "page", "units", "theme":
            guard let name = value.stringValue else { throw ConfigurationError(file: file, key: key, problem: "must be \(Self.keys[key] ?? ""), found \(describe(value))") }
            switch key {
            case "page": guard let v = DisplayPage(rawValue: name) else { fallthrough }; page = v
            case "units": guard let v = Units(rawValue: name) else { fallthrough }; units = v
            case "theme": guard let v = Theme(rawValue: name) else { fallthrough }; theme = v
            default: throw ConfigurationError(file: file, key: key, problem: "must be \(Self.keys[key] ?? ""), found \(describe(value))")
            }
        case "loopRateHz": loopRateHz = try number(key, 10...2000, value)
        case "simulatedGPSRateHz": simulatedGPSRateHz = try number(key, 1...10, value)
        case "qnh": qnh = try number(key, 850...1100, value)
        case "observer":
            guard let latitude = value["latitude"]?.numberValue, let longitude = value["longitude"]?.numberValue,
                  abs(latitude) <= 90, abs(longitude) <= 180 else {
                throw ConfigurationError(file: file, key: key, problem: "must be {\"latitude\": -90..90, \"longitude\": -180..180}")
            }
            observer = Place(latitude: latitude, longitude: longitude)
        case "timeZone":
            guard let name = value.stringValue, (try? TimeZoneRules(name)) != nil else {
                throw ConfigurationError(file: file, key: key, problem: "must be an IANA zone such as Europe/Zurich or an offset such as +02:00, found \(describe(value))")
            }
            timeZone = name
        case "trackInterval":
            guard let mode = TrackSampler.Mode(value.stringValue ?? value.numberValue.map { String($0) } ?? "") else {
                throw ConfigurationError(file: file, key: key, problem: "must be 1 to 30 (seconds) or \"adaptive\", found \(describe(value))")
            }
            trackInterval = mode
        case "rates":
            guard case .object(let rates) = value else { throw fail(key, "an object") }
            for (name, rate) in rates {
                let path = "rates." + name
                switch name {
                case "imu": imuRateHz = try number(path, 1...1000, rate)
                case "magnetometer": magnetometerRateHz = try number(path, 1...1000, rate)
                case "barometer": barometerRateHz = try number(path, 1...1000, rate)
                case "gps": gpsPollRateHz = try number(path, 1...1000, rate)
                case "processing": processingRateHz = try number(path, 1...1000, rate)
                default:
                    throw ConfigurationError(file: file, key: path, problem: "unknown key; known keys: \(Self.rateKeys.joined(separator: ", "))")
                }
            }
        case "sounds":
            guard case .object(let members) = value else { throw fail(key, "an object") }
            for (name, item) in members {
                let path = "sounds." + name
                switch name {
                case "mute": sounds.mute = try boolean(path, item)
                case "cardinalClick": sounds.cardinalClick = try boolean(path, item)
                case "quietHours":
                    if item == .null { sounds.quietHours = nil; continue }
                    guard let text = item.stringValue, let window = SoundSettings.window(text) else {
                        throw ConfigurationError(file: file, key: path, problem: "must be a window of local time, \"22:00-07:00\", or null, found \(describe(item))")
                    }
                    sounds.quietHours = window
                default:
                    guard let kind = SoundSettings.Kind(rawValue: name) else {
                        throw ConfigurationError(file: file, key: path, problem: "unknown key; known keys: "
                                                 + (SoundSettings.Kind.allCases.map(\.rawValue) + ["mute", "quietHours", "cardinalClick"]).joined(separator: ", "))
                    }
                    guard let pattern = item.stringValue, SoundSettings.pattern(named: pattern) != nil else {
                        throw ConfigurationError(file: file, key: path, problem: "must be one of \(SoundSettings.patternNames), found \(describe(item))")
                    }
                    sounds.chosen[kind] = pattern
                }
            }
        case "satellites":
            guard case .object(let members) = value else { throw fail(key, "an object") }
            for (name, item) in members {
                let path = "satellites." + name
                switch name {
                case "tle":
                    guard let s = item.stringValue, !s.isEmpty else { throw ConfigurationError(file: file, key: path, problem: "must be a path, found \(describe(item))") }
                    satelliteTLE = s
                case "satellite":
                    guard let s = item.stringValue, !s.isEmpty else { throw ConfigurationError(file: file, key: path, problem: "must be a name or a catalogue number, found \(describe(item))") }
                    satelliteName = s
                case "alertMinutes": satelliteAlertMinutes = try number(path, 1...120, item)
                default: throw ConfigurationError(file: file, key: path, problem: "unknown key; known keys: tle, satellite, alertMinutes")
                }
            }
        case "flipAction":
            guard let name = value.stringValue, let action = FlipAction(rawValue: name) else {
                throw ConfigurationError(file: file, key: key, problem: "must be \(Self.keys[key] ?? ""), found \(describe(value))")
            }
            flipAction = action
        case "mqtt":
            mqtt = try MQTTSettings.decode(value, file: file)
        case "realTime":
            guard case .object(let options) = value else { throw fail(key, "an object") }
            for (name, option) in options {
                let path = "realTime." + name
                switch name {
                case "priority":
                    if option == .null { realTimePriority = nil } else { realTimePriority = try whole(path, 1...99, option) }
                case "cpu":
                    if option == .null { cpu = nil } else { cpu = try whole(path, 0...1023, option) }
                case "lockMemory":
                    lockMemory = try boolean(path, option)
                case "keepCPUAwake":
                    keepCPUAwake = try boolean(path, option)
                default:
                    throw ConfigurationError(file: file, key: path, problem: "unknown key; known keys: \(Self.realTimeKeys.joined(separator: ", "))")
                }
            }
        case "sampling":
            try applySampling(value, file: file)
        default:
            throw ConfigurationError(file: file, key: key,
                                     problem: "unknown key; known keys: \(Self.keys.keys.sorted().joined(separator: ", "))")
        }
    }

    static func isValidDisplay(_ value: String) -> Bool {
        value == "terminal" || value == "none" || (value.hasPrefix("fb:") && value.count > 3)
    }

    /// Checks the combination of settings, whatever their source (`file` when it is one file's).
    public func validate(file: String? = nil) throws(ConfigurationError) {
        for (name, rate) in [("imu", imuRateHz), ("magnetometer", magnetometerRateHz), ("barometer", barometerRateHz),
                             ("gps", gpsPollRateHz), ("processing", processingRateHz)] where rate > loopRateHz {
            throw ConfigurationError(file: file, key: "rates." + name,
                                     problem: "\(fixed(rate, 1)) Hz is faster than the loop rate \(fixed(loopRateHz, 1)) Hz: raise loopRateHz or lower the rate")
        }
    }

    /// /run/lodestone for the system service, $XDG_RUNTIME_DIR for a user, /tmp otherwise.
    public static func defaultSocketPath() -> String {
        if getuid() == 0 { return "/run/lodestone/lodestone.sock" }
        if let runtime = getenv("XDG_RUNTIME_DIR") { return String(cString: runtime) + "/lodestone.sock" }
        return "/tmp/lodestone-\(getuid()).sock"
    }

    /// /var/lib/lodestone for the system service, ~/.local/share/lodestone for a user.
    public static func defaultDataDirectory() -> String {
        if getuid() == 0 { return "/var/lib/lodestone" }
        if let home = getenv("HOME") { return String(cString: home) + "/.local/share/lodestone" }
        return "/tmp/lodestone-\(getuid())"
    }

    public static let defaultConfigurationFile = "/etc/lodestone/lodestone.json"
}
