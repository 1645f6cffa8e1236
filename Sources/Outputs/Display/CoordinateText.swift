import LodestoneCore
import LodestoneDomain

/// A latitude or longitude the three ways charts and receivers write them.
public enum CoordinateText {
    static func hemisphere(_ value: Double, latitude: Bool) -> String {
        latitude ? (value >= 0 ? "N" : "S") : (value >= 0 ? "E" : "W")
    }

    /// "47.376887° N".
    public static func decimal(_ value: Double, latitude: Bool) -> String {
        guard value.isFinite else { return "--" }
        return fixed(abs(value), 6) + "° " + hemisphere(value, latitude: latitude)
    }

    /// Degrees, minutes and seconds to a tenth: "47°22'36.8\" N".
    public static func dms(_ value: Double, latitude: Bool) -> String {
        guard value.isFinite else { return "--" }
        let tenths = Int((abs(value) * 36_000).rounded())
        let degrees = tenths / 36_000, minutes = tenths / 600 % 60, seconds = tenths % 600
        return "\(degrees)°\(format2(minutes))'\(format2(seconds / 10)).\(seconds % 10)\" " + hemisphere(value, latitude: latitude)
    }

    /// Degrees and decimal minutes, as GPS receivers and marine charts use: "47°22.6132' N".
    public static func ddm(_ value: Double, latitude: Bool) -> String {
        guard value.isFinite else { return "--" }
        let tenThousandths = Int((abs(value) * 600_000).rounded())
        // Rounded once in whole ten-thousandths of a minute, so 59.99995' never prints as 60'.
        let degrees = tenThousandths / 600_000, minutes = Double(tenThousandths % 600_000) / 10_000
        return "\(degrees)°\(minutes < 10 ? "0" : "")\(DecimalText.format(minutes, 4))' " + hemisphere(value, latitude: latitude)
    }
}
