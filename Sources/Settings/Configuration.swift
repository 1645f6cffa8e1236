import Glibc
import LodestoneCore
import LodestoneDomain
import LodestoneHAL
import LodestoneSim
import LodestoneEncoding
import LodestoneBoard
import LodestoneReports

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
    /// UTC the simulated trip starts at (seconds since 1970); nil: 2026-06-21T08:00:00Z.
    public var simulatedStart: Double?
    /// The simulated trip starts at the system's time plus this many seconds when it starts
    /// ("now+0.25": a receiver whose clock is 0.25 s ahead); overrides `simulatedStart`.
    public var simulatedStartFromNow: Double?
    /// chrony's SOCK refclock socket: each fix's time offset is sent there (nil: off).
    public var chronySocket: String?
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
    /// The web app address (nil: off) and who may use it.
    public var httpListen: String?
    public var httpAccess = WebAccessMode.paired
    /// More host names the web app answers to, separated by commas.
    public var httpNames: String?
    /// The web server's share for one address: connections and event streams at once, and
    /// wrong pairing codes in a row before a minute's pause.
    public var httpConnectionsPerAddress = 8
    public var httpStreamsPerAddress = 4
    public var httpPairingAttempts = 10
    public var signalKUDP: String?
    public var signalKRates: [String: Double] = [:]
    /// The MQTT output (nil: off).
    public var mqtt: MQTTSettings?
    public var dataDir: String?
    /// "terminal", "none" or "fb:DEVICE"; nil picks terminal when stdout is a terminal.
    public var display: String?
    public var duration: Double?
    /// `run --record`: where the run's inputs are recorded (nil: not recorded), and the most
    /// the recording keeps on the card (the oldest part rotated out beyond it).
    public var recordPath: String?
    public var recordMaxMB = 200.0
    /// `run --reports`: every report the run publishes, one gpsd JSON line each, into this file
    /// (beside a recording, what `verify --recording FILE --reports FILE2` holds a replay to).
    public var reportsPath: String?
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
    /// The language of every face's words (nil: English on the display and the terminal, and
    /// the browser's own language in the web app).
    public var languageChoice: Language?
    public var language: Language { languageChoice ?? .en }
    /// The display's main heading: from true north (default) or magnetic.
    public var north = HeadingReference.true
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
    /// How far the nearest stop (one with a departure in the next 24 hours) may be, km.
    public var nearestStopWithinKm = 20.0
    /// What the buzzer plays for each event, the mute, the quiet hours, the cardinal click.
    package var sounds = SoundSettings()
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
        /// Where to write the frame's text runs as JSON (`--layout-json`), if asked.
        public var layoutPath: String?
        public init(width: Int, height: Int, format: PixelFormat, path: String, layoutPath: String? = nil) {
            self.width = width
            self.height = height
            self.format = format
            self.path = path
            self.layoutPath = layoutPath
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
    /// Where the sky is computed for when there is no GPS fix.
    public var observer: Place?
    public struct Place: Sendable, Equatable {
        public var latitude: Double
        public var longitude: Double
    }
    /// The device's one zone (`LocalClock`); nil: the system's, or the simulated scenario's place's.
    public var timeZone: String?
    /// How times of day are written: 14:32 or 2:32 pm.
    public var clock = ClockStyle.h24
    public enum ClockStyle: String, Sendable, Equatable, CaseIterable {
        case h24 = "24h", h12 = "12h"
    }
    /// How tracks take points unless a start says otherwise.
    public var trackInterval = TrackSampler.Mode.every(5)
    /// Auto-pause: below this speed (m/s) for this long (s) a recording pauses itself.
    public var autoPauseSpeed = 0.3
    public var autoPauseSeconds = 10.0
    /// The largest file `track import` takes, in MB (a GPX file is read as it is parsed, but
    /// its points are kept until the import is filed).
    public var trackImportMaxMB = 100.0
    /// The folder of the configuration file read (nil: none): secrets named by a setting are
    /// read from there (see `SecretFile`).
    public var configurationFolder: String?
    /// The configuration file read (nil: none): where a change from the web app is kept.
    public var configurationFile: String?

    public init() {}

    /// Where the compass is read, as the run uses it.
    public var compassUse: CompassUse { use ?? (board == "sim" && scenario == "boat" ? .boat : .handheld) }

    /// Reads and validates a configuration file over these settings. The error names the file,
    /// the key and what is wrong with it.
    public mutating func load(file path: String) throws(ConfigurationError) {
        let text: String
        do { text = try readTextFile(path) } catch { throw ConfigurationError(file: path, key: nil, problem: error.description) }
        configurationFile = path
        configurationFolder = path.lastIndex(of: "/").map { String(path[..<$0]) }.map { $0.isEmpty ? "/" : $0 } ?? "."
        try load(text: text, file: path)
        if let mqtt, mqtt.password != nil, mqtt.passwordFile == nil, PrivateFolder.othersMayRead(path) {
            Log.warning(
                "\(path) holds the MQTT password and other users can read it: 'chmod 600 \(path)', or give the password "
                    + "in a file of its own as mqtt.passwordFile (a systemd credential)")
        }
    }

    /// A configuration file read over the defaults and checked as a whole: what `run --config`,
    /// a SIGHUP and `config check` each read.
    public static func read(file path: String) throws(ConfigurationError) -> Configuration {
        var configuration = Configuration()
        try configuration.load(file: path)
        try configuration.validate(file: path)
        return configuration
    }

    /// Reads a configuration file's `text` over these settings; `path` names it in errors.
    package mutating func load(text: String, file path: String) throws(ConfigurationError) {
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

    /// One key of a configuration file's object and its value, as the settings table says:
    /// a setting, or an object of settings (`rates`, `mqtt`) read member by member.
    mutating func apply(key: String, value: JSONValue, file: String) throws(ConfigurationError) {
        try apply(name: key, value: value, prefix: "", file: file)
    }

    private mutating func apply(name: String, value: JSONValue, prefix: String, file: String) throws(ConfigurationError) {
        // A key starting with "//" is a comment (JSON has none of its own): the installed
        // file explains each setting that way.
        if name.hasPrefix("//") { return }
        let key = prefix.isEmpty ? name : prefix + "." + name
        // A dotted name is not a way round the nesting: "rates.imu" is written {"rates": {"imu": ...}}.
        if !name.contains("."), let setting = Setting.named[key] {
            if let problem = setting.apply(value, to: &self) { throw ConfigurationError(file: file, key: problem.key, problem: problem.text) }
        } else if !name.contains("."), Setting.groups.contains(key) {
            guard case .object(let members) = value else {
                throw ConfigurationError(file: file, key: key, problem: "must be an object; known keys: " + Setting.keys(under: key).joined(separator: ", "))
            }
            for (member, item) in members { try apply(name: member, value: item, prefix: key, file: file) }
        } else {
            throw ConfigurationError(
                file: file, key: key,
                problem: "unknown key" + NearestWord.hint(name, among: Setting.keys(under: prefix)) + "; known keys: "
                    + Setting.keys(under: prefix).joined(separator: ", "))
        }
    }

    static func isValidDisplay(_ value: String) -> Bool {
        value == "terminal" || value == "none" || (value.hasPrefix("fb:") && value.count > 3)
    }

    /// Checks the combination of settings, whatever their source (`file` when it is one file's).
    public func validate(file: String? = nil) throws(ConfigurationError) {
        if let mqtt, mqtt.broker.isEmpty {
            throw ConfigurationError(
                file: file, key: "mqtt.broker", problem: "is needed with the other MQTT settings: the broker's address, \"192.168.1.10:1883\"")
        }
        if let observer, !observer.latitude.isFinite || !observer.longitude.isFinite {
            throw ConfigurationError(file: file, key: "observer", problem: "needs both latitude and longitude, {\"latitude\": 47.37, \"longitude\": 8.54}")
        }
        for (name, rate) in [
            ("imu", imuRateHz), ("magnetometer", magnetometerRateHz), ("barometer", barometerRateHz),
            ("gps", gpsPollRateHz), ("processing", processingRateHz)
        ] where rate > loopRateHz {
            throw ConfigurationError(
                file: file, key: "rates." + name,
                problem: "\(fixed(rate, 1)) Hz is faster than the loop rate \(fixed(loopRateHz, 1)) Hz: raise loopRateHz or lower the rate")
        }
    }

    /// /run/lodestone for the system service, $XDG_RUNTIME_DIR for a user, /tmp otherwise.
    public static func defaultSocketPath() -> String {
        if getuid() == 0 { return "/run/lodestone/lodestone.sock" }
        if let runtime = getenv("XDG_RUNTIME_DIR") { return String(cString: runtime) + "/lodestone.sock" }
        return "/tmp/lodestone-\(getuid()).sock"
    }

    /// The socket a client command talks to: the user's own run's when it is there, else the
    /// system service's (a user in the lodestone group reaches the service without --socket).
    public static func clientSocketPath() -> String {
        let own = defaultSocketPath()
        let service = "/run/lodestone/lodestone.sock"
        return !fileExists(own) && fileExists(service) ? service : own
    }

    /// /var/lib/lodestone for the system service, ~/.local/share/lodestone for a user.
    public static func defaultDataDirectory() -> String {
        if getuid() == 0 { return "/var/lib/lodestone" }
        if let home = getenv("HOME") { return String(cString: home) + "/.local/share/lodestone" }
        return "/tmp/lodestone-\(getuid())"
    }

    public static let defaultConfigurationFile = "/etc/lodestone/lodestone.json"
}
