import LodestoneCore
/// The figures a person reads, in one of three sets: metric; imperial; and nautical, as on a
/// boat (knots, nautical miles, metres for heights and depths, hPa, which is mbar, and °C).
/// Values arrive in SI (metres, metres per second, pascal... as the state holds them); only
/// what a person reads is converted.
public enum Units: String, Sendable, Equatable, CaseIterable {
    case metric, imperial, nautical

    /// The next set, as the `u` key cycles them: metric, imperial, nautical, metric...
    public var cycled: Units {
        switch self {
        case .metric: return .imperial
        case .imperial: return .nautical
        case .nautical: return .metric
        }
    }

    public static let list = allCases.map(\.rawValue).joined(separator: ", ")

    static let feetPerMetre = 3.280_839_895
    static let metresPerMile = 1_609.344
    /// The international nautical mile, 1852 m exactly; a knot is one per hour.
    static let metresPerNauticalMile = 1_852.0

    /// An elevation, height or depth: "1234 m" or "4049 ft".
    public func altitude(_ metres: Double) -> String {
        self == .imperial ? fixed(metres * Self.feetPerMetre, 0) + " ft" : fixed(metres, 0) + " m"
    }

    /// A distance: metres under a kilometre, else kilometres; feet under a tenth of a mile,
    /// else miles; metres under a tenth of a nautical mile, else nautical miles.
    public func distance(_ metres: Double) -> String {
        guard metres.isFinite else { return "--" }
        switch self {
        case .metric: return metres < 1000 ? fixed(metres, 0) + " m" : fixed(metres / 1000, metres < 10_000 ? 2 : 1) + " km"
        case .imperial:
            let miles = metres / Self.metresPerMile
            return miles < 0.1 ? fixed(metres * Self.feetPerMetre, 0) + " ft" : fixed(miles, miles < 10 ? 2 : 1) + " mi"
        case .nautical:
            let miles = metres / Self.metresPerNauticalMile
            return miles < 0.1 ? fixed(metres, 0) + " m" : fixed(miles, miles < 10 ? 2 : 1) + " nm"
        }
    }

    /// A speed from metres per second.
    public func speed(_ metresPerSecond: Double) -> String { speedFigure(metresPerSecond) + " " + speedUnit }

    /// The figure alone, where several speeds share one unit ("WIND 15.1 G28.1 KM/H").
    public func speedFigure(_ metresPerSecond: Double) -> String {
        switch self {
        case .metric: return fixed(metresPerSecond * 3.6, 1)
        case .imperial: return fixed(metresPerSecond * 3600 / Self.metresPerMile, 1)
        case .nautical: return fixed(metresPerSecond * 3600 / Self.metresPerNauticalMile, 1)
        }
    }

    public var speedUnit: String {
        switch self {
        case .metric: return "km/h"
        case .imperial: return "mph"
        case .nautical: return "kn"
        }
    }

    /// A pressure from hectopascal: "1013.2 hPa" or "29.92 inHg".
    public func pressure(_ hectopascal: Double) -> String {
        self == .imperial ? fixed(hectopascal * 0.029_529_983, 2) + " inHg" : fixed(hectopascal, 1) + " hPa"
    }

    /// A pressure as a bare figure in the set's unit (a graph's extremes): "1013.2" or "29.92".
    public func pressureFigure(_ hectopascal: Double) -> String {
        self == .imperial ? fixed(hectopascal * 0.029_529_983, 2) : fixed(hectopascal, 1)
    }

    /// A signed pressure change, in the same unit as `pressure`: "+1.2 hPa", "-0.035 inHg".
    public func pressureChange(_ hectopascal: Double) -> String {
        let sign = hectopascal >= 0 ? "+" : ""
        return self == .imperial ? sign + fixed(hectopascal * 0.029_529_983, 3) + " inHg" : sign + fixed(hectopascal, 1) + " hPa"
    }

    /// A pressure change per hour, in the same unit as `pressure`.
    public func pressureRate(_ hectopascalPerHour: Double) -> String {
        self == .imperial ? fixed(hectopascalPerHour * 0.029_529_983, 3) + " inHg/h" : fixed(hectopascalPerHour, 1) + " hPa/h"
    }

    /// A temperature from degrees Celsius.
    public func temperature(_ celsius: Double) -> String {
        self == .imperial ? fixed(celsius * 9 / 5 + 32, 1) + " °F" : fixed(celsius, 1) + " °C"
    }
}
