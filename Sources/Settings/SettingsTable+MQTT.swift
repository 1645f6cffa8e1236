import LodestoneCore
import LodestoneReports

/// The MQTT output's settings: any of them turns the output on, and then the broker is needed.
extension Setting {
    nonisolated(unsafe) static let mqttSettings: [Setting] = [
        Setting(
            "mqtt.broker", flag: "mqtt", type: .address, nullable: true, reload: .live,
            help: "publish to an MQTT broker, HOST:PORT (a host alone means port 1883): Home Assistant's discovery, a fleet's broker; null: off",
            expected: "a broker address, \"192.168.1.10:1883\" (a host alone means port 1883)",
            store: { c, v in
                if v == .null { c.mqtt = nil; return nil }
                guard let broker = v.stringValue, MQTTSettings.isBrokerAddress(broker) else { return .notExpected }
                if c.mqtt == nil { c.mqtt = MQTTSettings(broker: broker) } else { c.mqtt?.broker = broker }
                return nil
            },
            current: { c in c.mqtt.map { .string($0.broker) } ?? .null }),
        mqttText("device", "the device's name in topics and in Home Assistant; null: the host name", \.device),
        mqttText("clientId", "the MQTT client id (keep it fixed: the broker finds a persistent session by it); null: lodestone-DEVICE", \.clientID),
        mqttText(
            "topicPrefix", "the first levels of every topic", accepts: MQTTSettings.isValidPrefix,
            expected: "topic levels without + or # or empty levels, \"lodestone\"", \.prefixText),
        mqttText("username", "the broker's user name", \.username),
        mqtt(
            "password", type: .string, expected: "a string of 1 to 256 bytes",
            "the broker's password; better in a file of its own (passwordFile): a configuration others can read is warned about",
            store: { s, v in
                guard s.passwordFile == nil else { return .because(MQTTSettings.passwordTwice) }
                guard let text = v.stringValue, text.utf8.count <= 256 else { return .notExpected }
                s.password = text
                return nil
            },
            current: { $0.password == nil || $0.passwordFile != nil ? .null : .string("(hidden)") }),
        // Not the `mqtt` shape: where the file may be depends on the configuration file's folder.
        Setting(
            "mqtt.passwordFile", type: .path, reload: .live,
            help: "a file holding the password on its first line; a bare name is read from $CREDENTIALS_DIRECTORY (systemd's "
                + "LoadCredential=), a relative path from the configuration file's folder. Only a regular file in that folder, "
                + "$CREDENTIALS_DIRECTORY or /etc/lodestone, owned by the service's user or root, mode 0600 or 0400, is read",
            expected: "a file's path",
            store: { c, v in
                var s = c.mqtt ?? MQTTSettings(broker: "")
                guard s.password == nil || s.passwordFile != nil else { return .because(MQTTSettings.passwordTwice) }
                guard let path = v.stringValue else { return .notExpected }
                switch MQTTSettings.readPassword(path, configurationFolder: c.configurationFolder) {
                case .success(let password): (s.password, s.passwordFile) = (password, path)
                case .failure(let problem): return .because(problem.text)
                }
                c.mqtt = s
                return nil
            },
            current: { c in c.mqtt?.passwordFile.map { .string($0) } ?? .null }),
        mqtt(
            "qos", type: .integer, range: 0...1,
            "1: every value is queued on disk until the broker acknowledges it; 0: sent once, lost while the broker is away",
            store: { s, v in
                s.qos = v.numberValue.flatMap { Int(whole: $0) } ?? s.qos; return nil
            }, current: { .number(Double($0.qos)) }),
        mqtt(
            "cleanSession", type: .boolean, "false: a persistent session, kept by the broker across reconnects",
            store: { s, v in
                s.cleanSession = v.boolValue ?? s.cleanSession; return nil
            }, current: { .bool($0.cleanSession) }),
        mqtt(
            "interval", type: .number, range: 1...3600, "seconds between publications of the values",
            store: { s, v in
                s.interval = v.numberValue ?? s.interval; return nil
            }, current: { .number($0.interval) }),
        mqtt(
            "keepAlive", type: .integer, range: 5...3600, "seconds of MQTT keep-alive",
            store: { s, v in
                s.keepAlive = v.numberValue.flatMap { Int(whole: $0) } ?? s.keepAlive; return nil
            }, current: { .number(Double($0.keepAlive)) }),
        mqtt(
            "discovery", type: .boolean, "announce every value to Home Assistant's MQTT discovery",
            store: { s, v in
                s.discovery = v.boolValue ?? s.discovery; return nil
            }, current: { .bool($0.discovery) }),
        mqttText(
            "discoveryPrefix", "the discovery topics' prefix", accepts: MQTTSettings.isValidPrefix,
            expected: "topic levels without + or # or empty levels, \"homeassistant\"", \.discoveryPrefixText),
        mqtt(
            "queueLimit", type: .integer, range: 100...1_000_000, "the most QoS 1 messages kept while the broker is away; the oldest go first, counted",
            store: { s, v in
                s.queueLimit = v.numberValue.flatMap { Int(whole: $0) } ?? s.queueLimit; return nil
            }, current: { .number(Double($0.queueLimit)) }),
        mqtt(
            "tracks", type: .boolean,
            "publish each track that ends (not the private ones): its GPX to PREFIX/DEVICE/track/ID, a JSON summary to .../track/ID/summary, QoS 1 through the outbox",
            store: { s, v in
                s.tracks = v.boolValue ?? s.tracks; return nil
            }, current: { .bool($0.tracks) })
    ]
}

extension MQTTSettings {
    static let passwordTwice = "given twice: the password comes from the configuration or from a file (passwordFile), not both"

    /// The prefixes as optional text, for the table's text rows (they always have a value).
    var prefixText: String? {
        get { topicPrefix }
        set { topicPrefix = newValue ?? topicPrefix }
    }

    var discoveryPrefixText: String? {
        get { discoveryPrefix }
        set { discoveryPrefix = newValue ?? discoveryPrefix }
    }
}
