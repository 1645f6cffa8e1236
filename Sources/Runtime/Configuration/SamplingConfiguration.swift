import LodestoneCore
import LodestoneDomain
import LodestoneOutputs

/// The "sampling" object of the configuration file: adaptive sampling on or off, the power
/// profile, and overrides of the rate table, each checked with the key named in the error.
extension Configuration {
    static let samplingKeys = ["adaptive", "lowPower", "lowBatteryPercent", "powerSupply", "rates", "lowPowerCeiling"]
    /// What each rate may be: Hz for streams, seconds for the GPS interval.
    static let rateRanges: [String: ClosedRange<Double>] = ["imu": 1...1000, "magnetometer": 1...1000, "barometer": 0.5...200,
                                                             "processing": 1...1000, "gpsInterval": 0.1...60]

    mutating func applySampling(_ value: JSONValue, file: String) throws(ConfigurationError) {
        func fail(_ key: String, _ problem: String) -> ConfigurationError {
            ConfigurationError(file: file, key: key, problem: problem)
        }
        guard case .object(let members) = value else { throw fail("sampling", "must be an object; known keys: \(Self.samplingKeys.joined(separator: ", "))") }
        for (name, option) in members {
            let key = "sampling." + name
            switch name {
            case "adaptive", "lowPower":
                guard let flag = option.boolValue else { throw fail(key, "must be true or false, found \(describe(option))") }
                if name == "adaptive" { adaptiveSampling = flag } else { lowPower = flag }
            case "lowBatteryPercent":
                guard let n = option.numberValue, (5...80).contains(n) else { throw fail(key, "must be a number from 5 to 80, found \(describe(option))") }
                lowBatteryPercent = n
            case "powerSupply":
                guard let path = option.stringValue, path.hasPrefix("/") else { throw fail(key, "must be an absolute directory path, found \(describe(option))") }
                powerSupplyDirectory = path
            case "rates":
                guard case .object(let states) = option else { throw fail(key, "must be an object of motion states") }
                for (stateName, rates) in states {
                    guard let state = MotionState(rawValue: stateName) else {
                        throw fail(key + "." + stateName, "unknown motion state; known: \(MotionState.allCases.map(\.rawValue).joined(separator: ", "))")
                    }
                    var row = samplingTable.rates[state] ?? samplingTable.lowPowerCeiling
                    try Self.applyRates(rates, to: &row, key: key + "." + stateName, file: file)
                    samplingTable.rates[state] = row
                }
            case "lowPowerCeiling":
                try Self.applyRates(option, to: &samplingTable.lowPowerCeiling, key: key, file: file)
            default:
                throw fail(key, "unknown key; known keys: \(Self.samplingKeys.joined(separator: ", "))")
            }
        }
    }

    static func applyRates(_ value: JSONValue, to rates: inout StreamRates, key: String, file: String) throws(ConfigurationError) {
        guard case .object(let members) = value else {
            throw ConfigurationError(file: file, key: key, problem: "must be an object like {\"imu\": 25, \"gpsInterval\": 5}")
        }
        for (name, option) in members {
            guard let range = rateRanges[name] else {
                throw ConfigurationError(file: file, key: key + "." + name, problem: "unknown rate; known: \(StreamRates.names.joined(separator: ", "))")
            }
            guard let n = option.numberValue, range.contains(n) else {
                throw ConfigurationError(file: file, key: key + "." + name,
                                         problem: "must be a number from \(fixed(range.lowerBound, 1)) to \(fixed(range.upperBound, 0)), found \(describe(option))")
            }
            rates[name] = n
        }
    }
}
