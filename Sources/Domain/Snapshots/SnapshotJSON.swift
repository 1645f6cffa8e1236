import LodestoneCore
import LodestoneEncoding

/// A snapshot as JSON: the file `lodestone snapshot` keeps, the SNAPSHOT report's payload and
/// the export, one shape for all three.
public enum SnapshotJSON {
    public static func object(_ s: Snapshot) -> String {
        func vector(_ v: Vector3) -> String {
            var w = JSONObjectWriter()
            w.number("x", v.x, decimals: 4)
            w.number("y", v.y, decimals: 4)
            w.number("z", v.z, decimals: 4)
            return w.finished
        }
        func number(_ w: inout JSONObjectWriter, _ key: String, _ value: Double, _ decimals: Int) {
            if value.isFinite { w.number(key, value, decimals: decimals) } else { w.null(key) }
        }
        var location = JSONObjectWriter()
        number(&location, "latitude", s.latitude, 7)
        number(&location, "longitude", s.longitude, 7)
        number(&location, "altitude", s.altitude, 1)
        number(&location, "accuracy", s.accuracy, 1)
        var attitude = JSONObjectWriter()
        number(&attitude, "roll", s.roll, 2)
        number(&attitude, "pitch", s.pitch, 2)
        number(&attitude, "yaw", s.yaw, 2)
        var barometer = JSONObjectWriter()
        number(&barometer, "pressure", s.pressure, 2)
        number(&barometer, "seaLevelPressure", s.seaLevelPressure, 2)
        barometer.raw("attitude", attitude.finished)
        var weather = JSONObjectWriter()
        number(&weather, "temperature", s.temperature, 2)
        number(&weather, "humidity", s.humidity, 1)
        if s.conditions.isEmpty { weather.null("conditions") } else { weather.string("conditions", s.conditions) }
        var motion = JSONObjectWriter()
        motion.raw("accelerometer", vector(s.accelerometer))
        motion.raw("gyroscope", vector(s.gyroscope))
        motion.raw("magnetometer", vector(s.magnetometer))
        number(&motion, "stepsToday", s.stepsToday, 0)
        number(&motion, "floorsUp", s.floorsUp, 0)
        number(&motion, "floorsDown", s.floorsDown, 0)
        var w = JSONObjectWriter()
        w.string("id", s.id)
        w.string("timestamp", CivilTime(unixSeconds: s.timestamp).iso8601)
        w.raw("location", location.finished)
        w.raw("barometer", barometer.finished)
        w.raw("weather", weather.finished)
        w.raw("motion", motion.finished)
        w.integer("photoCount", s.photoCount)
        w.string("name", s.name)
        w.string("notes", s.notes)
        return w.finished
    }

    /// Several snapshots as one JSON array, one a line: `lodestone snapshot list --json`, the
    /// export of them all and `GET /api/v1/snapshots`.
    public static func list(_ snapshots: [Snapshot]) -> String {
        "[" + snapshots.map(object).joined(separator: ",\n") + "]"
    }

    /// How `second` differs from `first` (`lodestone snapshot compare --json`): each number's
    /// change (null where either is unknown), the seconds between them, and the distance (m)
    /// and bearing (degrees) from the first place to the second.
    public static func comparison(_ first: Snapshot, _ second: Snapshot) -> String {
        let c = first.comparison(to: second)
        var deltas = JSONObjectWriter()
        for (path, delta) in c.deltas { if delta.isFinite { deltas.number(path, delta, decimals: 6) } else { deltas.null(path) } }
        var w = JSONObjectWriter()
        w.string("from", first.id)
        w.string("to", second.id)
        w.number("seconds", c.seconds, decimals: 0)
        if let distance = c.distance { w.number("distance", distance, decimals: 1) } else { w.null("distance") }
        if let bearing = c.bearing { w.number("bearing", bearing, decimals: 1) } else { w.null("bearing") }
        w.raw("deltas", deltas.finished)
        return w.finished
    }

    /// A snapshot back from its JSON; nil without an id and a timestamp.
    public static func snapshot(_ json: JSONValue) -> Snapshot? {
        guard let id = json["id"]?.stringValue, let time = json["timestamp"]?.stringValue.flatMap(CivilTime.parseISO8601) else { return nil }
        var s = Snapshot(id: id, timestamp: time, name: json["name"]?.stringValue ?? "", notes: json["notes"]?.stringValue ?? "")
        func n(_ value: JSONValue?) -> Double { value?.numberValue ?? .nan }
        func v(_ value: JSONValue?) -> Vector3 { Vector3(n(value?["x"]), n(value?["y"]), n(value?["z"])) }
        let location = json["location"], barometer = json["barometer"], weather = json["weather"], motion = json["motion"]
        (s.latitude, s.longitude, s.altitude, s.accuracy) = (
            n(location?["latitude"]), n(location?["longitude"]),
            n(location?["altitude"]), n(location?["accuracy"])
        )
        (s.pressure, s.seaLevelPressure) = (n(barometer?["pressure"]), n(barometer?["seaLevelPressure"]))
        let attitude = barometer?["attitude"]
        (s.roll, s.pitch, s.yaw) = (n(attitude?["roll"]), n(attitude?["pitch"]), n(attitude?["yaw"]))
        (s.temperature, s.humidity) = (n(weather?["temperature"]), n(weather?["humidity"]))
        s.conditions = weather?["conditions"]?.stringValue ?? ""
        (s.accelerometer, s.gyroscope, s.magnetometer) = (v(motion?["accelerometer"]), v(motion?["gyroscope"]), v(motion?["magnetometer"]))
        (s.stepsToday, s.floorsUp, s.floorsDown) = (n(motion?["stepsToday"]), n(motion?["floorsUp"]), n(motion?["floorsDown"]))
        s.photoCount = Int(whole: n(json["photoCount"]), in: 0...1_000_000) ?? 0
        return s
    }
}
