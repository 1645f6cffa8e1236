import LodestoneCore
import LodestoneEncoding
import LodestoneHAL
import LodestoneSampling

/// What the output thread reads from outside, as a recording keeps it (one JSON object each,
/// with the device's time as text: nanoseconds outgrow a double's whole numbers): the weather
/// station's takes (the 1-Wire probes, the anemometer and the vane) and the power supply's
/// readings. A replay gives the station's back at the same times of the device's clock.
enum OutputSideEntries {
    static func station(_ readings: WeatherStation.Readings, at time: MonotonicNanoseconds) -> JSONValue {
        .object([
            ("t", .string(String(time))),
            (
                "station",
                .object([
                    (
                        "wind",
                        .array(
                            readings.wind.map { sample in
                                .object([
                                    ("t", .string(String(sample.time))), ("speed", number(sample.speed)), ("direction", number(sample.direction)),
                                    ("anemometerProblem", text(sample.anemometerProblem)), ("vaneProblem", text(sample.vaneProblem))
                                ])
                            })
                    ),
                    (
                        "probes",
                        .array(
                            readings.probes.keys.sorted().compactMap { name in
                                readings.probes[name].map { probe in
                                    .object([
                                        ("name", .string(probe.name)), ("celsius", number(probe.celsius)), ("problem", text(probe.problem)),
                                        ("t", .string(String(probe.time)))
                                    ])
                                }
                            })
                    )
                ])
            )
        ])
    }

    static func power(_ reading: PowerSupplyReading, at time: MonotonicNanoseconds) -> JSONValue {
        .object([
            ("t", .string(String(time))),
            ("power", .object([("external", reading.externalPower.map { .bool($0) } ?? .null), ("battery", number(reading.batteryPercent))]))
        ])
    }

    /// The station's takes in a recording, in time order.
    static func stationTakes(_ entries: [JSONValue]) -> [(time: MonotonicNanoseconds, readings: WeatherStation.Readings)] {
        entries.compactMap { entry in
            guard let time = nanoseconds(entry["t"]), let station = entry["station"] else { return nil }
            var readings = WeatherStation.Readings()
            for sample in station["wind"]?.arrayValue ?? [] {
                guard let t = nanoseconds(sample["t"]) else { continue }
                readings.wind.append(
                    WindSample(
                        time: t, speed: sample["speed"]?.numberValue, direction: sample["direction"]?.numberValue,
                        anemometerProblem: sample["anemometerProblem"]?.stringValue, vaneProblem: sample["vaneProblem"]?.stringValue))
            }
            for probe in station["probes"]?.arrayValue ?? [] {
                guard let name = probe["name"]?.stringValue, let t = nanoseconds(probe["t"]) else { continue }
                readings.probes[name] = ProbeReading(
                    name: name, celsius: probe["celsius"]?.numberValue, problem: probe["problem"]?.stringValue, time: t)
            }
            return (time, readings)
        }
    }

    static func nanoseconds(_ value: JSONValue?) -> MonotonicNanoseconds? { value?.stringValue.flatMap { UInt64($0) } }

    private static func number(_ value: Double?) -> JSONValue { value.flatMap { $0.isFinite ? .number($0) : nil } ?? .null }
    private static func text(_ value: String?) -> JSONValue { value.map { .string($0) } ?? .null }
}
