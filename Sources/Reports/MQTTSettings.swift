import Glibc
import LodestoneCore

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
    /// Where the password was read from, when it was not written in the configuration.
    public var passwordFile: String?
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
    /// Finished tracks published (their GPX and a summary) to `<prefix>/<device>/track/<id>`.
    public var tracks = true

    public init(broker: String) { self.broker = broker }

    /// Whether `text` names a broker: "HOST:PORT", a host alone (port 1883) or a bare port.
    public static func isBrokerAddress(_ text: String) -> Bool { broker(text) != nil }
    /// Host and port of a broker address ("HOST:PORT", "HOST" for port 1883, or a bare port).
    package static func broker(_ address: String) -> (host: String, port: UInt16)? {
        NetworkAddress.destination(address, defaultPort: NetworkAddress.mqttPort)
    }

    /// A name fit for a topic level and an id: letters, digits, '-' and '_' kept, the rest '_'.
    package static func topicName(_ text: String) -> String {
        let kept = text.unicodeScalars.map { scalar -> Character in
            let ok = ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "-" || scalar == "_"
            return ok ? Character(scalar) : "_"
        }
        let name = String(kept.prefix(64))
        return name.isEmpty ? "lodestone" : name
    }

    /// The device name in use: the configured one, else this machine's host name.
    package var deviceName: String {
        if let device { return Self.topicName(device) }
        return machineHostName().map(Self.topicName) ?? "lodestone"
    }

    /// A topic prefix: levels of the topic name characters, no wildcards, no empty level.
    package static func isValidPrefix(_ text: String) -> Bool {
        !text.isEmpty && !text.contains("+") && !text.contains("#") && !text.hasPrefix("/") && !text.hasSuffix("/") && !text.contains("//")
    }
}

extension MQTTSettings {
    /// The password in a file of its own (its first line). A bare name is looked for among the
    /// service's credentials (`$CREDENTIALS_DIRECTORY`, given by systemd's LoadCredential=), so
    /// the configuration can be readable while the password is not; a relative path is taken
    /// from the configuration file's folder. Only a private file where secrets belong is read
    /// (see `SecretFile`).
    package static func readPassword(_ path: String, configurationFolder: String?) -> Result<String, PasswordFileProblem> {
        let resolved = SecretFile.resolve(path, configurationFolder: configurationFolder)
        let text: String
        switch SecretFile.read(path, configurationFolder: configurationFolder) {
        case .success(let bytes): text = String(decoding: bytes, as: UTF8.self)
        case .failure(let refusal): return .failure(PasswordFileProblem(text: refusal.description))
        }
        let line = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first.map { String($0) } ?? ""
        let password = line.hasSuffix("\r") ? String(line.dropLast()) : line
        guard !password.isEmpty, password.utf8.count <= 256 else {
            return .failure(PasswordFileProblem(text: "\(resolved) must hold the password, 1 to 256 bytes, on its first line"))
        }
        return .success(password)
    }

    package struct PasswordFileProblem: Error {
        package var text: String
    }
}
