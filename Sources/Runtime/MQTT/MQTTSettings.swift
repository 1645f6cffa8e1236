import Glibc
import LodestoneCore
import LodestoneOutputs

/// The MQTT output's settings: `"mqtt"` in the configuration file, `--mqtt HOST:PORT` for the
/// broker on the command line.
public struct MQTTSettings: Sendable, Equatable {
    /// "HOST:PORT", a host alone (port 1883) or a bare port (this machine).
    public var broker: String
    /// The device's name in topics (`<topicPrefix>/<device>/heading`) and in Home Assistant;
    /// the host name when not given.
    public var device: String?
    /// The MQTT client id; `lodestone-<device>` when not given. Keep it fixed: a persistent
    /// session is found again by it.
    public var clientID: String?
    public var topicPrefix = "lodestone"
    public var username: String?
    public var password: String?
    /// 1: every value is queued on disk until the broker acknowledges it; 0: sent once, lost
    /// while the broker is away.
    public var qos = 1
    /// False (the default): a persistent session, kept by the broker across reconnects.
    public var cleanSession = false
    /// Seconds between publications of the values.
    public var interval = 10.0
    public var keepAlive = 30
    /// Home Assistant's MQTT discovery, under `discoveryPrefix`.
    public var discovery = true
    public var discoveryPrefix = "homeassistant"
    /// The most QoS 1 messages kept while the broker is away; the oldest go first, counted.
    public var queueLimit = 20_000

    public init(broker: String) { self.broker = broker }

    /// Whether `text` names a broker: "HOST:PORT", a host alone (port 1883) or a bare port.
    public static func isBrokerAddress(_ text: String) -> Bool { broker(text) != nil }
    /// Host and port of a broker address ("HOST:PORT", "HOST" for port 1883, or a bare port).
    static func broker(_ address: String) -> (host: String, port: UInt16)? {
        NetworkAddress.destination(address, defaultPort: NetworkAddress.mqttPort)
    }

    static let keys = ["broker", "device", "clientId", "topicPrefix", "username", "password", "passwordFile", "qos", "cleanSession",
                       "interval", "keepAlive", "discovery", "discoveryPrefix", "queueLimit"]

    /// A name fit for a topic level and an id: letters, digits, '-' and '_' kept, the rest '_'.
    static func topicName(_ text: String) -> String {
        let kept = text.unicodeScalars.map { scalar -> Character in
            let ok = ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "-" || scalar == "_"
            return ok ? Character(scalar) : "_"
        }
        let name = String(kept.prefix(64))
        return name.isEmpty ? "lodestone" : name
    }

    /// The device name in use: the configured one, else this machine's host name.
    var deviceName: String {
        if let device { return Self.topicName(device) }
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "lodestone" }
        return Self.topicName(String(cString: buffer))
    }

    /// A topic prefix: levels of the topic name characters, no wildcards, no empty level.
    static func isValidPrefix(_ text: String) -> Bool {
        !text.isEmpty && !text.contains("+") && !text.contains("#") && !text.hasPrefix("/") && !text.hasSuffix("/") && !text.contains("//")
    }
}

extension MQTTSettings {
    /// The `"mqtt"` object of a configuration file; the error names the key and what it must be.
    static func decode(_ value: JSONValue, file: String) throws(ConfigurationError) -> MQTTSettings {
        guard case .object = value else {
            throw ConfigurationError(file: file, key: "mqtt", problem: "must be an object with at least \"broker\", found \(describe(value))")
        }
        func problem(_ key: String, _ expected: String, _ found: JSONValue) -> ConfigurationError {
            ConfigurationError(file: file, key: "mqtt." + key, problem: "must be \(expected), found \(describe(found))")
        }
        guard let broker = value["broker"]?.stringValue, Self.broker(broker) != nil else {
            throw problem("broker", "a broker address, \"192.168.1.10:1883\" (a host alone means port 1883)", value["broker"] ?? .null)
        }
        var settings = MQTTSettings(broker: broker)
        guard case .object(let members) = value else { return settings }
        for (key, item) in members {
            switch key {
            case "broker":
                continue
            case "device", "clientId", "username", "password", "topicPrefix", "discoveryPrefix":
                guard let text = item.stringValue, !text.isEmpty, text.utf8.count <= 256 else { throw problem(key, "a string of 1 to 256 bytes", item) }
                switch key {
                case "device": settings.device = text
                case "clientId": settings.clientID = text
                case "username": settings.username = text
                case "password": settings.password = text
                default:
                    guard isValidPrefix(text) else { throw problem(key, "topic levels without + or # or empty levels, \"lodestone\"", item) }
                    if key == "topicPrefix" { settings.topicPrefix = text } else { settings.discoveryPrefix = text }
                }
            case "qos", "keepAlive", "queueLimit":
                let range = key == "qos" ? 0...1 : (key == "keepAlive" ? 5...3600 : 100...1_000_000)
                guard let number = item.numberValue, let whole = Int(whole: number, in: range) else {
                    throw problem(key, "a whole number from \(range.lowerBound) to \(range.upperBound)", item)
                }
                switch key {
                case "qos": settings.qos = whole
                case "keepAlive": settings.keepAlive = whole
                default: settings.queueLimit = whole
                }
            case "passwordFile":
                guard value["password"] == nil else {
                    throw problem(key, "given alone: the password comes from the configuration or from a file, not both", item)
                }
                guard let path = item.stringValue, !path.isEmpty, path.utf8.count <= 4096 else { throw problem(key, "a file's path", item) }
                settings.password = try readPassword(path, file: file)
            case "interval":
                guard let number = item.numberValue, (1...3600).contains(number) else { throw problem(key, "a number of seconds from 1 to 3600", item) }
                settings.interval = number
            case "cleanSession", "discovery":
                guard let flag = item.boolValue else { throw problem(key, "true or false", item) }
                if key == "cleanSession" { settings.cleanSession = flag } else { settings.discovery = flag }
            default:
                throw ConfigurationError(file: file, key: "mqtt." + key, problem: "unknown key; known keys: " + keys.joined(separator: ", "))
            }
        }
        if settings.password != nil && value["password"] != nil && PrivateFolder.othersMayRead(file) {
            Log.warning("\(file) holds the MQTT password and other users can read it: 'chmod 600 \(file)', or give the password "
                        + "in a file of its own as mqtt.passwordFile (a systemd credential)")
        }
        return settings
    }

    /// The password in a file of its own (its first line). A bare name is looked for among the
    /// service's credentials (`$CREDENTIALS_DIRECTORY`, given by systemd's LoadCredential=), so
    /// the configuration can be readable while the password is not.
    static func readPassword(_ path: String, file: String) throws(ConfigurationError) -> String {
        var resolved = path
        if !path.contains("/"), let credentials = getenv("CREDENTIALS_DIRECTORY") {
            resolved = String(cString: credentials) + "/" + path
        }
        let text: String
        do { text = try readTextFile(resolved, limit: 4096) } catch {
            throw ConfigurationError(file: file, key: "mqtt.passwordFile", problem: error.description)
        }
        let line = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first.map { String($0) } ?? ""
        let password = line.hasSuffix("\r") ? String(line.dropLast()) : line
        guard !password.isEmpty, password.utf8.count <= 256 else {
            throw ConfigurationError(file: file, key: "mqtt.passwordFile", problem: "\(resolved) must hold the password, 1 to 256 bytes, on its first line")
        }
        return password
    }
}
