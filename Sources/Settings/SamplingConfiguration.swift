import LodestoneCore
import LodestoneDomain
import LodestoneEncoding
import LodestoneBoard

/// The objects of the rate table in the configuration file (`sampling.rates`,
/// `sampling.lowPowerCeiling`): overrides of the table's rows, each rate checked with its
/// member named in the error.
extension Configuration {
    /// What each rate may be: Hz for streams, seconds for the GPS interval.
    static let rateRanges: [String: ClosedRange<Double>] = [
        "imu": 1...1000, "magnetometer": 1...1000, "barometer": 0.5...200,
        "processing": 1...1000, "gpsInterval": 0.1...60
    ]

    /// `{"still": {"imu": 25, ...}, ...}` over the table's rows.
    static func applySamplingRates(_ value: JSONValue, to table: inout SamplingTable) -> Setting.Refusal? {
        guard case .object(let states) = value else { return .notExpected }
        for (stateName, rates) in states {
            guard let state = MotionState(rawValue: stateName) else {
                return .at(key: stateName, "unknown motion state; known: \(MotionState.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            var row = table.rates[state] ?? table.lowPowerCeiling
            if let refusal = applyRates(rates, to: &row, key: stateName) { return refusal }
            table.rates[state] = row
        }
        return nil
    }

    /// `{"imu": 25, "gpsInterval": 5}` over one row; `key` names the row within the setting.
    static func applyRates(_ value: JSONValue, to rates: inout StreamRates, key: String?) -> Setting.Refusal? {
        let prefix = key.map { $0 + "." } ?? ""
        guard case .object(let members) = value else {
            return key.map { .at(key: $0, "must be an object like {\"imu\": 25, \"gpsInterval\": 5}") }
                ?? .because("must be an object like {\"imu\": 25, \"gpsInterval\": 5}")
        }
        for (name, option) in members {
            guard let range = rateRanges[name] else {
                return .at(key: prefix + name, "unknown rate; known: \(StreamRates.names.joined(separator: ", "))")
            }
            guard let n = option.numberValue, range.contains(n) else {
                return .at(
                    key: prefix + name, "must be a number from \(fixed(range.lowerBound, 1)) to \(fixed(range.upperBound, 0)), found \(describe(option))")
            }
            rates[name] = n
        }
        return nil
    }
}

extension StreamRates {
    /// The row as the configuration file writes it.
    var json: JSONValue { .object(Self.names.compactMap { name in self[name].map { (name, .number($0)) } }) }
}

extension SamplingTable {
    /// The rows by motion state, as the configuration file writes them.
    var ratesJSON: JSONValue {
        .object(MotionState.allCases.compactMap { state in rates[state].map { (state.rawValue, $0.json) } })
    }
}
