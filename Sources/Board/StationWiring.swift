import LodestoneCore
import LodestoneEncoding

/// A weather station's sensors on the board: DS18B20 probes on the kernel's 1-Wire bus, a cup
/// anemometer's reed switch on a GPIO line and a wind vane read through an ADS1115 converter.
public struct StationWiring: Sendable, Equatable {
    /// The probes by the name a person gave each ("water", "air", "engine"), with their 1-Wire
    /// id ("28-0316a2795cff": family 28 is the DS18B20), in the board file's order.
    public var probes: [Probe] = []
    public struct Probe: Sendable, Equatable {
        public var name: String, id: String
    }
    /// Where the kernel's w1 driver shows the probes.
    public var oneWireDirectory = "/sys/bus/w1/devices"
    public var anemometer: Anemometer?
    public var vane: Vane?

    public struct Anemometer: Sendable, Equatable {
        public var line: Int
        /// km/h per pulse a second: 2.4 for the common three-cup kit (one closure a turn).
        public var kmhPerHz = 2.4
        /// Closures closer than this after the last one are contact bounce, milliseconds.
        public var debounceMilliseconds = 2.0
    }

    public struct Vane: Sendable, Equatable {
        public var address: UInt8 = 0x48
        /// The converter's bus when it is not the board's main one.
        public var bus: String?
        /// The ADS1115 input (0 to 3) the vane's divider is wired to.
        public var channel = 0
        public var supplyVolts = 3.3
        public var seriesOhms = 10_000.0
        /// Degrees the vane's north mark is turned from true north (clockwise); on a boat
        /// (`aboard`), from the bow.
        public var northOffset = 0.0
        /// The vane turns with a boat's hull: it reads the apparent wind's angle from the bow,
        /// and the true wind is the vector triangle with the heading and the motion
        /// (`WindTriangle`). False: a mast fixed to the ground, whose vane reads the true wind.
        public var aboard = false
        /// Each direction's resistance, degrees and ohms; nil: the common 16-step vane.
        public var directions: [[Double]]?
    }

    public var isEmpty: Bool { probes.isEmpty && anemometer == nil && vane == nil }
    public init() {}
}

extension BoardFileReader {
    /// `temperatureProbes`: {"water": "28-0316a2795cff", "air": "28-..."}.
    func temperatureProbes(_ value: JSONValue) throws(ConfigurationError) -> [StationWiring.Probe] {
        guard case .object(let members) = value, !members.isEmpty else {
            throw error("temperatureProbes", "must be an object of a name to a 1-Wire id, e.g. {\"water\": \"28-0316a2795cff\"} (ls /sys/bus/w1/devices)")
        }
        var probes: [StationWiring.Probe] = []
        for (name, idValue) in members {
            let path = "temperatureProbes." + name
            let id = try string(path, idValue, "a DS18B20's 1-Wire id such as \"28-0316a2795cff\"")
            let hex = id.dropFirst(3)
            guard id.hasPrefix("28-"), hex.count == 12, hex.allSatisfy({ $0.isHexDigit }) else {
                throw error(path, "must be a DS18B20's 1-Wire id: \"28-\" and 12 hex digits (ls /sys/bus/w1/devices), found \"\(id)\"")
            }
            guard name.allSatisfy({ $0.isLetter || $0.isNumber }), let first = name.first, first.isLetter else {
                throw error(path, "a probe's name is letters and digits, starting with a letter (water, air, engine)")
            }
            if probes.contains(where: { $0.id == id }) { throw error(path, "\(id) is already another probe") }
            probes.append(.init(name: name, id: id))
        }
        return probes
    }

    /// `wind`: {"anemometer": {"line": 17, "kmhPerHz": 2.4}, "vane": {"address": "0x48", "channel": 0}}.
    func wind(_ value: JSONValue, into wiring: inout StationWiring) throws(ConfigurationError) {
        guard case .object(let members) = value else {
            throw error("wind", "must be an object like {\"anemometer\": {\"line\": 17}, \"vane\": {\"address\": \"0x48\", \"channel\": 0}}")
        }
        for (field, option) in members {
            switch field {
            case "anemometer": wiring.anemometer = try anemometer(option)
            case "vane": wiring.vane = try vane(option)
            default: throw error("wind." + field, "unknown field; known fields: anemometer, vane")
            }
        }
    }

    private func number(_ path: String, _ value: JSONValue, in range: ClosedRange<Double>, _ what: String) throws(ConfigurationError) -> Double {
        guard let n = value.numberValue, n.isFinite, range.contains(n) else {
            throw error(path, "must be \(what) from \(describe(.number(range.lowerBound))) to \(describe(.number(range.upperBound))), found \(describe(value))")
        }
        return n
    }

    private func anemometer(_ value: JSONValue) throws(ConfigurationError) -> StationWiring.Anemometer {
        guard case .object(let members) = value, let lineValue = value["line"] else {
            throw error("wind.anemometer", "must be an object with the reed switch's GPIO line, e.g. {\"line\": 17, \"kmhPerHz\": 2.4}")
        }
        var anemometer = StationWiring.Anemometer(line: try line("wind.anemometer.line", lineValue))
        for (field, option) in members {
            let path = "wind.anemometer." + field
            switch field {
            case "line": break
            case "kmhPerHz": anemometer.kmhPerHz = try number(path, option, in: 0.01...100, "km/h per pulse a second")
            case "debounceMs": anemometer.debounceMilliseconds = try number(path, option, in: 0...50, "milliseconds")
            default: throw error(path, "unknown field; known fields: line, kmhPerHz, debounceMs")
            }
        }
        return anemometer
    }

    private func vane(_ value: JSONValue) throws(ConfigurationError) -> StationWiring.Vane {
        guard case .object(let members) = value else {
            throw error("wind.vane", "must be an object like {\"chip\": \"ads1115\", \"address\": \"0x48\", \"channel\": 0}")
        }
        var vane = StationWiring.Vane()
        for (field, option) in members {
            let path = "wind.vane." + field
            switch field {
            case "chip":
                guard option.stringValue?.lowercased() == "ads1115" else {
                    throw error(path, "the vane is read through an \"ads1115\"; found \(describe(option))")
                }
            case "address": vane.address = try address(path, option, displayName: "ADS1115", addresses: [0x48, 0x49, 0x4A, 0x4B])
            case "bus": vane.bus = try string(path, option, "a device path such as /dev/i2c-1")
            case "channel":
                guard let channel = Int(whole: try number(path, option, in: 0...3, "the converter's input")) else {
                    throw error(path, "must be the converter's input, a whole number from 0 to 3, found \(describe(option))")
                }
                vane.channel = channel
            case "supplyVolts": vane.supplyVolts = try number(path, option, in: 1...6, "volts")
            case "seriesOhms": vane.seriesOhms = try number(path, option, in: 100...1_000_000, "ohms")
            case "northOffset": vane.northOffset = try number(path, option, in: -360...360, "degrees")
            case "aboard":
                guard let flag = option.boolValue else {
                    throw error(path, "must be true (the vane turns with a boat) or false (a fixed mast), found \(describe(option))")
                }
                vane.aboard = flag
            case "directions":
                guard let rows = option.arrayValue, rows.count >= 2 else {
                    throw error(path, "must be a list of [degrees, ohms] pairs, one per step of the vane, e.g. [[0, 33000], [22.5, 6570]]")
                }
                var table: [[Double]] = []
                for (index, row) in rows.enumerated() {
                    guard let pair = row.arrayValue, pair.count == 2, let degrees = pair.first?.numberValue, let ohms = pair.last?.numberValue,
                        degrees.isFinite, (0..<360).contains(degrees), ohms.isFinite, ohms > 0, ohms < 10_000_000
                    else {
                        throw error(path, "entry \(index + 1) must be [degrees 0..<360, ohms > 0], found \(describe(row))")
                    }
                    table.append([degrees, ohms])
                }
                vane.directions = table
            default: throw error(path, "unknown field; known fields: chip, address, bus, channel, supplyVolts, seriesOhms, northOffset, aboard, directions")
            }
        }
        return vane
    }
}
