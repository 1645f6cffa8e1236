import LodestoneCore
/// Metric or imperial figures for the display. Values arrive in SI (metres, metres per
/// second, pascal... as the state holds them); only what a person reads is converted.
public enum Units: String, Sendable, Equatable, CaseIterable {
    case metric, imperial

    public var toggled: Units { self == .metric ? .imperial : .metric }

    static let feetPerMetre = 3.280_839_895
    static let metresPerMile = 1_609.344

    /// An elevation or height: "1234 m" or "4049 ft".
    public func altitude(_ metres: Double) -> String {
        self == .metric ? fixed(metres, 0) + " m" : fixed(metres * Self.feetPerMetre, 0) + " ft"
    }

    /// A distance along the ground: metres under a kilometre, else kilometres; feet under a
    /// tenth of a mile, else miles.
    public func distance(_ metres: Double) -> String {
        guard metres.isFinite else { return "--" }
        switch self {
        case .metric: return metres < 1000 ? fixed(metres, 0) + " m" : fixed(metres / 1000, metres < 10_000 ? 2 : 1) + " km"
        case .imperial:
            let miles = metres / Self.metresPerMile
            return miles < 0.1 ? fixed(metres * Self.feetPerMetre, 0) + " ft" : fixed(miles, miles < 10 ? 2 : 1) + " mi"
        }
    }

    /// A speed from metres per second.
    public func speed(_ metresPerSecond: Double) -> String {
        self == .metric ? fixed(metresPerSecond * 3.6, 1) + " km/h" : fixed(metresPerSecond * 3600 / Self.metresPerMile, 1) + " mph"
    }

    /// A pressure from hectopascal: "1013.2 hPa" or "29.92 inHg".
    public func pressure(_ hectopascal: Double) -> String {
        self == .metric ? fixed(hectopascal, 1) + " hPa" : fixed(hectopascal * 0.029_529_983, 2) + " inHg"
    }

    /// A pressure change per hour, in the same unit as `pressure`.
    public func pressureRate(_ hectopascalPerHour: Double) -> String {
        self == .metric ? fixed(hectopascalPerHour, 1) + " hPa/h" : fixed(hectopascalPerHour * 0.029_529_983, 3) + " inHg/h"
    }

    /// A temperature from degrees Celsius.
    public func temperature(_ celsius: Double) -> String {
        self == .metric ? fixed(celsius, 1) + " °C" : fixed(celsius * 9 / 5 + 32, 1) + " °F"
    }
}
