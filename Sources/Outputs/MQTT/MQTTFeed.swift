import LodestoneCore
import LodestoneDomain
import LodestoneEncoding
import LodestoneReports

/// What the device publishes over MQTT, and how: one topic per value
/// (`<prefix>/<device>/heading`, `.../pressure`, ...), one JSON state topic, a retained
/// availability topic (`online`; the Last Will says `offline`), and Home Assistant's discovery
/// configuration, so the device appears in Home Assistant by itself. The values come from the
/// reports the other outputs get (`take`), each once it is measured: a value not known (or,
/// for the heading, not trusted) is not published.
package final class MQTTFeed {
    /// The values of one publication, in the units Home Assistant shows.
    struct Values {
        var heading: Double?
        var headingTrue: Double?
        var pressure: Double?
        var seaLevelPressure: Double?
        var pressureTrend: Double?
        var temperature: Double?
        var humidity: Double?
        var altitude: Double?
        var position: (latitude: Double, longitude: Double, altitude: Double?, accuracy: Double?)?
        var steps: Int?
        /// The weather station: water (°C), wind now, gust (m/s) and direction (degrees true).
        var waterTemperature: Double?
        var windSpeed: Double?, windGust: Double?, windDirection: Double?
        /// What to wear in the water (Wetsuit's step).
        var wetsuit: Int?

        var hasAny: Bool {
            [heading, pressure, temperature, seaLevelPressure, altitude, waterTemperature, windSpeed].contains { $0 != nil } || wetsuit != nil
                || position != nil || steps != nil
        }
    }

    /// A value's topic and its Home Assistant sensor: name, unit, device class, precision.
    struct Sensor {
        var key: String
        var name: String
        var unit: String?
        var deviceClass: String?
        /// nil for an angle: Home Assistant's statistics would average 350° and 10° to 180°.
        var stateClass: String?
        var icon: String?
        var decimals: Int
        /// How Home Assistant reads a JSON payload's value (nil: the payload is the value).
        var template: String? = nil
    }

    static let sensors: [Sensor] = [
        Sensor(key: "heading", name: "Heading", unit: "°", deviceClass: nil, stateClass: nil, icon: "mdi:compass", decimals: 1),
        Sensor(key: "headingTrue", name: "Heading (true)", unit: "°", deviceClass: nil, stateClass: nil, icon: "mdi:compass-outline", decimals: 1),
        Sensor(key: "pressure", name: "Pressure", unit: "hPa", deviceClass: "atmospheric_pressure", stateClass: "measurement", icon: nil, decimals: 2),
        Sensor(
            key: "seaLevelPressure", name: "Sea-level pressure", unit: "hPa", deviceClass: "atmospheric_pressure", stateClass: "measurement", icon: nil,
            decimals: 2),
        Sensor(
            key: "pressureTrend", name: "Pressure trend", unit: "hPa/h", deviceClass: nil, stateClass: "measurement", icon: "mdi:trending-down", decimals: 2),
        Sensor(key: "temperature", name: "Temperature", unit: "°C", deviceClass: "temperature", stateClass: "measurement", icon: nil, decimals: 1),
        Sensor(key: "humidity", name: "Humidity", unit: "%", deviceClass: "humidity", stateClass: "measurement", icon: nil, decimals: 1),
        Sensor(key: "altitude", name: "Altitude", unit: "m", deviceClass: "distance", stateClass: "measurement", icon: "mdi:image-filter-hdr", decimals: 1),
        Sensor(key: "steps", name: "Steps", unit: nil, deviceClass: nil, stateClass: "total_increasing", icon: "mdi:walk", decimals: 0),
        Sensor(
            key: "waterTemperature", name: "Water temperature", unit: "°C", deviceClass: "temperature", stateClass: "measurement",
            icon: "mdi:coolant-temperature", decimals: 1),
        Sensor(key: "windSpeed", name: "Wind speed", unit: "m/s", deviceClass: "wind_speed", stateClass: "measurement", icon: nil, decimals: 1),
        Sensor(key: "windGust", name: "Wind gust", unit: "m/s", deviceClass: "wind_speed", stateClass: "measurement", icon: "mdi:weather-windy", decimals: 1),
        Sensor(key: "windDirection", name: "Wind direction", unit: "°", deviceClass: nil, stateClass: nil, icon: "mdi:compass-rose", decimals: 0),
        Sensor(
            key: "wetsuit", name: "Wetsuit", unit: nil, deviceClass: nil, stateClass: nil, icon: "mdi:diving-scuba", decimals: 0,
            template: "{{ value_json.text }}")
    ]

    package let settings: MQTTSettings
    package let client: MQTTClient
    let device: String
    /// `<topicPrefix>/<device>`.
    let base: String
    var availabilityTopic: String { base + "/availability" }
    private var lastPublication = -Double.infinity
    /// What the next publication carries: the newest measured value of each.
    private(set) var values = Values()
    /// The sensors whose discovery configuration this connection has sent: a sensor appears
    /// in Home Assistant once it has a value (a board without a humidity sensor shows none).
    private var announced = Set<String>()

    /// `outbox`: where messages wait for the broker (the device keeps it on disk).
    package init(settings: MQTTSettings, outbox: any MQTTQueue) {
        self.settings = settings
        device = settings.deviceName
        base = settings.topicPrefix + "/" + device
        let will = MQTTPacket.Will(topic: settings.topicPrefix + "/" + device + "/availability", message: Array("offline".utf8), qos: 1, retain: true)
        client = MQTTClient(
            settings: MQTTClient.Settings(
                broker: settings.broker, clientID: settings.clientID ?? "lodestone-" + device,
                username: settings.username, password: settings.password,
                keepAlive: UInt16(settings.keepAlive), cleanSession: settings.cleanSession, will: will),
            outbox: outbox)
        client.onConnected = { [unowned self] in self.announce() }
    }

    /// Drives the session (connecting, pings, the outbox); the publications follow the reports.
    package func tick() { client.service() }

    /// What a report measured, for the next publication. The values go out every `interval`
    /// seconds of the reports' own time (`utc`, the device's time of the report): as they
    /// stood before the first report past the interval, so what is published follows from the
    /// reports alone (a replay publishes the same), the first once something has been measured.
    package func take(_ report: Report, utc: Double) {
        if values.hasAny, utc - lastPublication >= settings.interval || utc < lastPublication {
            lastPublication = utc
            publish(values, utc: utc)
        }
        switch report {
        case .attitude(let attitude):
            values.heading = attitude.trustedMagneticHeading
            values.headingTrue = values.heading == nil ? nil : attitude.trueHeading
        case .position(let position):
            let fix = position.fix
            guard fix.hasPosition else { return }
            values.position = (
                fix.latitude, fix.longitude, fix.mode == .threeD && fix.altitudeMSL.isFinite ? fix.altitudeMSL : nil,
                fix.eph.isFinite ? fix.eph : nil
            )
        case .environment(let environment):
            if let sample = environment.pressure {
                values.pressure = sample.pressure > 0 ? sample.pressure / 100 : nil
                values.temperature = sample.temperature.isFinite ? sample.temperature : nil
                values.humidity = sample.humidity
            }
            if let weather = environment.weather {
                (values.seaLevelPressure, values.altitude) = (weather.seaLevelPressure, weather.altitudeFused)
                values.pressureTrend = weather.trend?.hPaPerHour
            }
            if let station = environment.station {
                values.waterTemperature = station.waterTemperature
                // The true wind: over the water or the ground, not over a moving deck.
                values.windSpeed = station.wind?.trueWind?.speed ?? station.wind?.now
                (values.windGust, values.windDirection) = (station.wind?.gust, station.wind?.trueWind?.angle)
            }
            values.wetsuit = environment.wetsuit
        case .motion(let motion):
            values.steps = motion.steps
        default:
            break
        }
    }

    /// Ends the session, saying `offline` first.
    package func close() { client.close(last: (availabilityTopic, Array("offline".utf8))) }

    /// On every connection: `online` (retained); the discovery configuration follows with
    /// the next publication's values (not at once: the interval is kept).
    private func announce() {
        client.publishNow(topic: availabilityTopic, payload: Array("online".utf8), retain: true)
        announced.removeAll()
    }

    /// The discovery configuration (retained) of each sensor with a value, once per connection.
    private func announce(_ key: String) {
        guard settings.discovery, client.isConnected, !announced.contains(key) else { return }
        if key == "position" {
            client.publishNow(
                topic: "\(settings.discoveryPrefix)/device_tracker/\(device)/position/config",
                payload: Array(trackerDiscovery().utf8), retain: true)
        } else if let sensor = Self.sensors.first(where: { $0.key == key }) {
            client.publishNow(
                topic: "\(settings.discoveryPrefix)/sensor/\(device)/\(sensor.key)/config",
                payload: Array(discovery(sensor).utf8), retain: true)
        }
        announced.insert(key)
    }

    func discovery(_ sensor: Sensor) -> String {
        var w = JSONBuffer(capacity: 768)
        w.beginObject()
        w.key("name"); w.value(string: sensor.name)
        w.key("unique_id"); w.value(string: device + "_" + sensor.key)
        w.key("object_id"); w.value(string: device + "_" + sensor.key)
        w.key("state_topic"); w.value(string: base + "/" + sensor.key)
        if let unit = sensor.unit { w.key("unit_of_measurement"); w.value(string: unit) }
        if let deviceClass = sensor.deviceClass { w.key("device_class"); w.value(string: deviceClass) }
        if let stateClass = sensor.stateClass { w.key("state_class"); w.value(string: stateClass) }
        if let icon = sensor.icon { w.key("icon"); w.value(string: icon) }
        if let template = sensor.template {
            w.key("value_template"); w.value(string: template)
        } else {
            w.key("suggested_display_precision"); w.value(integer: sensor.decimals)
        }
        commonFields(&w)
        w.endObject()
        return w.text
    }

    func trackerDiscovery() -> String {
        var w = JSONBuffer(capacity: 768)
        w.beginObject()
        w.key("name"); w.value(string: "Position")
        w.key("unique_id"); w.value(string: device + "_position")
        w.key("object_id"); w.value(string: device + "_position")
        w.key("json_attributes_topic"); w.value(string: base + "/position")
        w.key("source_type"); w.value(string: "gps")
        commonFields(&w)
        w.endObject()
        return w.text
    }

    private func commonFields(_ w: inout JSONBuffer) {
        w.key("availability_topic"); w.value(string: availabilityTopic)
        w.beginObject("device")
        w.key("identifiers"); w.value(raw: "[\"lodestone_\(device)\"]")
        w.key("name"); w.value(string: "Lodestone " + device)
        w.key("manufacturer"); w.value(string: "Lodestone")
        w.key("model"); w.value(string: "Lodestone sensor runtime")
        w.key("sw_version"); w.value(string: Version.number)
        w.endObject()
    }

    /// One publication: each known value on its topic, the position, and the state.
    func publish(_ values: Values, utc: Double) {
        let numbers: [(String, Double?)] = [
            ("heading", values.heading), ("headingTrue", values.headingTrue), ("pressure", values.pressure),
            ("seaLevelPressure", values.seaLevelPressure), ("pressureTrend", values.pressureTrend),
            ("temperature", values.temperature), ("humidity", values.humidity), ("altitude", values.altitude),
            ("steps", values.steps.map(Double.init)), ("waterTemperature", values.waterTemperature),
            ("windSpeed", values.windSpeed), ("windGust", values.windGust), ("windDirection", values.windDirection)
        ]
        var state = JSONBuffer(capacity: 512)
        state.beginObject()
        state.time("time", utc)
        for (key, value) in numbers {
            guard let value, value.isFinite else { continue }
            let decimals = Self.sensors.first { $0.key == key }?.decimals ?? 2
            announce(key)
            send(key, Array(DecimalText.format(value, decimals).utf8))
            state.key(key)
            state.value(number: value, decimals: decimals)
        }
        if let step = values.wetsuit {
            // {"step":2,"text":"3/2 mm"}, as `lodestone wetsuit --json` prints it.
            let suit = "{\"step\":\(step),\"text\":" + JSONObjectWriter.quoted(Wetsuit.text(step: step)) + "}"
            announce("wetsuit")
            send("wetsuit", Array(suit.utf8))
            state.key("wetsuit")
            state.value(raw: suit)
        }
        if let position = values.position {
            var w = JSONBuffer(capacity: 160)
            w.beginObject()
            w.number("latitude", position.latitude, decimals: 7)
            w.number("longitude", position.longitude, decimals: 7)
            if let altitude = position.altitude { w.number("altitude", altitude, decimals: 1) }
            if let accuracy = position.accuracy { w.number("gps_accuracy", accuracy, decimals: 1) }
            w.endObject()
            announce("position")
            send("position", Array(w.text.utf8))
            state.key("position")
            state.value(raw: w.text)
        }
        // The state's chain: its own sequence number and the one before, so a receiver can
        // tell that none is missing (the outbox keeps both across restarts).
        let topic = base + "/state"
        if settings.qos == 1 {
            state.key("seq"); state.value(integer: Int(truncatingIfNeeded: client.outbox.upcoming))
            state.key("previous"); state.value(integer: Int(truncatingIfNeeded: client.outbox.previous(on: topic)))
        }
        state.endObject()
        send("state", Array(state.text.utf8))
    }

    private func send(_ key: String, _ payload: [UInt8]) {
        let topic = base + "/" + key
        if settings.qos == 1 {
            client.outbox.add(topic: topic, payload: payload, retain: false, now: client.now)
        } else {
            client.publishNow(topic: topic, payload: payload, retain: false)
        }
    }
}
