import Glibc

/// Altitude from pressure in the International Standard Atmosphere troposphere
/// (ICAO Doc 7488: 288.15 K at sea level, lapse rate 6.5 K/km, g0 = 9.80665 m/s^2).
public enum BarometricAltitude {
    /// Standard sea-level pressure, pascal.
    public static let standardPressure = 101_325.0
    /// R * L / (g0 * M) for dry air: the exponent of the pressure-height relation.
    static let exponent = 0.190_263
    /// T0 / L, metres.
    static let scaleHeight = 44_330.77

    /// Height in metres at which the standard atmosphere has `pressure`, counted from the level
    /// where it has `reference` (QNH for altitude above sea level, the standard pressure for
    /// flight-level-style pressure altitude). NaN for non-positive inputs.
    public static func altitude(pressure: Double, reference: Double = standardPressure) -> Double {
        guard pressure > 0, reference > 0 else { return .nan }
        return scaleHeight * (1 - pow(pressure / reference, exponent))
    }

    /// The sea-level pressure (QNH) that makes `pressure` read as `altitude` metres.
    public static func seaLevelPressure(pressure: Double, altitude: Double) -> Double {
        guard pressure > 0 else { return .nan }
        return pressure / pow(1 - altitude / scaleHeight, 1 / exponent)
    }
}
